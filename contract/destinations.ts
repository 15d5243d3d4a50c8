import { z } from "zod";
import { storable } from "./text.js";

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
/* Integrations (spec §3 "Integration option", §9 destination names)   */
/* ------------------------------------------------------------------ */

export const DESTINATION_INTEGRATIONS = [
  { name: "storage", label: "Google Cloud Storage" },
  { name: "bigquery", label: "BigQuery" },
  { name: "snowflake", label: "Snowflake" },
  { name: "snowflake_stage", label: "Snowflake Stage" },
  { name: "local", label: "Local folder" },
] as const;
export type DestinationIntegrationName = (typeof DESTINATION_INTEGRATIONS)[number]["name"];
export const DESTINATION_INTEGRATION_NAMES = DESTINATION_INTEGRATIONS.map((i) => i.name) as [DestinationIntegrationName, ...DestinationIntegrationName[]];
export interface IntegrationOption {
  name: string;
  label: string;
}

export const GOOGLE_INTEGRATIONS = ["storage", "bigquery"] as const;
export const SNOWFLAKE_INTEGRATIONS = ["snowflake", "snowflake_stage"] as const;
export type GoogleIntegration = (typeof GOOGLE_INTEGRATIONS)[number];
export type SnowflakeIntegration = (typeof SNOWFLAKE_INTEGRATIONS)[number];

export const isGoogle = (name: string | undefined): name is GoogleIntegration => name === "storage" || name === "bigquery";
export const isSnowflake = (name: string | undefined): name is SnowflakeIntegration => name === "snowflake" || name === "snowflake_stage";

export function integrationLabel(name: string): string {
  return DESTINATION_INTEGRATIONS.find((i) => i.name === name)?.label ?? name;
}

/** Spec §9: WAREHOUSE for snowflake (and BigQuery, a warehouse), STORAGE otherwise. */
export function destinationCategory(name: string): "WAREHOUSE" | "STORAGE" {
  return name === "snowflake" || name === "bigquery" ? "WAREHOUSE" : "STORAGE";
}

/** BigQuery permission types: write access for syncs, or (transforms) query access to the project. */
export const PERMISSION_TYPES = ["dataset_write", "dataset_query_access"] as const;
export type PermissionType = (typeof PERMISSION_TYPES)[number];

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
  projectId: "Please enter your GCP Project ID",
  projectIdBeforeTest: "Please enter your GCP Project ID before testing connection",
  bucket: "Please enter your Google Cloud Storage bucket name",
  bucketBeforeTest: "Please enter your Google Cloud Storage bucket name before testing connection",
  dataset: "Please enter your BigQuery dataset name",
  datasetBeforeTest: "Please enter your BigQuery dataset name before testing connection",
  account: "Account is required",
  warehouse: "Warehouse is required",
  database: "Database is required",
  schema: "Schema is required",
  user: "Username is required",
  password: "Password is required",
  stageRequired: "Stage name is required",
  stagePattern: "Only A-Z, 0-9 and _ allowed",
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
  reauthenticate: "Please reauthenticate successfully before updating.",
} as const;

/* ------------------------------------------------------------------ */
/* Identifier patterns. Everything that ends up in a host name, a URL   */
/* path or generated SQL is one of these, checked on the server.        */
/* ------------------------------------------------------------------ */

export const PROJECT_ID_PATTERN = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
export const BUCKET_PATTERN = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
export const DATASET_PATTERN = /^[A-Za-z0-9_]{1,1024}$/;
/** orgname-accountname, or a legacy locator with its region (xy12345.us-east-2.aws). */
export const SNOWFLAKE_ACCOUNT_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,253}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?){0,3}$/;
/** An unquoted Snowflake identifier: generated SQL uses only these, so it never needs quoting. */
export const SNOWFLAKE_IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_$]{0,254}$/;
export const STAGE_NAME_PATTERN = /^[A-Za-z0-9_]+$/;

const text = (max = 1000, label = "Text") => storable(z.string().trim().max(max, `At most ${max} characters`), label).optional();

/** Optional form/JSON string fields: "" and missing are the same. */
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());

const projectId = optional(z.string().trim().regex(PROJECT_ID_PATTERN, "Project ID must be 6 to 30 lowercase letters, digits or hyphens, starting with a letter"));
const bucketName = optional(z.string().trim().regex(BUCKET_PATTERN, "Bucket name must be 3 to 63 lowercase letters, digits, dots, hyphens or underscores"));
const datasetName = optional(z.string().trim().regex(DATASET_PATTERN, "Dataset name may contain only letters, digits and _"));
const account = optional(
  z
    .string()
    .trim()
    .transform((v) => v.replace(/\.snowflakecomputing\.com$/i, ""))
    .pipe(z.string().regex(SNOWFLAKE_ACCOUNT_PATTERN, "Account identifier must look like orgname-accountname or xy12345.us-east-2.aws")),
);
const identifier = (what: string) =>
  optional(z.string().trim().regex(SNOWFLAKE_IDENTIFIER_PATTERN, `${what} may contain only letters, digits, _ and $, and must start with a letter or _`));
const stageName = optional(z.string().trim().regex(STAGE_NAME_PATTERN, DESTINATION_MESSAGES.stagePattern).max(255));
const password = z.preprocess((v) => (v === "" ? undefined : v), storable(z.string().max(256, "At most 256 characters"), "Password").optional());

