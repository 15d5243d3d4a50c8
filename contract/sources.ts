import { z } from "zod";
import { storable } from "./text.js";

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

/** Spec §3/§9: the source integrations, in the order the type select shows them. */
export const SOURCE_INTEGRATIONS = [
  { name: "zoom", label: "Zoom" },
  { name: "teams", label: "Microsoft Teams" },
  { name: "gmail", label: "Gmail" },
  { name: "datagen", label: "Data Generator" },
] as const;
export type SourceIntegrationName = (typeof SOURCE_INTEGRATIONS)[number]["name"];
export const SOURCE_INTEGRATION_NAMES = SOURCE_INTEGRATIONS.map((i) => i.name) as [SourceIntegrationName, ...SourceIntegrationName[]];
export const integrationLabel = (name: string) => SOURCE_INTEGRATIONS.find((i) => i.name === name)?.label ?? null;
export const isSourceIntegration = (name: string | null | undefined): name is SourceIntegrationName =>
  !!name && SOURCE_INTEGRATIONS.some((i) => i.name === name);

/** Spec §3 constants. */
export const AUTH_STATES = ["authenticated", "failed"] as const;
export const SCOPES = ["ORG", "TEAM", "GROUP", "INDIVIDUAL"] as const;
export const DATAGEN_FORMATS = ["zoom", "gong"] as const;

/** Source status (docs/decisions/2026-11-22-source-status.md). null is shown as "Unknown". */
export const SOURCE_STATUSES = ["active", "error"] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** Gmail authentication modes (GET /externalauth/gmail/get_auth_options). The first is the default. */
export const GMAIL_AUTH_MODES = [
  { mode: "service_account", label: "Google Workspace service account (domain-wide delegation)" },
  { mode: "service_account_verified", label: "Google Workspace service account, verified by a test connection" },
  { mode: "individual", label: "Individual mailbox (sign in with Google)" },
] as const;
export type GmailAuthMode = (typeof GMAIL_AUTH_MODES)[number]["mode"];
export const DEFAULT_GMAIL_AUTH_MODE: GmailAuthMode = "service_account";

/** The messages of spec §5 "Source create" / "Source update" and §8 "Source", character for character. */
export const SOURCE_MESSAGES = {
  nameRequired: "Please enter a source name",
  integrationRequired: "Please select an integration type",
  gmailAuthTypeRequired: "Please select a Gmail authentication type",
  integrationBeforeAuth: "Please select an integration type before authenticating",
  mustAuthenticate: "You must authenticate with the selected integration",
  mustVerify: "You must verify the integration setup",
  teamAlreadyConnected: "This team is already connected. Please choose another team.",
  integrationChanged: "Integration changed. You'll need to authenticate with this new integration.",
  createFailed: (text: string) => `Failed to create source: ${text}`,
  updateFailed: (text: string) => `Failed to update source: ${text}`,
  deleteFailed: "Failed to delete source",
  fetchSourcesFailed: "Failed to fetch sources",
  fetchSourceFailed: "Failed to fetch source",
  notFound: "Source not found",
  verificationFailed: "Verification failed. Please fix the setup and try again.",
  datagenAuthFailed: "Datagen authentication failed.",
  gmailAuthOptionsFailed: "Failed to fetch Gmail auth options",
  // Rules the spec states without a quoted message.
  companyTooLong: "Company name must be 100 characters or fewer",
  formatRequired: "Please select a data style (zoom or gong)",
  zoomGroupRequired: "Please select a Zoom group",
  teamRequired: "Please select a team",
  adminEmailRequired: "Workspace admin e-mail is required",
  adminEmailInvalid: "Please enter a valid Workspace admin e-mail",
  gmailGroupRequired: "Please select a Google group",
} as const;

const optionalText = (max: number, tooLong: string, label = "Text") =>
  z.preprocess((v) => (v === null || v === undefined ? "" : v), storable(z.string({ invalid_type_error: "must be text" }).trim().max(max, tooLong), label));

