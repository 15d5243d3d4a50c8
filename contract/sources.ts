import { z } from "zod";
import { storable, storableName } from "./text.js";
import { SOURCE_MANIFESTS, sourceManifest, type SourceIntegrationName } from "./integrations/sources.js";
import { optionalText, SOURCE_MESSAGES } from "./integrations/source-kit.js";
import { zoomGroupSchema, zoomMetadataSchema, type ZoomGroup } from "./integrations/zoom.js";
import { teamsCallbackBodySchema, teamSetupBodySchema, teamsMetadataSchema, teamsTeamSchema, type TeamsTeam } from "./integrations/teams.js";
import {
  DEFAULT_GMAIL_AUTH_MODE,
  GMAIL_AUTH_MODES,
  gmailCallbackBodySchema,
  gmailGroupsBodySchema,
  gmailMetadataSchema,
  gmailTestBodySchema,
  type GmailAuthMode,
} from "./integrations/gmail.js";
import { DATAGEN_FORMATS, datagenMetadataSchema } from "./integrations/datagen.js";
import { authOptionsResponseSchema, connectionTestResponseSchema, credentialIdSchema } from "./integrations/setup-calls.js";

export { SOURCE_MESSAGES, zoomMetadataSchema, teamsMetadataSchema, gmailMetadataSchema, datagenMetadataSchema, GMAIL_AUTH_MODES, DEFAULT_GMAIL_AUTH_MODE, DATAGEN_FORMATS };
export { zoomGroupSchema, teamsTeamSchema, teamsCallbackBodySchema, teamSetupBodySchema, gmailCallbackBodySchema, gmailGroupsBodySchema, gmailTestBodySchema };
export type { GmailAuthMode, ZoomGroup, TeamsTeam };
export {
  authUrlResponseSchema,
  callbackResponseSchema,
  credentialBodySchema,
  googleGroupSchema,
  oauthCallbackBodySchema,
  setupInstructionsSchema,
  sourceSetupStepSchema,
  verifySetupResponseSchema,
  type CallbackResponse,
  type GoogleGroup,
  type SetupInstructions,
  type SetupStep,
} from "./integrations/setup-calls.js";

/** Spec §3 Source, as every source call returns it. */
export const sourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  integration_id: z.string(),
  integration_name: z.string(),
  integration_label: z.string(),
  credentialId: z.string().nullable(),
  status: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  connector_count: z.number().int(),
  required_integration_categories: z.array(z.string()),
  source_metadata: z.record(z.unknown()),
});
export type Source = z.infer<typeof sourceSchema>;

/** Spec §3/§9: the source integrations, in the order the type select shows them (from their manifests). */
export const SOURCE_INTEGRATIONS = SOURCE_MANIFESTS.map(({ name, label }) => ({ name, label }));
export type { SourceIntegrationName };
export const SOURCE_INTEGRATION_NAMES = SOURCE_MANIFESTS.map((i) => i.name) as [SourceIntegrationName, ...SourceIntegrationName[]];
export const integrationLabel = (name: string) => sourceManifest(name)?.label ?? null;
export const isSourceIntegration = (name: string | null | undefined): name is SourceIntegrationName => !!sourceManifest(name);

/** Spec §3 constants. */
export const AUTH_STATES = ["authenticated", "failed"] as const;
export const SCOPES = ["ORG", "TEAM", "GROUP", "INDIVIDUAL"] as const;

/** Source status (docs/decisions/2026-11-22-source-status.md). null is shown as "Unknown". */
export const SOURCE_STATUSES = ["active", "error"] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

const NAME_TOO_LONG = "Source name must be 200 characters or fewer";
export const sourceNameSchema = storableName(
  z
    .string({ required_error: SOURCE_MESSAGES.nameRequired, invalid_type_error: SOURCE_MESSAGES.nameRequired })
    .trim()
    .min(1, SOURCE_MESSAGES.nameRequired)
    .max(200, NAME_TOO_LONG),
  "Name",
);
/** Optional: missing, null and empty are "" (written without a preprocess, so a form parser's own coercion of "" keeps it optional). */
export const sourceDescriptionSchema = storable(z.string({ invalid_type_error: "Description must be text" }).trim().max(2000, "Description must be 2,000 characters or fewer"), "Description")
  .nullish()
  .transform((v) => v ?? "");

/** The buttons of the Create Source form (spec §2): each sends the whole form with its intent. */
export const SOURCE_FORM_INTENTS = ["authenticate", "setup", "verify", "create"] as const;
export type SourceFormIntent = (typeof SOURCE_FORM_INTENTS)[number];
export const UNKNOWN_SOURCE_INTENT = "Unknown action. Please use the form's buttons.";

/** What the Create Source form sends, once its schema has read it: the typed text, the authentication type and setup by field name. */
export type SourceFormValue = { intent: SourceFormIntent; name?: string; description: string } & Record<string, string | undefined>;

/** An integration's part of the Create Source form: its setup fields, and its authentication types when it has several (Gmail). */
export interface SourceFormFields {
  setupFields: readonly string[];
  authMode?: { field: string; modes: readonly string[]; required: string };
}

