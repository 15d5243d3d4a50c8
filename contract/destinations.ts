import { z } from "zod";
import { storable, storableName } from "./text.js";
import { checkDestinationSettings, destinationManifest, optionalField, type SettingsCheckMoment } from "./integrations/destinations.js";
import { GOOGLE_MESSAGES, PERMISSION_TYPES, permissionTypeField, PROJECT_ID_PATTERN, projectIdField, type PermissionType } from "./integrations/google-kit.js";
import { BUCKET_PATTERN, bucketNameField, GCS_MESSAGES } from "./integrations/gcs.js";
import { BIGQUERY_MESSAGES, DATASET_PATTERN, datasetNameField } from "./integrations/bigquery.js";
import {
  accountField,
  SNOWFLAKE_ACCOUNT_PATTERN,
  SNOWFLAKE_IDENTIFIER_PATTERN,
  SNOWFLAKE_MESSAGES,
  STAGE_NAME_PATTERN,
  stageNameField,
} from "./integrations/snowflake.js";

export const destinationConfigSchema = z
  .object({
    project_id: z.string().optional(),
    bucket_name: z.string().optional(),
    dataset_name: z.string().optional(),
    account: z.string().optional(),
    warehouse: z.string().optional(),
    database: z.string().optional(),
    schema: z.string().optional(),
  })
  .passthrough();

export const destinationSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  integration_name: z.string(),
  integration_label: z.string(),
  status: z.string().nullable(),
  config: destinationConfigSchema,
  credential_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  connector_count: z.number().int(),
});
export type Destination = z.infer<typeof destinationSchema>;

/* ------------------------------------------------------------------ */
/* Integrations (spec §3 "Integration option", §9 destination names):  */
/* everything per type comes from the manifests (contract/integrations) */
/* ------------------------------------------------------------------ */

export const integrationOptionSchema = z.object({
  name: z.string(),
  label: z.string(),
  /** Offered but not usable on this server yet: why, in a plain sentence (the select shows it disabled). */
  unavailable: z.string().optional(),
});
export type IntegrationOption = z.infer<typeof integrationOptionSchema>;

export function integrationLabel(name: string): string {
  return destinationManifest(name)?.label ?? name;
}

/** Spec §9: the category its manifest gives (WAREHOUSE for Snowflake and BigQuery, STORAGE for the others). */
export function destinationCategory(name: string): "WAREHOUSE" | "STORAGE" {
  return destinationManifest(name)?.category ?? "STORAGE";
}

export { PERMISSION_TYPES, type PermissionType };

/** Spec §9: the placeholder the Snowflake setup SQL carries where the password goes. */
export const PASSWORD_PLACEHOLDER = "<YOUR_PASSWORD>";

/** Replaces the placeholder with the password, single quotes (and backslashes) escaped for a SQL string literal. */
export function sqlWithPassword(sql: string, password: string): string {
  const escaped = password.replace(/\\/g, "\\\\").replace(/'/g, "''");
  return sql.split(PASSWORD_PLACEHOLDER).join(escaped);
}

/* ------------------------------------------------------------------ */
/* Messages (spec §5 and §8, character for character where it quotes)  */
/* ------------------------------------------------------------------ */

export const DESTINATION_MESSAGES = {
  name: "Please enter a destination name",
  integration: "Please select an integration type",
  ...GOOGLE_MESSAGES,
  ...GCS_MESSAGES,
  ...BIGQUERY_MESSAGES,
  ...SNOWFLAKE_MESSAGES,
  notTested: "Please fill all required fields and test the connection successfully.",
  createFailed: "Failed to create destination.",
  updateFailed: "Failed to update destination.",
  deleteFailed: "Failed to delete destination",
  fetchListFailed: "Failed to fetch destinations",
  fetchOneFailed: "Failed to fetch destination",
  notFound: "Destination not found",
  testFailed: "Connection test failed.",
  credentialsFailed: "Connection failed. Please check your credentials.",
  instructionsFailed: "Failed to generate setup instructions",
  serviceAccountFailed: "Service-account generation failed",
  serviceAccountMissing: "Service account information is not available.",
  integrationDetailsFailed: "Failed to load integration details for the selected type.",
  /** The create page's call for the chosen type's details (its service account) failed; the reason follows. */
  integrationDetailsFetchFailed: "Failed to fetch integration details",
  reauthenticate: "Please reauthenticate successfully before updating.",
} as const;

/* ------------------------------------------------------------------ */
/* Identifier patterns (defined with their manifests). Everything that  */
/* ends up in a host name, a URL path or generated SQL is checked.      */
/* ------------------------------------------------------------------ */

export { PROJECT_ID_PATTERN, BUCKET_PATTERN, DATASET_PATTERN, SNOWFLAKE_ACCOUNT_PATTERN, SNOWFLAKE_IDENTIFIER_PATTERN, STAGE_NAME_PATTERN };

const text = (max = 1000, label = "Text") => storable(z.string({ invalid_type_error: `${label} must be text` }).trim().max(max, `At most ${max} characters`), label).optional();
/** A setting whose format its manifest checks (names shared by several plug-ins, e.g. a database). */
const setting = (label: string) => optionalField(storable(z.string().trim().max(255, "At most 255 characters"), label));
const password = z.preprocess((v) => (v === "" ? undefined : v), storable(z.string().max(256, "At most 256 characters"), "Password").optional());

/**
 * Every field the create form (and POST /destinations/create) may carry: the common ones and the built-in plug-ins'
 * settings. Other settings pass through untouched: their plug-in's manifest checks them (checkDestinationSettings).
 */
export const destinationFieldsSchema = z
  .object({
    name: optionalField(storableName(z.string({ invalid_type_error: DESTINATION_MESSAGES.name }).trim().max(200, "At most 200 characters"), "Name")),
    description: text(2000, "Description"),
    integration_name: optionalField(storable(z.string().max(100), "integration_name")),
    integration_label: text(200, "integration_label"),
    category: text(20, "Category"),
    credential_id: optionalField(storable(z.string().trim().max(100), "credential_id")),
    service_account_email: text(320, "Service account e-mail"),
    permission_type: permissionTypeField,
    project_id: projectIdField,
    bucket_name: bucketNameField,
    dataset_name: datasetNameField,
    account: accountField,
    user: setting("Username"),
    password,
    warehouse: setting("Warehouse"),
    database: setting("Database"),
    schema: setting("Schema"),
    stage_name: stageNameField,
    /** The signed result of a successful test over exactly these values (see backend/integrations/destinations/validation-token.ts). */
    validation_token: optionalField(storable(z.string().max(4000), "validation_token")),
  })
  .passthrough();
export type DestinationFields = z.infer<typeof destinationFieldsSchema>;

/** The sub-form rules of spec §5 (the type's manifest's), shared by create, test and update. */
export function checkSubForm(v: Partial<DestinationFields>, ctx: z.RefinementCtx, when: SettingsCheckMoment = "create") {
  checkDestinationSettings(v.integration_name, v, ctx, when);
}

/**
 * POST /destinations/create and the create form. Whether the values were the
 * tested ones (validation_token) is the server's check, not the schema's.
 */
export const createDestinationSchema = destinationFieldsSchema.superRefine((v, ctx) => {
  if (v.name === undefined || v.name === "") ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["name"], message: DESTINATION_MESSAGES.name });
  if (!v.integration_name || !destinationManifest(v.integration_name)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["integration_name"], message: DESTINATION_MESSAGES.integration });
    return;
  }
  checkSubForm(v, ctx, "create");
});