/** Every field the create form (and POST /destinations/create) may carry. */
export const destinationFieldsSchema = z.object({
  name: optional(storable(z.string().trim().max(200, "At most 200 characters"), "Name")),
  description: text(2000, "Description"),
  integration_name: optional(storable(z.string().max(100), "integration_name")),
  integration_label: text(200, "integration_label"),
  category: text(20, "Category"),
  credential_id: optional(storable(z.string().trim().max(100), "credential_id")),
  service_account_email: text(320, "Service account e-mail"),
  permission_type: optional(z.enum(PERMISSION_TYPES, { errorMap: () => ({ message: "Unknown permission type" }) })),
  project_id: projectId,
  bucket_name: bucketName,
  dataset_name: datasetName,
  account,
  user: identifier("Username"),
  password,
  warehouse: identifier("Warehouse"),
  database: identifier("Database"),
  schema: identifier("Schema"),
  stage_name: stageName,
  /** The signed result of a successful test over exactly these values (see backend/integrations/destinations/validation-token.ts). */
  validation_token: optional(storable(z.string().max(4000), "validation_token")),
});
export type DestinationFields = z.infer<typeof destinationFieldsSchema>;

type Ctx = z.RefinementCtx;
const need = (ctx: Ctx, value: unknown, path: string, message: string) => {
  if (value === undefined || value === null || value === "") ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
};

/** The sub-form rules of spec §5, shared by create, test and update. */
export function checkSubForm(v: Partial<DestinationFields>, ctx: Ctx, when: "create" | "test" = "create") {
  const type = v.integration_name;
  if (isGoogle(type)) {
    need(ctx, v.project_id, "project_id", when === "test" ? DESTINATION_MESSAGES.projectIdBeforeTest : DESTINATION_MESSAGES.projectId);
    if (type === "storage") need(ctx, v.bucket_name, "bucket_name", when === "test" ? DESTINATION_MESSAGES.bucketBeforeTest : DESTINATION_MESSAGES.bucket);
    if (type === "bigquery" && v.permission_type !== "dataset_query_access")
      need(ctx, v.dataset_name, "dataset_name", when === "test" ? DESTINATION_MESSAGES.datasetBeforeTest : DESTINATION_MESSAGES.dataset);
  } else if (isSnowflake(type)) {
    need(ctx, v.account, "account", DESTINATION_MESSAGES.account);
    if (type === "snowflake") need(ctx, v.warehouse, "warehouse", DESTINATION_MESSAGES.warehouse);
    need(ctx, v.database, "database", DESTINATION_MESSAGES.database);
    need(ctx, v.schema, "schema", DESTINATION_MESSAGES.schema);
    need(ctx, v.user, "user", DESTINATION_MESSAGES.user);
    if (when === "test") need(ctx, v.password, "password", DESTINATION_MESSAGES.password);
    if (type === "snowflake_stage") need(ctx, v.stage_name, "stage_name", DESTINATION_MESSAGES.stageRequired);
  }
}

/**
 * POST /destinations/create and the create form. Whether the values were the
 * tested ones (validation_token) is the server's check, not the schema's.
 */
export const createDestinationSchema = destinationFieldsSchema.superRefine((v, ctx) => {
  need(ctx, v.name, "name", DESTINATION_MESSAGES.name);
  if (!v.integration_name) {
    need(ctx, undefined, "integration_name", DESTINATION_MESSAGES.integration);
    return;
  }
  if (!(DESTINATION_INTEGRATION_NAMES as string[]).includes(v.integration_name)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["integration_name"], message: DESTINATION_MESSAGES.integration });
    return;
  }
  checkSubForm(v, ctx, "create");
});

/** PUT /destinations/update/{id} (spec §7: name, description, project_id, bucket_name or dataset_name). */
export const updateDestinationSchema = z.object({
  name: optional(storable(z.string().trim().max(200, "At most 200 characters"), "Name")),
  description: text(2000, "Description"),
  project_id: projectId,
  bucket_name: bucketName,
  dataset_name: datasetName,
  permission_type: destinationFieldsSchema.shape.permission_type,
  credential_id: destinationFieldsSchema.shape.credential_id,
  validation_token: destinationFieldsSchema.shape.validation_token,
});
export type UpdateDestination = z.infer<typeof updateDestinationSchema>;

/** POST /externalauth/{storage|bigquery}/test_connection. */
export const googleTestSchema = destinationFieldsSchema
  .pick({ integration_name: true, service_account_email: true, credential_id: true, project_id: true, bucket_name: true, dataset_name: true, permission_type: true })
  .extend({ name: text(200, "Name"), label: text(200, "Label") });

/** POST /externalauth/{storage|bigquery}/get_instructions. */
export const googleInstructionsSchema = destinationFieldsSchema.pick({ category: true, permission_type: true, project_id: true, dataset_name: true, bucket_name: true });

/** POST /externalauth/snowflake/{get_instructions|test_connection}. */
export const snowflakeSchema = destinationFieldsSchema.pick({
  category: true,
  account: true,
  user: true,
  password: true,
  warehouse: true,
  database: true,
  schema: true,
  stage_name: true,
});

/** The Snowflake variant a body means: the stage variant when its category is STORAGE (spec §9). */
export function snowflakeVariant(category: string | undefined): SnowflakeIntegration {
  return category === "STORAGE" ? "snowflake_stage" : "snowflake";
}

/* ------------------------------------------------------------------ */
/* Responses                                                           */
/* ------------------------------------------------------------------ */

export interface ServiceAccountInfo {
  service_account_email: string;
  credential_id: string;
  instructions: string[];
  description: string;
  status: "success";
  message: string;
}

export interface InstructionStep {
  title: string;
  description: string;
  sql?: string;
  fields?: string[];
}

export interface IntegrationInstructions {
  title: string;
  description: string;
  instructions: string[];
  steps: InstructionStep[];
  service_account_email?: string;
  sql?: string;
}

export interface TestConnectionResult {
  status: "success";
  message: string;
  credential_id: string;
  /** Signed over the tested values; POST /destinations/create and update require it. */
  validation_token: string;
}
