import type { RequirementInput } from "../../../../contract/transforms.js";
import type { WarehouseTarget } from "../plugin.js";

/** What the warehouse plug-ins' transform-wizard texts share: the destination's settings in the texts, the results input. */

/**
 * A setting of the destination's config when it is set (`shown`: as the texts name it, e.g. quoted), else `placeholder`
 * (undefined where the text has nothing to show, e.g. no default).
 */
export function setting<P extends string | undefined>(target: WarehouseTarget, key: string, placeholder: P, shown: (value: string) => string = (value) => value): string | P {
  const value = target.config[key];
  return typeof value === "string" && value ? shown(value) : placeholder;
}

/** Several settings at once: each key of `placeholders` as `setting` gives it. */
export function settings<K extends string>(target: WarehouseTarget, placeholders: Record<K, string>, shown?: (value: string) => string): Record<K, string> {
  const entries = Object.entries<string>(placeholders).map(([key, placeholder]) => [key, setting(target, key, placeholder, shown)]);
  return Object.fromEntries(entries) as Record<K, string>;
}

/** The required text input naming where the result tables go (a dataset, a schema), with its default. */
export function resultsInput(key: string, label: string, input: Pick<RequirementInput, "default" | "placeholder" | "description">): RequirementInput {
  return { key, label, type: "string", default: input.default, placeholder: input.placeholder, required: true, description: input.description };
}
