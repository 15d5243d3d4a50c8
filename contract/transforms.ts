import { z } from "zod";
import { storable, storableName, storableRecord } from "./text.js";
import { wizardIntegrationKeys } from "./integrations/destinations.js";
import { recordScheduleSchema } from "./schedule-words.js";
import { warehouseKindsInWords } from "./integrations/destination-words.js";

/**
 * Transforms and templates: spec §3 (entities), §5 "Transform create", §7
 * "Transforms and templates", §8 transform errors, §9 constants. Shared by the
 * backend (backend/http/transforms.ts, backend/http/templates.ts) and the app
 * (app/services/transforms.server.ts and the /transforms/* routes).
 */

export const TRANSFORM_FREQUENCIES = ["daily", "hourly"] as const;
export const TRANSFORM_FILE_TYPES = [".vtt", ".txt", ".json"] as const;
/** §9: file types default to .vtt and .txt when not supplied; the form preselects .vtt. */
export const DEFAULT_FILE_TYPES = [".vtt", ".txt"] as const;
export const DEFAULT_FILE_TYPE = ".vtt";
export const DEFAULT_TRANSFORM_FREQUENCY = "daily";
/** §9: the template used when none is named. */
export const DEFAULT_TEMPLATE_ID = "topic_modeling";
export const WORKFLOWS = ["template", "custom"] as const;
export type Workflow = (typeof WORKFLOWS)[number];
/** §9: template input groups display in this order, then any others. */
export const INPUT_GROUP_ORDER = ["general", "primitives", "signals", "outcome"] as const;
/** §3: the kinds of a template input. */
export const INPUT_TYPES = ["string", "integer", "boolean", "enum", "list[string]"] as const;
export const SETUP_STEP_TYPES = ["destination_setup", "permissions_review", "permission_setup", "template_selection", "deployment"] as const;
/** §4: permission types a step may ask for; integration keys of the destinations the wizard uses. */
export const PERMISSION_TYPES = ["dataset_query_access", "template_selection", "permission_setup", "permissions_review", "deployment"] as const;
/** bigquery, gcs, snowflake, snowflake_stage (and every destination added since), from the manifests. */
export const WIZARD_INTEGRATION_KEYS: readonly string[] = wizardIntegrationKeys();
/** §4: when a template has no setup steps, the wizard shows these two. */
export const DEFAULT_SETUP_STEP_TITLES = ["Configure Data Sources", "Review Permissions"] as const;
/** Transform (and transform run) statuses; a transform is created PENDING (§4). */
export const TRANSFORM_STATUSES = ["PENDING", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"] as const;
export const TRANSFORM_RUN_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

/** Spec §5 "Transform create" and §8 transform errors, character for character. */
export const TRANSFORM_MESSAGES = {
  nameRequired: "Please enter a transform name",
  nameTaken: "This name already exists. Please choose a different name.",
  connectorRequired: "Please select a connector",
  frequencyRequired: "Please select a frequency",
  fileTypeRequired: "Please select a file type",
  workflowRequired: "Please select a workflow type",
  customUnavailable: "Custom workflow configuration is coming soon. Please use the template-based workflow for now.",
  templateCreateIncomplete: "Please fill in all required fields: Connector and complete permissions setup",
  deleteFailed: "Failed to delete transform",
  fetchTransformsFailed: "Failed to fetch transforms",
  loadFailed: "Failed to load data. Please try again later.",
  notLoggedIn: "You must be logged in to create a transform.",
  fetchCategoriesFailed: "Failed to fetch categories.",
  fetchTemplatesFailed: "Failed to fetch templates. Please try again.",
  loadTemplateFailed: "Failed to load template data.",
  fetchTemplateDetailsFailed: "Failed to fetch template details.",
  templateDetailsError: "Error fetching template details.",
  templateIdMissing: "Template ID not available. Please go back and try again.",
  previewFailed: "Failed to generate preview",
  createFailed: "Failed to create transform",
  loadTransformTypesFailed: "Failed to load transform types",
  notAuthenticated: "User not authenticated",
  invalidType: "Invalid Transform type",
  deprecated: "Editing transforms this way is deprecated. To change this transform, create it again through the template flow and delete this one.",
  notFound: "Transform not found",
  templateNotFound: "Template not found",
  /** Beyond the spec: the run calls and input checks. */
  runOpen: "A run of this transform is already queued or running.",
  connectorNotFound: "Connector not found",
  noWarehouse: `The connector has no destination with a warehouse: add a ${warehouseKindsInWords()} destination to it.`,
  unknownResultTable: "This transform has no such result table.",
  /** A template whose data the connector's source does not sync (the wizard does not offer it). */
  templateNotOffered: (template: string, records: string, source: string) =>
    `${template} reads ${records}, which a ${source} connector does not sync. Choose one of the templates offered for this connector.`,
  downloadTooLarge: (rows: number, max: number) =>
    `This table has ${rows.toLocaleString("en-US")} rows, more than one download holds (${max.toLocaleString("en-US")}). Read it in the destination instead.`,
} as const;

/* ---- words for stored values ----------------------------------------------------------------------- */

export { optionLabel, TRANSFORM_TYPE_LABELS, transformTypeLabel } from "./labels.js";

/* ---- transforms ---------------------------------------------------------------------------------- */

export const transformSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  transform_type: z.string(),
  connector_id: z.string(),
  /** Beyond the spec: the connector's name for the list's Connectors column. */
  connector_name: z.string().nullable(),
  status: z.string(),
  created_at: z.string(),
  /** Beyond the spec (GET /transforms/{id}): what it was created with, and its latest run. */
  template_id: z.string().nullable().optional(),
  frequency: z.string().optional(),
  file_types: z.array(z.string()).optional(),
  inputs: z.record(z.unknown()).optional(),
  /** Beyond the spec (issue 27): its optional schedule (null: the frequency's slot), and when it runs next (null: manual only, or its connector is paused). */
  schedule: recordScheduleSchema.optional(),
  next_run_at: z.string().nullable().optional(),
  /** Beyond the spec (GET /transforms/{id}): the file types the connector's data comes as. */
  connector_file_types: z.array(z.string()).optional(),
  last_run: z
    .object({ id: z.string(), status: z.string(), started_at: z.string().nullable(), finished_at: z.string().nullable(), created_at: z.string(), error: z.string().nullable() })
    .nullable()
    .optional(),
});
export type Transform = z.infer<typeof transformSchema>;

