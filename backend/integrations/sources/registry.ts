import type { SourcePlugin } from "./plugin.js";
import { zoomPlugin } from "./zoom/plugin.js";
import { teamsPlugin } from "./teams/plugin.js";
import { gmailPlugin } from "./gmail/plugin.js";
import { datagenPlugin } from "./datagen/plugin.js";
import { outlookPlugin } from "./outlook/plugin.js";
import { meetPlugin } from "./meet/plugin.js";

/** The source plug-ins. A new source adds one line here and its manifest to contract/integrations/sources.ts. */
export const SOURCE_PLUGINS: readonly SourcePlugin[] = [
  datagenPlugin,
  zoomPlugin,
  teamsPlugin,
  gmailPlugin,
  meetPlugin,
  outlookPlugin,
];

export function sourcePlugin(name: string | null | undefined): SourcePlugin | undefined {
  return SOURCE_PLUGINS.find((p) => p.manifest.name === name);
}

/** The source integrations a run can read. */
export const READABLE_INTEGRATIONS: string[] = SOURCE_PLUGINS.map((p) => p.manifest.name);
