import { z } from "zod";
import {
  DEFAULT_SETUP_STEP_TITLES,
  previewResponseSchema,
  setupStepSchema,
  templateCategorySchema,
  templateInputSchema,
  templateSchema,
  transformConfigSchema,
  transformRunSchema,
  transformSchema,
  TRANSFORM_MESSAGES as M,
  type PreviewResponse,
  type SetupStep,
  type TemplateCategory,
  type TemplateInput,
  type Transform,
  type TransformConfig,
  type TransformCreate,
  type TransformRun,
} from "@contract/transforms";
import type { IntegrationInstructions, ServiceAccountInfo } from "@contract/destinations";
import { RUN_MESSAGES, runFailureSchema, transformRunDetailsSchema, type RunFailure, type TransformRunDetails } from "@contract/runs";
import { destinationManifest, destinationSetup } from "~/integrations";
import { callBackend, relayDownload, type Outcome } from "./backend.server";
import { instructionsBody, loadInstructions, loadServiceAccount } from "./destinations.server";

/**
 * The app's client of the backend's transform and template calls (spec §7
 * "Transforms and templates"). Every answer is checked against the shared
 * contract; a failure comes back as the spec's message (§8), never thrown.
 */

function call<S extends z.ZodTypeAny>(
  request: Request,
  path: string,
  schema: S,
  failure: string,
  init: { method?: "POST" | "PUT" | "DELETE"; json?: unknown } = {},
): Promise<Outcome<z.output<S>>> {
  return callBackend<z.output<S>>(request, path, { ...init, schema: schema as z.ZodType<z.output<S>, z.ZodTypeDef, unknown> }, failure);
}

/** A list that the backend may send bare or wrapped as `{ [key]: [...] }`. */
const listOf = <T extends z.ZodTypeAny>(item: T, key: string) =>
  z.union([z.array(item), z.object({ [key]: z.array(item) }).transform((o) => o[key] as z.output<T>[])]) as unknown as z.ZodType<
    z.output<T>[],
    z.ZodTypeDef,
    unknown
  >;

const enc = encodeURIComponent;

export function loadTransformConfig(request: Request): Promise<Outcome<TransformConfig>> {
  return call(request, "/transforms/config", transformConfigSchema, M.loadFailed);
}

/** POST /transforms/validate-draft: the server's checks of the first screen (the name is unique). */
export async function validateDraft(request: Request, body: Record<string, unknown>): Promise<Outcome<{ ok: true }>> {
  const outcome = await callBackend<unknown>(request, "/transforms/validate-draft", { method: "POST", json: body }, M.loadFailed);
  return outcome.ok ? { ok: true, data: { ok: true } } : outcome;
}

export function loadTransform(request: Request, id: string): Promise<Outcome<Transform>> {
  return call(request, `/transforms/${enc(id)}`, transformSchema, M.loadFailed);
}

/** The transform's runs, newest first, and its failures in a row when its latest finished run failed. */
export function loadTransformRuns(request: Request, id: string, before?: string): Promise<Outcome<{ runs: TransformRun[]; failing: RunFailure | null; hasMore: boolean }>> {
  const schema = z.union([
    z.array(transformRunSchema).transform((runs) => ({ runs, failing: null, hasMore: false })),
    z
      .object({ runs: z.array(transformRunSchema), failing: runFailureSchema.nullable().default(null), has_more: z.boolean().default(false) })
      .transform(({ has_more, ...rest }) => ({ ...rest, hasMore: has_more })),
  ]);
  return call(request, `/transforms/${enc(id)}/runs${before ? `?before=${enc(before)}` : ""}`, schema, "Failed to fetch transform runs");
}

/** One run of the transform: its attempts and its log. */
export function loadTransformRun(request: Request, id: string, runId: string): Promise<Outcome<TransformRunDetails>> {
  return call(request, `/transforms/${enc(id)}/runs/${enc(runId)}`, z.object({ run: transformRunDetailsSchema }).transform((o) => o.run), RUN_MESSAGES.loadFailed);
}

/** Cancel run: the transform's queued run ends at once, a running one at its next step. */
export function cancelTransformRun(request: Request, id: string): Promise<Outcome<unknown>> {
  return callBackend(request, `/transforms/${enc(id)}/cancel`, { method: "POST", json: {} }, "Failed to cancel the run");
}