export const transformRunSchema = z.object({
  id: z.string(),
  transform_id: z.string(),
  status: z.enum(TRANSFORM_RUN_STATUSES),
  trigger: z.string(),
  /** When Cancel asked the run to stop (it stops at its next step), or null. */
  cancel_requested_at: z.string().nullable().optional(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** Transcripts (records) read. */
  records: z.number().int(),
  /** Result tables written, with their row counts. */
  outputs: z.array(z.object({ table: z.string(), rows: z.number().int() })),
  error: z.string().nullable(),
});
export type TransformRun = z.infer<typeof transformRunSchema>;

/** GET /transforms/config. */
export const transformConfigSchema = z.object({
  transform_types: z.array(z.object({ value: z.string(), label: z.string() })),
  /**
   * Beyond the spec: each connector's `file_types` (the files its source's records come as, in TRANSFORM_FILE_TYPES
   * order) and whether it has synced yet, so the form can tell which file types have any data.
   */
  connectors: z.array(z.object({ id: z.string(), name: z.string(), file_types: z.array(z.string()).default([]), synced: z.boolean().default(false) })),
  file_types: z.array(z.string()),
});
export type TransformConfig = z.infer<typeof transformConfigSchema>;

const trimmed = (message: string, label: string, text: typeof storable = storable) =>
  text(z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(2000, `${label} must be 2,000 characters or fewer`), label);
const name = trimmed(TRANSFORM_MESSAGES.nameRequired, "Name", storableName);
const description = storable(z.string({ invalid_type_error: "Description must be text" }).trim().max(2000, "Description must be 2,000 characters or fewer"), "Description").default("");

/** The first screen (/transforms/add): what Continue validates (§5). Name uniqueness is checked by the server. */
export const transformDraftSchema = z.object({
  name,
  description,
  connector_id: trimmed(TRANSFORM_MESSAGES.connectorRequired, "connector_id"),
  frequency: z.enum(TRANSFORM_FREQUENCIES, { errorMap: () => ({ message: TRANSFORM_MESSAGES.frequencyRequired }) }),
  file_type: z.enum(TRANSFORM_FILE_TYPES, { errorMap: () => ({ message: TRANSFORM_MESSAGES.fileTypeRequired }) }),
  workflow: z
    .enum(WORKFLOWS, { errorMap: () => ({ message: TRANSFORM_MESSAGES.workflowRequired }) })
    .refine((w) => w === "template", TRANSFORM_MESSAGES.customUnavailable),
});
export type TransformDraft = z.infer<typeof transformDraftSchema>;

/** POST /transforms/create (§7). */
export const transformCreateSchema = z.object({
  template_id: z.string({ required_error: TRANSFORM_MESSAGES.templateIdMissing, invalid_type_error: TRANSFORM_MESSAGES.templateIdMissing }).trim().min(1, TRANSFORM_MESSAGES.templateIdMissing),
  name,
  description,
  connector_id: z.string({ required_error: TRANSFORM_MESSAGES.templateCreateIncomplete }).trim().min(1, TRANSFORM_MESSAGES.templateCreateIncomplete),
  permissions_setup: z.literal(true, { errorMap: () => ({ message: TRANSFORM_MESSAGES.templateCreateIncomplete }) }),
  frequency: z.enum(TRANSFORM_FREQUENCIES, { errorMap: () => ({ message: TRANSFORM_MESSAGES.frequencyRequired }) }).default(DEFAULT_TRANSFORM_FREQUENCY),
  file_types: z.array(z.enum(TRANSFORM_FILE_TYPES, { errorMap: () => ({ message: TRANSFORM_MESSAGES.fileTypeRequired }) }), { invalid_type_error: TRANSFORM_MESSAGES.fileTypeRequired }).min(1, TRANSFORM_MESSAGES.fileTypeRequired).default([...DEFAULT_FILE_TYPES]),
  status: z.literal("PENDING").default("PENDING"),
  inputs: storableRecord("inputs").optional(),
  requirement_inputs: storableRecord("requirement_inputs").optional(),
});
export type TransformCreate = z.infer<typeof transformCreateSchema>;

/** PATCH /api/v1/transforms/{id}: what changes without recreating the transform (§5's name rules). */
export const updateTransformBodySchema = z.object({ name, description });

/** The template step's Continue (/transforms/templates/select): the template chosen, in the category shown. */
export const templateChoiceSchema = z.object({
  template: z.string({ required_error: TRANSFORM_MESSAGES.templateIdMissing }).trim().min(1, TRANSFORM_MESSAGES.templateIdMissing),
  category: z.string().optional(),
});

/* ---- templates ----------------------------------------------------------------------------------- */

export const templateInputSchema = z.object({
  type: z.enum(INPUT_TYPES),
  default: z.unknown().optional(),
  required: z.boolean().default(false),
  description: z.string().default(""),
  /** A human label; the app falls back to the input's key. */
  label: z.string().optional(),
  enum: z.array(z.string()).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  hidden: z.boolean().optional(),
  group: z.string().optional(),
});
export type TemplateInput = z.infer<typeof templateInputSchema>;

export const requirementInputSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(["string", "enum"]),
  enum: z.array(z.string()).optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().default(false),
});
export type RequirementInput = z.infer<typeof requirementInputSchema>;

