import { z } from "zod";
import { DEFAULT_FILE_TYPE, TRANSFORM_FILE_TYPES, type RequirementInput, type TemplateInput } from "./transforms.js";

/**
 * The transform forms beyond the records: what a connector's data holds (issue 26, transforms tell the truth about
 * their input) and the template wizard's conform schemas. The backend checks the values again with its own schemas.
 */

/* ---- what the connector's data holds (issue 26: transforms tell the truth about their input) ------- */

const and = new Intl.ListFormat("en", { type: "conjunction" });
const or = new Intl.ListFormat("en", { type: "disjunction" });

/** The file types of TRANSFORM_FILE_TYPES a connector's data has, the form's default first when it has it. */
export function preferredFileType(available: readonly string[]): string {
  if (available.length === 0 || available.includes(DEFAULT_FILE_TYPE)) return DEFAULT_FILE_TYPE;
  return TRANSFORM_FILE_TYPES.find((t) => available.includes(t)) ?? DEFAULT_FILE_TYPE;
}

/** A run that succeeded without reading one record: shown as "No input", never as a plain success. */
export const foundNoInput = (run: { status: string; records: number }) => run.status === "succeeded" && run.records === 0;

/** What the pages say about a transform's input, beyond the spec. */
export const INPUT_MESSAGES = {
  noInputStatus: "No input",
  dataHas: (types: readonly string[]) => `This connector's data comes as ${and.format(types)} files.`,
  notSynced: "It has not synced yet.",
  typeMissing: (type: string, types: readonly string[]) =>
    `This connector's data has no ${type} files, so a transform reading them would find no records. Choose ${or.format(types)}.`,
  /** A preview of 0 records: the file type has none but others have some. */
  previewOtherTypes: (type: string, count: number, types: readonly string[]) =>
    `No records to analyse: this connector's data has no ${type} files. It has ${count.toLocaleString("en-US")} ${count === 1 ? "record" : "records"} as ${and.format(types)} files: go back to the first step and choose ${or.format(types)} as the file type.`,
  /** A preview of 0 records: the connector's data would have the type, but nothing is synced yet. */
  previewNotSynced: (type: string) => `No records to analyse: this connector has no ${type} files synced yet. Sync the connector (Sync now on its page), then preview again.`,
  /** A preview of 0 records: the type is not in the connector's data, and nothing is synced yet either. */
  previewWrongType: (type: string, types: readonly string[]) =>
    `No records to analyse: this connector's data has no ${type} files, it comes as ${and.format(types)} files. Go back to the first step and choose ${or.format(types)} as the file type.`,
  /** A run that read nothing, because the transform's file types are not in the connector's data. */
  runWrongType: (types: readonly string[], connector: string, available: readonly string[]) =>
    `The latest run found no input records: this transform reads ${and.format(types)} files and the data of ${connector} comes as ${and.format(available)} files. To analyse it, create the transform again with the file type ${or.format(available)}.`,
  /** A run that read nothing, because nothing of those types was synced. */
  runNotSynced: (types: readonly string[], connector: string) =>
    `The latest run found no input records: ${connector} had no ${and.format(types)} files synced when it ran. Sync the connector, then run the transform again.`,
  runNote: "No records of this transform's file types in the connector's data.",
} as const;

/* ---- the wizard's form schemas (the app's conform forms; the backend checks the values again) ------ */

/** An input's words when it has no label of its own ("max_topics" → "Max topics"). */
export function inputWords(key: string): string {
  const words = key.replace(/[_.-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A text that must be one of `options` (an enum input), required or not. */
function choice(label: string, options: readonly string[] | undefined, required: boolean) {
  const fill = `Please fill in ${label}`;
  const base = z.string({ required_error: fill }).trim();
  const filled = required ? base.min(1, fill) : base;
  // An optional input left blank (spaces only) is no choice; one filled must be among the options.
  const checked = options ? filled.refine((v) => (!required && v === "") || options.includes(v), `Please choose one of the options for ${label}`) : filled;
  return required ? checked : checked.optional();
}

/**
 * A permission step's requirement inputs as the form posts them (`req.<key>`): the required ones filled, an enum
 * one of its options (spec §4). Empty optional ones read "".
 */
export function requirementInputsSchema(inputs: readonly RequirementInput[]) {
  return z.object(Object.fromEntries(inputs.map((input) => [input.key, choice(input.label, input.type === "enum" ? input.enum : undefined, input.required).transform((v) => v ?? "")])));
}

/** A whole number from a text field, within the input's min and max. */
function wholeNumber(label: string, def: TemplateInput) {
  const range =
    def.min !== undefined && def.max !== undefined
      ? `${label} must be between ${def.min} and ${def.max}`
      : def.min !== undefined
        ? `${label} must be at least ${def.min}`
        : `${label} must be at most ${def.max}`;
  const number = z
    .string({ required_error: `Please fill in ${label}` })
    .trim()
    .regex(/^-?\d+$/, `${label} must be a whole number`)
    .transform(Number)
    .refine((n) => (def.min === undefined || n >= def.min) && (def.max === undefined || n <= def.max), range);
  return def.required ? number : number.optional();
}

/**
 * A template's inputs as the config form posts them (`in.<key>`), by type (spec §5): integers within min and max,
 * lists comma separated with each item trimmed, booleans as a ticked box, enums one of their options, required ones
 * filled. Hidden inputs are not in the form: they keep their defaults.
 */
export function templateInputsSchema(defs: Record<string, TemplateInput>) {
  const shape: Record<string, z.ZodTypeAny> = {};
  const hidden: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(defs)) {
    const label = def.label ?? inputWords(key);
    if (def.hidden) {
      if (def.default !== undefined) hidden[key] = def.default;
      continue;
    }
    if (def.type === "boolean") shape[key] = z.string().optional().transform((v) => v === "true");
    else if (def.type === "integer") shape[key] = wholeNumber(label, def);
    else if (def.type === "list[string]") {
      const list = z
        .string()
        .optional()
        .transform((text) => (text ?? "").split(",").map((item) => item.trim()).filter(Boolean));
      shape[key] = def.required ? list.refine((items) => items.length > 0, `Please fill in ${label}`) : list;
    } else shape[key] = choice(label, def.type === "enum" ? def.enum : undefined, def.required);
  }
  return z
    .object(shape)
    .default({})
    .transform((values) => ({ ...hidden, ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) }));
}