/** PUT /destinations/update/{id} (spec §7: name, description, project_id, bucket_name or dataset_name; a plug-in's editable settings pass through). */
export const updateDestinationSchema = z
  .object({
    name: destinationFieldsSchema.shape.name,
    description: text(2000, "Description"),
    project_id: projectIdField,
    bucket_name: bucketNameField,
    dataset_name: datasetNameField,
    permission_type: destinationFieldsSchema.shape.permission_type,
    credential_id: destinationFieldsSchema.shape.credential_id,
    validation_token: destinationFieldsSchema.shape.validation_token,
  })
  .passthrough();
export type UpdateDestination = z.infer<typeof updateDestinationSchema>;

/* ------------------------------------------------------------------ */
/* Responses                                                           */
/* ------------------------------------------------------------------ */

/** POST /externalauth/{storage|gcs|bigquery}/service_account: the platform's account to grant, and the credential naming it. */
export const serviceAccountInfoSchema = z.object({
  service_account_email: z.string(),
  credential_id: z.string(),
  instructions: z.array(z.string()),
  description: z.string(),
  status: z.literal("success"),
  message: z.string(),
});
export type ServiceAccountInfo = z.infer<typeof serviceAccountInfoSchema>;

export const instructionStepSchema = z.object({
  title: z.string(),
  description: z.string(),
  sql: z.string().optional(),
  fields: z.array(z.string()).optional(),
});
export type InstructionStep = z.infer<typeof instructionStepSchema>;

/** POST /externalauth/{integration}/get_instructions. */
export const integrationInstructionsSchema = z.object({
  title: z.string(),
  description: z.string(),
  instructions: z.array(z.string()),
  steps: z.array(instructionStepSchema),
  service_account_email: z.string().optional(),
  sql: z.string().optional(),
});
export type IntegrationInstructions = z.infer<typeof integrationInstructionsSchema>;

/** POST /externalauth/{integration}/test_connection. */
export const testConnectionResultSchema = z.object({
  status: z.literal("success"),
  message: z.string(),
  credential_id: z.string(),
  /** Signed over the tested values; POST /destinations/create and update require it. */
  validation_token: z.string(),
});
export type TestConnectionResult = z.infer<typeof testConnectionResultSchema>;

/** GET /integrations/destinations: the type select's choices. */
export const destinationIntegrationsResponseSchema = z.object({
  status: z.literal("success"),
  data: z.object({ destinations: z.array(integrationOptionSchema) }),
});

/** POST /destinations/create (201), PUT /destinations/update/{id}, DELETE /destinations/delete/{id}. */
export const destinationCreatedSchema = z.object({ status: z.literal("success"), message: z.string(), destination_id: z.string(), destination: destinationSchema });
export const destinationUpdatedSchema = z.object({ status: z.literal("success"), message: z.string(), destination: destinationSchema });
export const destinationDeletedSchema = z.object({ status: z.literal("success"), message: z.string() });