export const setupStepSchema = z.object({
  step: z.number().int(),
  title: z.string(),
  description: z.string(),
  required: z.boolean(),
  type: z.enum(SETUP_STEP_TYPES),
  permission: z.string().optional(),
  requirement_inputs: z.array(requirementInputSchema).default([]),
  /** Beyond the spec: SQL to run (Snowflake GRANTs, BigQuery DCL) and plain-language instructions, per warehouse. */
  sql: z.string().optional(),
  instructions: z.array(z.string()).optional(),
});
export type SetupStep = z.infer<typeof setupStepSchema>;

export const templateCategorySchema = z.object({ id: z.string(), name: z.string() });
export type TemplateCategory = z.infer<typeof templateCategorySchema>;

export const templateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  mermaid_code: z.string(),
  setup_steps: z.array(setupStepSchema),
  inputs: z.record(templateInputSchema),
  /** Beyond the spec: what the template needs (the select page's requirements list) and what it writes. */
  requirements: z.array(z.string()).default([]),
  outputs: z.array(z.object({ table: z.string(), description: z.string() })).default([]),
  /** The template's steps in words, for the page without JS (the flowchart's text form). */
  steps: z.array(z.string()).default([]),
  /** Beyond the spec: flowchart node id → tooltip text (the node ids of mermaid_code). */
  node_descriptions: z.record(z.string()).optional(),
  /** Beyond the spec: the flowchart's nodes and edges as data, which the page draws itself without JavaScript. */
  pipeline: z
    .object({
      nodes: z.array(z.object({ id: z.string(), label: z.string(), kind: z.enum(["data", "primitive", "signal", "outcome"]) })),
      edges: z.array(z.tuple([z.string(), z.string()])),
    })
    .optional(),
});
export type Template = z.infer<typeof templateSchema>;

