import { z } from "zod";

/**
 * Text a user sends must be storable as it is: Postgres text and jsonb cannot hold NUL (U+0000), a lone UTF-16
 * surrogate is silently mangled in text and refused in jsonb, and the other C0 controls (tab, newline and carriage
 * return aside) are never meant in a name or a form field. Every free-text schema refines with these, so such input
 * is a 400 with a sentence rather than a database error.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(value: string): boolean {
  return !CONTROL.test(value) && !LONE_SURROGATE.test(value);
}

export const controlCharactersMessage = (label: string) => `${label} must not contain control characters.`;

/** `schema` (a string schema) refined to storable text; `label` names the field in the message. */
export function storable<T extends z.ZodType<string, z.ZodTypeDef, unknown>>(schema: T, label: string) {
  return schema.refine(isStorableText, { message: controlCharactersMessage(label) });
}

/**
 * A name (of a key, a source, a destination, a connector, a transform) is one line that people read in lists and
 * e-mails: besides being storable, it holds no control character at all (C0, DEL and C1, tab and line breaks
 * included) and no text-direction mark or override (U+200E/U+200F, U+061C, U+202A–U+202E, U+2066–U+2069), which
 * could make "Report\u202Egpj.exe" read as "Reportexe.jpg".
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NAME_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const DIRECTION_MARK = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

export const directionMarksMessage = (label: string) => `${label} must not contain text-direction marks (such as a right-to-left override).`;

/** `schema` (a string schema of a name) refined to one plain line of text; `label` names the field in the message. */
export function storableName<T extends z.ZodType<string, z.ZodTypeDef, unknown>>(schema: T, label: string) {
  return schema.refine(isNameText, (value) => ({ message: isStorableText(value) && !NAME_CONTROL.test(value) ? directionMarksMessage(label) : controlCharactersMessage(label) }));
}

export function isNameText(value: string): boolean {
  return isStorableText(value) && !NAME_CONTROL.test(value) && !DIRECTION_MARK.test(value);
}

/** Whether every string (and key) in a JSON value is storable; arrays and objects are walked to `maxDepth`. */
export function isStorableJson(value: unknown, maxDepth = 64): boolean {
  if (typeof value === "string") return isStorableText(value);
  if (value === null || typeof value !== "object") return true;
  if (maxDepth <= 0) return false;
  if (Array.isArray(value)) return value.every((item) => isStorableJson(item, maxDepth - 1));
  return Object.entries(value).every(([key, item]) => isStorableText(key) && isStorableJson(item, maxDepth - 1));
}

/** A free-form JSON object (template inputs, metadata) whose strings are all storable. */
export const storableRecord = (label: string) =>
  z.record(z.unknown()).refine((v) => isStorableJson(v), { message: `${label} must not contain control characters or be nested too deeply.` });