export const sourceNameSchema = storable(
  z
    .string({ required_error: SOURCE_MESSAGES.nameRequired, invalid_type_error: SOURCE_MESSAGES.nameRequired })
    .trim()
    .min(1, SOURCE_MESSAGES.nameRequired)
    .max(200, "Source name must be 200 characters or fewer"),
  "Name",
);
export const sourceDescriptionSchema = optionalText(2000, "Description must be 2,000 characters or fewer", "Description");

/** Spec §3 "Source metadata by integration". */
export const zoomMetadataSchema = z
  .object({
    zoom_extraction_scope: z.enum(["ORG", "GROUP"], { errorMap: () => ({ message: "Please choose the extraction scope (entire organization or a specific group)" }) }),
    zoom_group_id: optionalText(200, "Zoom group id is too long", "Zoom group id"),
    zoom_group_name: optionalText(500, "Zoom group name is too long", "Zoom group name"),
  })
  .superRefine((v, ctx) => {
    if (v.zoom_extraction_scope === "GROUP" && !v.zoom_group_id) ctx.addIssue({ code: "custom", path: ["zoom_group_id"], message: SOURCE_MESSAGES.zoomGroupRequired });
  });

export const teamsMetadataSchema = z
  .object({
    teams_extraction_scope: z.enum(["ORG", "TEAM"], { errorMap: () => ({ message: "Please choose the extraction scope (entire organization or a specific team)" }) }),
    team_id: optionalText(200, "Team id is too long", "Team id"),
    team_name: optionalText(500, "Team name is too long", "Team name"),
  })
  .superRefine((v, ctx) => {
    if (v.teams_extraction_scope === "TEAM" && !v.team_id) ctx.addIssue({ code: "custom", path: ["team_id"], message: SOURCE_MESSAGES.teamRequired });
  });

export const gmailMetadataSchema = z
  .object({
    gmail_extraction_scope: z.enum(["ORG", "GROUP", "INDIVIDUAL"], { errorMap: () => ({ message: "Please choose the extraction scope (entire organization or a specific group)" }) }),
    admin_email: optionalText(320, SOURCE_MESSAGES.adminEmailInvalid, "Admin e-mail"),
    gmail_group_id: optionalText(200, "Google group id is too long", "Google group id"),
    gmail_group_email: optionalText(320, "Google group e-mail is too long", "Google group e-mail"),
    gmail_group_name: optionalText(500, "Google group name is too long", "Google group name"),
    gmail_auth_mode: z.enum(GMAIL_AUTH_MODES.map((m) => m.mode) as [GmailAuthMode, ...GmailAuthMode[]]).default(DEFAULT_GMAIL_AUTH_MODE),
  })
  .superRefine((v, ctx) => {
    if (v.gmail_extraction_scope === "INDIVIDUAL") return;
    if (!v.admin_email) ctx.addIssue({ code: "custom", path: ["admin_email"], message: SOURCE_MESSAGES.adminEmailRequired });
    else if (!z.string().email().safeParse(v.admin_email).success) ctx.addIssue({ code: "custom", path: ["admin_email"], message: SOURCE_MESSAGES.adminEmailInvalid });
    if (v.gmail_extraction_scope === "GROUP" && !v.gmail_group_id) ctx.addIssue({ code: "custom", path: ["gmail_group_id"], message: SOURCE_MESSAGES.gmailGroupRequired });
  });

export const datagenMetadataSchema = z.object({
  company: optionalText(100, SOURCE_MESSAGES.companyTooLong, "Company name"),
  format: z.enum(DATAGEN_FORMATS, { errorMap: () => ({ message: SOURCE_MESSAGES.formatRequired }) }),
});

export const METADATA_SCHEMAS = {
  zoom: zoomMetadataSchema,
  teams: teamsMetadataSchema,
  gmail: gmailMetadataSchema,
  datagen: datagenMetadataSchema,
} as const;

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