export function runTransform(request: Request, id: string): Promise<Outcome<unknown>> {
  return callBackend(request, `/transforms/${enc(id)}/run`, { method: "POST", json: {} }, "Failed to start a transform run");
}

export function deleteTransform(request: Request, id: string): Promise<Outcome<unknown>> {
  return callBackend(request, `/transforms/delete/${enc(id)}`, { method: "DELETE" }, M.deleteFailed);
}

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]).or(z.unknown().transform((v) => JSON.stringify(v)));
const resultsSchema = z
  .object({
    table: z.string().optional(),
    columns: z.array(z.string()).optional(),
    rows: z.array(z.record(cell)),
    total: z.number().optional(),
  })
  .transform((r) => ({
    columns: r.columns ?? [...new Set(r.rows.flatMap((row) => Object.keys(row)))],
    rows: r.rows as Record<string, string | number | boolean | null>[],
    total: r.total ?? null,
  }));
export type ResultRows = z.infer<typeof resultsSchema>;

export function loadResults(request: Request, id: string, table: string, limit = 5): Promise<Outcome<ResultRows>> {
  return call(request, `/transforms/${enc(id)}/results?table=${enc(table)}&limit=${limit}`, resultsSchema, `Failed to load the results of ${table}`);
}

/** Every row of one result table as a CSV file (an attachment), or the reason it cannot be had as plain text. */
export function downloadResults(request: Request, id: string, table: string): Promise<Response> {
  return relayDownload(request, `/transforms/${enc(id)}/results/download?table=${enc(table)}`, `Failed to download the results of ${table}`);
}

export async function createTransform(request: Request, body: TransformCreate): Promise<Outcome<{ transform_id: string }>> {
  const outcome = await callBackend<{ transform_id?: unknown; id?: unknown }>(request, "/transforms/create", { method: "POST", json: body }, M.createFailed);
  if (!outcome.ok) return outcome;
  const id = outcome.data.transform_id ?? outcome.data.id;
  return typeof id === "string" ? { ok: true, data: { transform_id: id } } : { ok: false, status: 502, message: M.createFailed };
}

/* ---- templates ---------------------------------------------------------------------------------- */

/** With a connector: only the categories holding a template it is offered (one whose data its source syncs). */
export function loadCategories(request: Request, connectorId?: string): Promise<Outcome<TemplateCategory[]>> {
  const query = connectorId ? `?connector_id=${enc(connectorId)}` : "";
  return call(request, `/templates/categories${query}`, listOf(templateCategorySchema, "categories"), M.fetchCategoriesFailed);
}

const templateSummarySchema = templateSchema.partial({ mermaid_code: true, setup_steps: true, inputs: true }).passthrough();
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

/** With a connector: only the templates it is offered. */
export function loadTemplates(request: Request, category: string, connectorId?: string): Promise<Outcome<TemplateSummary[]>> {
  const query = connectorId ? `?connector_id=${enc(connectorId)}` : "";
  return call(request, `/templates/categories/${enc(category)}/templates${query}`, listOf(templateSummarySchema, "templates"), M.fetchTemplatesFailed);
}

/** The destination the template flow uses (the connector's first BigQuery or Snowflake one, or its local one). */
const wizardDestinationSchema = z.object({
  id: z.string(),
  name: z.string(),
  integration_name: z.string(),
  integration_label: z.string().optional(),
  category: z.string(),
  config: z.record(z.unknown()).default({}),
  description: z.string().optional(),
});
export type WizardDestination = z.infer<typeof wizardDestinationSchema>;

/** Node descriptions (mermaid node id → text) for the flowchart's tooltips, when the template offers them. */
const templateDetailSchema = templateSchema.extend({
  destination: wizardDestinationSchema.nullable().optional(),
  node_descriptions: z.record(z.string()).optional(),
});
export type TemplateDetail = z.infer<typeof templateDetailSchema>;

export async function loadTemplate(request: Request, id: string, connectorId?: string): Promise<Outcome<TemplateDetail>> {
  const query = connectorId ? `?connector_id=${enc(connectorId)}` : "";
  const outcome = await call(
    request,
    `/templates/${enc(id)}${query}`,
    z.union([templateDetailSchema, z.object({ template: templateDetailSchema }).transform((o) => o.template)]),
    M.fetchTemplateDetailsFailed
  );
  if (!outcome.ok && outcome.status === 404) return { ...outcome, message: M.templateNotFound };
  return outcome;
}

