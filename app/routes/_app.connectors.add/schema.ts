import { z } from "zod";
import { CONNECTOR_MESSAGES as M, createConnectorBodySchema, type CreateConnectorBody, type LookbackOption } from "@contract/connectors";
import type { Destination } from "@contract/destinations";
import type { Source } from "@contract/sources";

/** The form's values as the page shows them (the cascade's choices, what the user typed). */
export interface Values {
  name: string;
  description: string;
  source: string;
  platform: string;
  frequency: string;
  lookback_days: string;
  destination_ids: string[];
}

/** What the page draws: the values and what the cascade of spec §4 loaded for them. */
export interface PageData {
  values: Values;
  sources: Source[];
  lookbackOptions: LookbackOption[];
  /** null until a source is chosen. */
  platforms: string[] | null;
  /** null until a platform is chosen. */
  destinations: Destination[] | null;
  loadErrors: string[];
}

/** The rules of spec §5 that depend on what the cascade loaded for the chosen source and platform. */
export interface CascadeRules {
  platforms: string[] | null;
  destinations: Pick<Destination, "id" | "category">[] | null;
  /** The chosen source's required destination categories. */
  requiredCategories: string[];
}

export function cascadeRules(data: PageData): CascadeRules {
  const source = data.sources.find((s) => s.id === data.values.source);
  return { platforms: data.platforms, destinations: data.destinations, requiredCategories: source?.required_integration_categories ?? [] };
}

const body = createConnectorBodySchema.shape;

/**
 * The create form's rules (spec §5 "Connector create", message for message): the contract's payload schema, its
 * `source_id` named `source` as the form (and the address of the cascade) calls it, plus the rules of the chosen
 * source and platform. Each rule belongs to one field, so every error shows at once, each under its field. The
 * parsed value is the payload of POST /connectors/create.
 */
export function createFormSchema(rules: CascadeRules) {
  return z
    .object({
      name: body.name,
      description: body.description,
      source: body.source_id,
      platform: body.platform.superRefine((platform, ctx) => {
        if (!rules.platforms?.length) return;
        if (!platform) ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.platformRequired });
        else if (!rules.platforms.includes(platform)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.platformInvalid });
      }),
      destination_ids: body.destination_ids.superRefine((ids, ctx) => {
        const offered = rules.destinations;
        if (!offered) return;
        const fail = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message });
        if (offered.length === 0) return fail(M.noDestinationsForPlatform);
        if (ids.length === 0) return fail(M.destinationsRequired);
        const chosen = offered.filter((d) => ids.includes(d.id));
        const missing = rules.requiredCategories.filter((c) => !chosen.some((d) => d.category.toUpperCase() === c.toUpperCase()));
        if (missing.length) fail(M.missingCategories(missing));
      }),
      frequency: body.frequency,
      lookback_days: body.lookback_days,
    })
    .transform(({ source, ...rest }): CreateConnectorBody => ({ ...rest, source_id: source }));
}