/** Bodies of the /externalauth calls (spec §7 "Sources and integrations"). */
const credentialIdSchema = storable(
  z.string({ required_error: "credential_id is required", invalid_type_error: "credential_id must be text" }).trim().min(1, "credential_id is required").max(100),
  "credential_id",
);
export const credentialBodySchema = z.object({ credential_id: credentialIdSchema });
/** Gmail's callback: a service-account mode, or the authorization code of the INDIVIDUAL OAuth redirect. */
export const gmailCallbackBodySchema = z.object({
  code: storable(z.string().min(1, "code is required").max(4096), "code").optional(),
  mode: z.enum(GMAIL_AUTH_MODES.map((m) => m.mode) as [GmailAuthMode, ...GmailAuthMode[]], { errorMap: () => ({ message: SOURCE_MESSAGES.gmailAuthTypeRequired }) }).optional(),
}).refine((b) => b.code || (b.mode && b.mode !== "individual"), { message: SOURCE_MESSAGES.gmailAuthTypeRequired });
export const oauthCallbackBodySchema = z.object({
  code: storable(z.string({ required_error: "code is required", invalid_type_error: "code must be text" }).min(1, "code is required").max(4096), "code"),
});
export const teamsCallbackBodySchema = z.object({
  tenant: z.string({ required_error: "tenant is required", invalid_type_error: "tenant must be text" }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "tenant must be a Microsoft tenant id (a GUID)"),
  admin_consent: z.union([z.string(), z.boolean()], { required_error: "admin_consent is required" }),
});
export const teamSetupBodySchema = z.object({
  credential_id: credentialIdSchema,
  scope: z.enum(["ORG", "TEAM"], { errorMap: () => ({ message: "scope must be ORG or TEAM" }) }),
  team_id: optionalText(200, "team_id is too long", "team_id"),
});
export const verifySetupBodySchema = z.object({
  integration_name: z.enum(SOURCE_INTEGRATION_NAMES, { errorMap: () => ({ message: SOURCE_MESSAGES.integrationRequired }) }).optional(),
  credential_id: credentialIdSchema,
  scope: z.enum(SCOPES, { errorMap: () => ({ message: "scope must be ORG, TEAM, GROUP or INDIVIDUAL" }) }),
  team_id: optionalText(200, "team_id is too long", "team_id"),
});
export const gmailGroupsBodySchema = z.object({
  credential_id: credentialIdSchema,
  admin_email: storable(z.string({ required_error: SOURCE_MESSAGES.adminEmailRequired }).trim().min(1, SOURCE_MESSAGES.adminEmailRequired).email(SOURCE_MESSAGES.adminEmailInvalid).max(320), "Admin e-mail"),
});
export const gmailTestBodySchema = z.object({
  credential_id: credentialIdSchema,
  /** Required for the service-account modes; an individual mailbox tests itself. */
  admin_email: z.string().trim().email(SOURCE_MESSAGES.adminEmailInvalid).max(320).optional().or(z.literal("").transform(() => undefined)),
  group_ids: z.array(storable(z.string().max(200), "A group id")).max(100).optional(),
});

export interface ZoomGroup {
  id: string;
  name: string;
  total_members: number;
}
export interface TeamsTeam {
  team_id: string;
  team_name: string;
  member_count: number;
  already_configured: boolean;
}
export interface GoogleGroup {
  id: string;
  name: string;
  email: string;
}
export interface SetupStep {
  title: string;
  details: string;
  code_block?: string;
  options?: { sub_title: string; code_block: string }[];
}
export interface SetupInstructions {
  introduction: string;
  steps: SetupStep[];
}

/** POST /externalauth/{integration}/callback */
export interface CallbackResponse {
  credential_id: string;
  instructions: SetupInstructions | null;
  setup_verified: boolean;
  message: string;
}
