import type { RequirementInput, TemplateInput } from "../../contract/transforms.js";
import { HOSTED_PROVIDER, type TemplateDefinition } from "./catalogue.js";
import { HOSTED_UNAVAILABLE, hostedProvider } from "./provider.js";

/** A bad input value: `message` is a sentence for the user, `field` names the input ("inputs.num_topics"). */
export class InputError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");
const labelOf = (key: string, def: { label?: string }) => `"${def.label ?? key}"`;

/** §5: list inputs are comma separated and each item trimmed (an array of strings is accepted too). */
export function parseList(value: unknown): string[] | null {
  const items = typeof value === "string" ? value.split(",") : Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : null;
  if (!items) return null;
  return items.map((s) => s.trim()).filter(Boolean);
}

function parseOne(key: string, def: TemplateInput, value: unknown): unknown {
  const field = `inputs.${key}`;
  const label = labelOf(key, def);
  switch (def.type) {
    case "integer": {
      const n = typeof value === "number" ? value : typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(n)) throw new InputError(`${label} must be a whole number.`, field);
      if ((def.min !== undefined && n < def.min) || (def.max !== undefined && n > def.max)) {
        const range = def.min !== undefined && def.max !== undefined ? `between ${def.min} and ${def.max}` : def.min !== undefined ? `at least ${def.min}` : `at most ${def.max}`;
        throw new InputError(`${label} must be ${range}.`, field);
      }
      return n;
    }
    case "boolean": {
      if (typeof value === "boolean") return value;
      const text = typeof value === "string" ? value.trim().toLowerCase() : "";
      if (["true", "on", "1", "yes"].includes(text)) return true;
      if (["false", "off", "0", "no"].includes(text)) return false;
      throw new InputError(`${label} must be true or false.`, field);
    }
    case "enum": {
      const text = typeof value === "string" ? value.trim() : "";
      if (!def.enum?.includes(text)) throw new InputError(`${label} must be one of: ${(def.enum ?? []).join(", ")}.`, field);
      if (text === HOSTED_PROVIDER && !hostedProvider()) throw new InputError(HOSTED_UNAVAILABLE, field);
      return text;
    }
    case "list[string]": {
      const list = parseList(value);
      if (!list) throw new InputError(`${label} must be a comma-separated list.`, field);
      if (def.required && list.length === 0) throw new InputError(`${label} needs at least one item.`, field);
      if (list.some((item) => item.length > 200)) throw new InputError(`Each item of ${label} must be at most 200 characters.`, field);
      return list;
    }
    case "string": {
      if (typeof value !== "string") throw new InputError(`${label} must be text.`, field);
      return value.trim();
    }
  }
}

/**
 * The template's inputs from what the caller sent: unknown keys are refused,
 * absent or blank values take the default, every value is checked against its
 * definition (§5: integers honour min and max; lists are comma separated, items trimmed).
 */
export function validateInputs(d: TemplateDefinition, raw: Record<string, unknown> | undefined): Record<string, unknown> {
  const given = raw ?? {};
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(d.inputs, key)) throw new InputError(`Unknown input "${key}" for the template ${d.name}.`, `inputs.${key}`);
  }
  const values: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(d.inputs)) {
    const value = given[key];
    if (blank(value)) {
      if (def.default !== undefined) values[key] = def.type === "list[string]" ? (parseList(def.default) ?? []) : def.default;
      else if (def.required) throw new InputError(`${labelOf(key, def)} is required.`, `inputs.${key}`);
      continue;
    }
    values[key] = parseOne(key, def, value);
  }
  return values;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * The requirement inputs of the template's setup steps: unknown keys refused,
 * absent ones take their default, required ones sent blank are refused (§5:
 * "Required requirement inputs must be non-empty"). They all name warehouse
 * objects, so they must be plain identifiers.
 */
export function validateRequirementInputs(definitions: RequirementInput[], raw: Record<string, unknown> | undefined): Record<string, string> {
  const given = raw ?? {};
  for (const key of Object.keys(given)) {
    if (!definitions.some((d) => d.key === key)) throw new InputError(`Unknown requirement input "${key}".`, `requirement_inputs.${key}`);
  }
  const values: Record<string, string> = {};
  for (const def of definitions) {
    const field = `requirement_inputs.${def.key}`;
    const value = given[def.key];
    if (value !== undefined && value !== null && typeof value !== "string") throw new InputError(`"${def.label}" must be text.`, field);
    const text = value === undefined || value === null ? (def.default ?? "") : value.trim();
    if (!text) {
      if (def.required) throw new InputError(`Please fill in "${def.label}".`, field);
      continue;
    }
    if (def.type === "enum" && !def.enum?.includes(text)) throw new InputError(`"${def.label}" must be one of: ${(def.enum ?? []).join(", ")}.`, field);
    if (!NAME.test(text)) throw new InputError(`"${def.label}" may contain only letters, digits and _, and must not start with a digit.`, field);
    values[def.key] = text;
  }
  return values;
}