/** GET /templates/{id}?connector_id=: the destination the wizard uses (§6: first BigQuery or Snowflake one, else the local one). */
export const templateDestinationSchema = z.object({
  id: z.string(),
  name: z.string(),
  integration_name: z.string(),
  integration_label: z.string(),
  category: z.string(),
  config: z.record(z.unknown()),
});
export type TemplateDestination = z.infer<typeof templateDestinationSchema>;
export const templateWithDestinationSchema = templateSchema.extend({ destination: templateDestinationSchema.nullable().optional() });
export type TemplateWithDestination = z.infer<typeof templateWithDestinationSchema>;

/** GET /templates/input-constants. */
export const inputConstantsSchema = z.object({
  input_types: z.array(z.string()),
  group_order: z.array(z.string()),
  file_types: z.array(z.string()),
  default_file_types: z.array(z.string()),
  frequencies: z.array(z.string()),
  workflows: z.array(z.object({ value: z.string(), label: z.string(), available: z.boolean() })),
  default_template_id: z.string(),
  setup_step_types: z.array(z.string()),
  permission_types: z.array(z.string()),
  integration_keys: z.array(z.string()),
});
export type InputConstants = z.infer<typeof inputConstantsSchema>;

/** A value as JSON carries it: a result table's cell (a JSON column's value is an object or a list). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValueSchema), z.record(jsonValueSchema)]));

/** GET /transforms/{id}/results?table=&limit=&offset=: a page of one result table of the transform, in its key's order. */
export const transformResultsSchema = z.object({
  table: z.string(),
  /** What the results page calls it ("Topics"). */
  label: z.string(),
  tables: z.array(z.string()),
  /** Rows skipped before these (the ?offset= asked for). */
  offset: z.number().int().min(0),
  columns: z.array(z.string()),
  rows: z.array(z.record(jsonValueSchema)),
  /** Rows in the whole table. */
  total: z.number().int(),
});
export type TransformResults = z.infer<typeof transformResultsSchema>;

/** A chart of a transform's results (issue 54), drawn on the server: its SVG and the points behind it. */
export const transformChartSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** The result table it reads. */
  table: z.string(),
  svg: z.string(),
  /** The same chart drawn for a phone's width. */
  svgCompact: z.string(),
  points: z.array(z.object({ x: z.string(), y: z.number(), series: z.string().optional() })),
  columns: z.object({ x: z.string(), y: z.string(), series: z.string().optional() }),
  /** A sentence shown above the picture: "None: …" when every count or sum it draws is zero. */
  note: z.string().nullable(),
});
export type TransformChart = z.infer<typeof transformChartSchema>;
/** GET /transforms/{id}/charts?tz=: every chart of its template over the latest successful run's results. */
export const transformChartsSchema = z.object({
  charts: z.array(transformChartSchema),
  time_zone: z.string(),
  /** With ?rows=: the first rows of each result table the latest successful run wrote (the results page's tables). */
  results: z.array(transformResultsSchema.pick({ table: true, label: true, columns: true, rows: true, total: true })).optional(),
});

