import { EMAIL_PROGRAMS } from "./email.js";
import { TRANSCRIPT_PROGRAMS } from "./transcripts.js";
import type { TemplateProgram } from "./types.js";

/** Each template's program, by template id. */
const PROGRAMS: Record<string, TemplateProgram> = { ...TRANSCRIPT_PROGRAMS, ...EMAIL_PROGRAMS };

export function programOf(templateId: string): TemplateProgram | null {
  return PROGRAMS[templateId] ?? null;
}

export { PipelineConfigError } from "./errors.js";
export type { ProgramContext, TemplateProgram } from "./types.js";
