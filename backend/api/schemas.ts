import { z } from "@hono/zod-openapi";
import { runTriggeredByFields } from "../../contract/activity.js";
import { SOURCE_MANIFESTS } from "../../contract/integrations/sources.js";
import type { SourceManifest } from "../../contract/integrations/types.js";
import { DESTINATION_MANIFESTS } from "../../contract/integrations/destinations.js";
import { sourcePlugin } from "../integrations/sources/index.js";
import type { DestinationContract } from "../../contract/integrations/settings.js";
import { SOURCE_INTEGRATION_NAMES, SOURCE_MESSAGES, sourceDescriptionSchema, sourceNameSchema } from "../../contract/sources.js";
import { DESTINATION_MESSAGES, updateDestinationSchema } from "../../contract/destinations.js";
import { connectorSchema, syncRunSchema } from "../../contract/connectors.js";
import { transformRunSchema, transformSchema } from "../../contract/transforms.js";

/**
 * The public API's own records and bodies (issue 51 item 6), apart from the app's spec-shaped ones: one name per value
 * (`integration`, `credential_id`, `settings`), and a source's or a destination's settings declared per integration, a
 * discriminated union in the document, so that a client generated from it knows what each integration takes.
 */

const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());
const DESTINATION_NAMES = DESTINATION_MANIFESTS.map((m) => m.name) as [string, ...string[]];
const timestamps = {
  created_at: z.string().describe("When it was made (ISO 8601)."),
  updated_at: z.string().nullable().describe("When it last changed (ISO 8601), or null."),
};

export const apiSourceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    integration: z.enum(SOURCE_INTEGRATION_NAMES).describe("Where its data comes from."),
    integration_label: z.string().describe("The integration's name as people read it (“Microsoft Teams”)."),
    credential_id: z.string().nullable().describe("The account it reads with, authenticated in the app."),
    status: z.string().nullable(),
    settings: z.record(z.unknown()).describe("Its integration's settings, as created."),
    connector_count: z.number().int().describe("Connectors reading from it."),
    ...timestamps,
  })
  .openapi("Source");
export type ApiSource = z.infer<typeof apiSourceSchema>;

export const apiDestinationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    integration: z.enum(DESTINATION_NAMES).describe("Where its data lands."),
    integration_label: z.string().describe("The integration's name as people read it (“BigQuery”)."),
    category: z.enum(["WAREHOUSE", "STORAGE"]),
    status: z.string().nullable(),
    settings: z.record(z.unknown()).describe("Its integration's settings (secrets are never answered)."),
    credential_id: z.string().nullable(),
    connector_count: z.number().int().describe("Connectors writing to it."),
    ...timestamps,
  })
  .openapi("Destination");
export type ApiDestination = z.infer<typeof apiDestinationSchema>;

/**
 * Whether a source integration reads no account: its only setup call is its callback (the data generator). The API
 * makes its credential itself, as the app's Authenticate button does.
 */
export function readsNoAccount(integration: string): boolean {
  const calls = Object.keys(sourcePlugin(integration)?.setup ?? {});
  return calls.length === 1 && calls[0] === "callback";
}

/** POST /sources, one variant per source integration: its settings are that integration's. */
function sourceCreateVariant(m: SourceManifest) {
  return z
    .object({
      integration: z.literal(m.name),
      name: sourceNameSchema,
      description: sourceDescriptionSchema.optional(),
      credential_id: z
        .string()
        .optional()
        .describe(readsNoAccount(m.name) ? "Not needed: this integration reads no account." : "Required: the credential authenticated in the app for this integration."),
      settings: m.settings.optional().describe(`${m.label}'s settings.`),
    })
    .openapi(`${pascal(m.name)}SourceCreate`);
}

const destinationName = z.string({ required_error: DESTINATION_MESSAGES.name, invalid_type_error: DESTINATION_MESSAGES.name });
const destinationDescription = updateDestinationSchema.shape.description;

/** POST /destinations, one variant per destination integration. */
function destinationCreateVariant(m: DestinationContract) {
  return z
    .object({
      integration: z.literal(m.name),
      name: destinationName,
      description: destinationDescription,
      settings: m.settings.optional().describe(`${m.label}'s settings.`),
      ...(m.needsConnectionTest
        ? {
            credential_id: z.string().describe("The credential of a successful connection test made in the app."),
            validation_token: z.string().describe("The token that test answered: it covers exactly these settings."),
          }
        : {}),
    })
    .openapi(`${pascal(m.name)}DestinationCreate`);
}

/** One variant per integration, told apart by `integration`; no or an unknown integration is refused with `unknown`. */
const unionOf = <T extends z.ZodDiscriminatedUnionOption<"integration">>(variants: T[], unknown: string) =>
  z.discriminatedUnion("integration", variants as [T, T, ...T[]], {
    errorMap: (issue, ctx) => ({ message: issue.code === "invalid_union_discriminator" ? unknown : ctx.defaultError }),
  });

export const apiCreateSourceSchema = unionOf(SOURCE_MANIFESTS.map(sourceCreateVariant), SOURCE_MESSAGES.integrationRequired).openapi("SourceCreate");
export type ApiCreateSource = z.infer<typeof apiCreateSourceSchema>;

export const apiCreateDestinationSchema = unionOf(DESTINATION_MANIFESTS.map(destinationCreateVariant), DESTINATION_MESSAGES.integration).openapi("DestinationCreate");
export type ApiCreateDestination = z.infer<typeof apiCreateDestinationSchema>;

/** PATCH /destinations/{id}: its name and description, and what its integration lets change (tested again where it must be). */
export const apiUpdateDestinationSchema = z
  .object({
    name: destinationName,
    description: destinationDescription,
    settings: z.record(z.unknown()).optional().describe("The settings to change (a project, a bucket, a dataset), where its integration allows it."),
    credential_id: z.string().optional().describe("With changed settings: the credential of a new successful connection test."),
    validation_token: z.string().optional().describe("With changed settings: the token that test answered."),
  })
  .openapi("DestinationUpdate");
export type ApiUpdateDestination = z.infer<typeof apiUpdateDestinationSchema>;

/** The records the API answers as the app does, named in the document (a run says who asked for it: a member's or a key's name, null for the schedule). */
export const apiConnectorSchema = connectorSchema.openapi("Connector");
export const apiSyncRunSchema = syncRunSchema.extend(runTriggeredByFields).openapi("SyncRun");
export const apiTransformSchema = transformSchema.openapi("Transform");
export const apiTransformRunSchema = transformRunSchema.extend(runTriggeredByFields).openapi("TransformRun");