/** POST /templates/{id}/preview. */
export const previewRequestSchema = z.object({
  template_id: z.string({ required_error: TRANSFORM_MESSAGES.templateIdMissing }).trim().min(1, TRANSFORM_MESSAGES.templateIdMissing),
  connector_id: z.string({ required_error: TRANSFORM_MESSAGES.templateCreateIncomplete }).trim().min(1, TRANSFORM_MESSAGES.templateCreateIncomplete),
  inputs: storableRecord("inputs").default({}),
  requirement_inputs: storableRecord("requirement_inputs").default({}),
  /** Beyond the spec: the file types the transform will read (record_count counts those); §9's default when absent. */
  file_types: z.array(z.enum(TRANSFORM_FILE_TYPES, { errorMap: () => ({ message: TRANSFORM_MESSAGES.fileTypeRequired }) })).min(1, TRANSFORM_MESSAGES.fileTypeRequired).default([...DEFAULT_FILE_TYPES]),
});

export const previewSampleSchema = z.object({
  /** The result table's suffix ("topics"). */
  table: z.string(),
  description: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.record(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  /** Rows the sample gave this table (more than shown). */
  total: z.number().int(),
});
export type PreviewSample = z.infer<typeof previewSampleSchema>;

export const previewResponseSchema = z.object({
  template_config: z.object({
    pipeline: z.object({
      primitives: z.array(z.object({ name: z.string(), type: z.string(), parameters: z.object({ provider: z.string(), model: z.string() }).passthrough() })),
      signals: z.object({ aggregations: z.array(z.object({ name: z.string(), function: z.string() }).passthrough()) }),
      outcome: z.object({ model_type: z.string() }).passthrough(),
    }),
  }),
  template_name: z.string(),
  transform_type: z.string(),
  record_count: z.number().int(),
  /** Beyond the spec: the records the connector's data has now per file type, and the file types its data comes as. */
  record_counts: z.record(z.number().int()).optional(),
  connector_file_types: z.array(z.string()).optional(),
  /** Beyond the spec: the template run on the first records (`sample_records` of them), a few rows of each result table. */
  sample_records: z.number().int().optional(),
  sample: z.array(previewSampleSchema).optional(),
});
export type PreviewResponse = z.infer<typeof previewResponseSchema>;

/* ---- answers of the transform and template calls (contract/responses.ts names them by route) ----------- */

const success = z.literal("success");
/** GET /transforms/{id}: the transform and the file types its connector's data comes as. */
export const transformDetailSchema = transformSchema.extend({ connector_file_types: z.array(z.string()) });
/** PUT /transforms/{id}/schedule: the transform as it is now. */
export const transformSavedSchema = transformSchema.extend({ message: z.string() });
/** POST /transforms/validate-draft: the first screen may go on. */
export const draftValidResponseSchema = z.object({ status: success, message: z.string() });
/** POST /transforms/create (201): the transform's id and its first run's (null when none was queued). */
export const transformCreatedSchema = z.object({ status: success, transform_id: z.string(), run_id: z.string().nullable(), message: z.string() });
/** POST /transforms/{id}/run (202). */
export const transformRunQueuedSchema = z.object({ status: success, run: transformRunSchema, message: z.string() });
/** GET /templates/categories[?connector_id=], GET /templates/categories/{category}/templates, …/metadata, …/setup-steps. */
export const templateCategoriesResponseSchema = z.object({ categories: z.array(templateCategorySchema) });
export const templatesResponseSchema = z.object({ templates: z.array(templateSchema) });
export const templateInputsResponseSchema = z.object({ inputs: z.record(templateInputSchema) });
export const setupStepsResponseSchema = z.object({ steps: z.array(setupStepSchema) });