export function loadTemplateInputs(request: Request, id: string): Promise<Outcome<Record<string, TemplateInput>>> {
  const inputs = z.record(templateInputSchema);
  return call(request, `/templates/${enc(id)}/metadata`, z.union([z.object({ inputs }).transform((o) => o.inputs), inputs]), M.loadTemplateFailed);
}

/** GET /templates/{id}/setup-steps?connector_id=, in step order; none falls back to the two default steps (spec §4). */
export async function loadSetupSteps(request: Request, id: string, connectorId: string): Promise<Outcome<SetupStep[]>> {
  const outcome = await call(
    request,
    `/templates/${enc(id)}/setup-steps?connector_id=${enc(connectorId)}`,
    listOf(setupStepSchema, "steps"),
    M.loadTemplateFailed
  );
  if (!outcome.ok) return outcome;
  if (outcome.data.length) return { ok: true, data: [...outcome.data].sort((a, b) => a.step - b.step) };
  return {
    ok: true,
    data: [
      {
        step: 1,
        title: DEFAULT_SETUP_STEP_TITLES[0],
        description: "Check the destination this transform reads the connector's data from.",
        required: true,
        type: "destination_setup",
        requirement_inputs: [],
      },
      {
        step: 2,
        title: DEFAULT_SETUP_STEP_TITLES[1],
        description: "Review the access this transform needs before you configure it.",
        required: true,
        type: "permissions_review",
        requirement_inputs: [],
      },
    ],
  };
}

export async function previewTemplate(
  request: Request,
  id: string,
  body: { connector_id: string; inputs: Record<string, unknown>; requirement_inputs: Record<string, unknown>; file_types: string[] }
): Promise<Outcome<PreviewResponse>> {
  return call(request, `/templates/${enc(id)}/preview`, previewResponseSchema, M.previewFailed, { method: "POST", json: { template_id: id, ...body } });
}

/* ---- permission instructions -------------------------------------------------------------------- */

export interface GrantInstructions {
  serviceAccount: ServiceAccountInfo | null;
  instructions: IntegrationInstructions | null;
  error: string | null;
}

/**
 * What the destination screens' calls add to a step that asks for grants: the
 * platform's service account (with its e-mail to copy) where the destination's
 * setup has one and, when the step carries no SQL or instructions of its own,
 * the destination's setup instructions. A destination that needs no connection
 * test (the local folder) needs nothing granted.
 */
export async function loadGrantInstructions(request: Request, destination: WizardDestination, step: SetupStep): Promise<GrantInstructions> {
  const name = destination.integration_name;
  const manifest = destinationManifest(name);
  const ownText = !!step.sql || !!step.instructions?.length;
  const config = Object.fromEntries(Object.entries(destination.config).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const permission = { permission_type: step.permission === "dataset_query_access" ? "dataset_query_access" : "dataset_write" };
  let serviceAccount: ServiceAccountInfo | null = null;
  if (destinationSetup(name).serviceAccount) {
    const account = await loadServiceAccount(request, name);
    if (!account.ok) return { serviceAccount: null, instructions: null, error: "Service account information is not available." };
    serviceAccount = account.data;
  } else if (!manifest?.needsConnectionTest) {
    return { serviceAccount: null, instructions: null, error: null };
  }
  if (ownText) return { serviceAccount, instructions: null, error: null };
  const instructions = await loadInstructions(request, name, instructionsBody(name, config, serviceAccount ? permission : {}));
  return { serviceAccount, instructions: instructions.ok ? instructions.data : null, error: instructions.ok ? null : "Unable to load instructions." };
}

/* ---- template inputs from a form ---------------------------------------------------------------- */

/** What the config form posted for each visible input (`in.<key>`), as typed: to show again after a refusal. */
export function typedTemplateInputs(defs: Record<string, TemplateInput>, form: FormData): Record<string, string> {
  const typed: Record<string, string> = {};
  for (const [key, def] of Object.entries(defs)) {
    if (def.hidden) continue;
    const entry = form.get(`in.${key}`);
    typed[key] = def.type === "boolean" ? String(form.getAll(`in.${key}`).includes("true")) : typeof entry === "string" ? entry : "";
  }
  return typed;
}