/**
 * The Create Source form (spec §2/§5) as one schema, whichever button sent it: the text the user typed (the name
 * required by Create only, every limit checked on every press, so what the draft carries is storable), the
 * authentication type of an integration with several (required by Authenticate and Create) and the integration's
 * setup fields as typed. What Create needs beyond the form (an integration in the address, the authentication, the
 * verification, the setup's own rules over what the lists hold) the page's action checks, with the spec's messages.
 */
export function sourceFormSchema(form: SourceFormFields): z.ZodType<SourceFormValue, z.ZodTypeDef, unknown> {
  const setup: z.ZodRawShape = Object.fromEntries(form.setupFields.map((field) => [field, z.string().max(1000, "A setup field must be 1,000 characters or fewer").optional()]));
  const auth = form.authMode;
  const mode = (required: boolean): z.ZodRawShape =>
    !auth
      ? {}
      : { [auth.field]: required ? z.string({ required_error: auth.required }).refine((m) => auth.modes.includes(m), auth.required) : z.string().max(100).optional() };
  const optionalName = storableName(z.string().trim().max(200, NAME_TOO_LONG), "Name").optional();
  const rest = { description: sourceDescriptionSchema, ...setup };
  const schema = z.discriminatedUnion(
    "intent",
    [
      z.object({ intent: z.literal("create"), name: sourceNameSchema, ...rest, ...mode(true) }),
      z.object({ intent: z.literal("authenticate"), name: optionalName, ...rest, ...mode(true) }),
      z.object({ intent: z.enum(["setup", "verify"]), name: optionalName, ...rest, ...mode(false) }),
    ],
    { errorMap: (issue, ctx) => ({ message: issue.code === "invalid_union_discriminator" ? UNKNOWN_SOURCE_INTENT : ctx.defaultError }) },
  );
  return schema as unknown as z.ZodType<SourceFormValue, z.ZodTypeDef, unknown>;
}

/** Each integration's settings schema, from its manifest. */
export const METADATA_SCHEMAS = Object.fromEntries(SOURCE_MANIFESTS.map((m) => [m.name, m.settingsRules])) as Record<SourceIntegrationName, (typeof SOURCE_MANIFESTS)[number]["settingsRules"]>;

/** POST /sources/create (spec §7). `source_metadata` or `credential_metadata` carries the setup. */
export const createSourceBodySchema = z
  .object({
    name: sourceNameSchema,
    description: sourceDescriptionSchema,
    credentialId: storable(
      z.string({ required_error: SOURCE_MESSAGES.mustAuthenticate, invalid_type_error: SOURCE_MESSAGES.mustAuthenticate }).trim().min(1, SOURCE_MESSAGES.mustAuthenticate).max(100, SOURCE_MESSAGES.mustAuthenticate),
      "credentialId",
    ),
    integration_name: z.enum(SOURCE_INTEGRATION_NAMES, { errorMap: () => ({ message: SOURCE_MESSAGES.integrationRequired }) }),
    integration_label: storable(z.string().max(200), "integration_label").optional(),
    source_metadata: z.record(z.unknown()).optional(),
    credential_metadata: z.record(z.unknown()).optional(),
  })
  .transform((body, ctx) => {
    const raw = body.source_metadata ?? body.credential_metadata ?? {};
    const parsed = METADATA_SCHEMAS[body.integration_name].safeParse(raw);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", path: ["source_metadata", ...parsed.error.issues[0]!.path], message: parsed.error.issues[0]!.message });
      return z.NEVER;
    }
    return {
      name: body.name,
      description: body.description,
      credentialId: body.credentialId,
      integration_name: body.integration_name,
      integration_label: integrationLabel(body.integration_name)!,
      source_metadata: parsed.data as Record<string, unknown>,
    };
  });
export type CreateSourceBody = z.input<typeof createSourceBodySchema>;

/** PUT /sources/update/{id} (spec §7). */
export const updateSourceBodySchema = z.object({ name: sourceNameSchema, description: sourceDescriptionSchema });
export type UpdateSourceBody = z.infer<typeof updateSourceBodySchema>;

/** Bodies of the /externalauth calls (spec §7 "Sources and integrations"): each source's are in its manifest. */
export const verifySetupBodySchema = z.object({
  integration_name: z.enum(SOURCE_INTEGRATION_NAMES, { errorMap: () => ({ message: SOURCE_MESSAGES.integrationRequired }) }).optional(),
  credential_id: credentialIdSchema,
  scope: z.enum(SCOPES, { errorMap: () => ({ message: "scope must be ORG, TEAM, GROUP or INDIVIDUAL" }) }),
  team_id: optionalText(200, "team_id is too long", "team_id"),
});

/** GET /integrations/sources: the type select's choices. */
export const sourceIntegrationsResponseSchema = z.object({ data: z.object({ sources: z.array(z.object({ name: z.string(), label: z.string() })) }) });

/** GET /externalauth/gmail/get_auth_options and POST /externalauth/gmail/test_connection (their generic names). */
export { authOptionsResponseSchema as gmailAuthOptionsResponseSchema, connectionTestResponseSchema as gmailTestResponseSchema };
