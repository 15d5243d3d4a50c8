import {
  DEFAULT_SETUP_STEP_TITLES,
  TRANSFORM_MESSAGES as M,
  type JsonValue,
  type PreviewResponse,
  type SetupStep,
  type Template,
  type TemplateCategory,
  type TemplateDestination,
  type TemplateInput,
  type TemplateWithDestination,
  type TransformConfig,
  type TransformCreate,
  type TransformRun,
} from "@contract/transforms";
import type { TransformChart } from "@contract/transforms";
import type { IntegrationInstructions, ServiceAccountInfo } from "@contract/destinations";
import { RUN_MESSAGES, type RunFailure, type TransformRunDetails } from "@contract/runs";
import { destinationManifest, destinationSetup } from "~/integrations";
import { callBackend, relayDownload, type Outcome } from "./backend.server";
import { instructionsBody, loadInstructions, loadServiceAccount } from "./destinations.server";

/**
 * The app's client of the backend's transform and template calls (spec §7
 * "Transforms and templates"). Every answer is checked against the shared
 * contract (callBackend); a failure comes back as the spec's message (§8), never thrown.
 */

/** An outcome's data, reshaped for the page. */
const mapped = <T, U>(outcome: Outcome<T>, f: (data: T) => U): Outcome<U> => (outcome.ok ? { ok: true, data: f(outcome.data) } : outcome);

export function loadTransformConfig(request: Request): Promise<Outcome<TransformConfig>> {
  return callBackend(request, "GET /transforms/config", {}, M.loadFailed);
}

/** POST /transforms/validate-draft: the server's checks of the first screen (the name is unique). */
export async function validateDraft(request: Request, body: Record<string, unknown>): Promise<Outcome<{ ok: true }>> {
  return mapped(await callBackend(request, "POST /transforms/validate-draft", { json: body }, M.loadFailed), () => ({ ok: true as const }));
}

/** The transform, with the file types its connector's data comes as. */
export function loadTransform(request: Request, id: string) {
  return callBackend(request, "GET /transforms/:id", { params: { id } }, M.loadFailed);
}

/** The transform's runs, newest first, and its failures in a row when its latest finished run failed. */
export async function loadTransformRuns(request: Request, id: string, before?: string): Promise<Outcome<{ runs: TransformRun[]; failing: RunFailure | null; hasMore: boolean }>> {
  const outcome = await callBackend(request, "GET /transforms/:id/runs", { params: { id }, query: { before } }, "Failed to fetch transform runs");
  return mapped(outcome, ({ runs, failing, has_more }) => ({ runs, failing, hasMore: has_more }));
}

/** One run of the transform: its attempts and its log. */
export async function loadTransformRun(request: Request, id: string, runId: string): Promise<Outcome<TransformRunDetails>> {
  return mapped(await callBackend(request, "GET /transforms/:id/runs/:runId", { params: { id, runId } }, RUN_MESSAGES.loadFailed), (o) => o.run);
}

/** Cancel run: the transform's queued run ends at once, a running one at its next step. */
export function cancelTransformRun(request: Request, id: string) {
  return callBackend(request, "POST /transforms/:id/cancel", { params: { id }, json: {} }, "Failed to cancel the run");
}

export function runTransform(request: Request, id: string) {
  return callBackend(request, "POST /transforms/:id/run", { params: { id }, json: {} }, "Failed to start a transform run");
}

export function deleteTransform(request: Request, id: string) {
  return callBackend(request, "DELETE /transforms/delete/:id", { params: { id } }, M.deleteFailed);
}

/** A page of a result table's rows as the page shows them: a JSON column's value (a list, an object) as its JSON text. */
export interface ResultRows {
  /** What the page calls the table ("Topics"). */
  label: string;
  columns: string[];
  rows: Record<string, string | number | boolean | null>[];
  total: number;
  /** Rows of the table before these (in its key's order). */
  offset: number;
}

const shownCell = (value: JsonValue) => (value !== null && typeof value === "object" ? JSON.stringify(value) : value);

/** `limit` rows of a result table after its first `offset`, in the table's key order (the same rows every time). */
export async function loadResults(request: Request, id: string, table: string, limit = 5, offset = 0): Promise<Outcome<ResultRows>> {
  const query = { table, limit, ...(offset > 0 ? { offset } : {}) };
  const outcome = await callBackend(request, "GET /transforms/:id/results", { params: { id }, query }, `Failed to load the results of ${table}`);
  return mapped(outcome, (r) => ({
    label: r.label,
    columns: r.columns,
    rows: r.rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, shownCell(value)]))),
    total: r.total,
    offset: r.offset,
  }));
}

/**
 * A results page's charts and the first `rows` rows of each result table, in one call (the backend opens the
 * warehouse once for both).
 */
export async function loadChartsAndResults(request: Request, id: string, timeZone: string, rows: number): Promise<Outcome<{ charts: TransformChart[]; results: (ResultRows & { table: string })[] }>> {
  const outcome = await callBackend(request, "GET /transforms/:id/charts", { params: { id }, query: { tz: timeZone, rows } }, "Failed to draw the charts");
  return mapped(outcome, (r) => ({
    charts: r.charts,
    results: (r.results ?? []).map((t) => ({
      table: t.table,
      label: t.label,
      columns: t.columns,
      rows: t.rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, shownCell(value)]))),
      total: t.total,
      offset: 0,
    })),
  }));
}

/** One chart as a file: its SVG, or the CSV of the points behind it. */
export function downloadChart(request: Request, id: string, chart: string, format: "svg" | "csv", timeZone: string): Promise<Response> {
  return relayDownload(request, "GET /transforms/:id/charts/:chart/download", { params: { id, chart }, query: { format, tz: timeZone } }, "Failed to download the chart");
}

/** Every row of one result table as a CSV file (an attachment), or the reason it cannot be had as plain text. */
export function downloadResults(request: Request, id: string, table: string): Promise<Response> {
  return relayDownload(request, "GET /transforms/:id/results/download", { params: { id }, query: { table } }, `Failed to download the results of ${table}`);
}

export async function createTransform(request: Request, body: TransformCreate): Promise<Outcome<{ transform_id: string }>> {
  return mapped(await callBackend(request, "POST /transforms/create", { json: body }, M.createFailed), (o) => ({ transform_id: o.transform_id }));
}

/* ---- templates ---------------------------------------------------------------------------------- */

/** With a connector: only the categories holding a template it is offered (one whose data its source syncs). */
export async function loadCategories(request: Request, connectorId?: string): Promise<Outcome<TemplateCategory[]>> {
  const outcome = await callBackend(request, "GET /templates/categories", { query: { connector_id: connectorId } }, M.fetchCategoriesFailed);
  return mapped(outcome, (o) => o.categories);
}

export type TemplateSummary = Template;

/** With a connector: only the templates it is offered. */
export async function loadTemplates(request: Request, category: string, connectorId?: string): Promise<Outcome<TemplateSummary[]>> {
  const outcome = await callBackend(request, "GET /templates/categories/:category/templates", { params: { category }, query: { connector_id: connectorId } }, M.fetchTemplatesFailed);
  return mapped(outcome, (o) => o.templates);
}

/** The destination the template flow uses (the connector's first BigQuery or Snowflake one, or its local one). */
export type WizardDestination = TemplateDestination;

/** A template, and with a connector the destination the wizard uses (null: none). */
export type TemplateDetail = TemplateWithDestination;

export async function loadTemplate(request: Request, id: string, connectorId?: string): Promise<Outcome<TemplateDetail>> {
  const outcome = await callBackend(request, "GET /templates/:id", { params: { id }, query: { connector_id: connectorId } }, M.fetchTemplateDetailsFailed);
  if (!outcome.ok && outcome.status === 404) return { ...outcome, message: M.templateNotFound };
  return outcome;
}

export async function loadTemplateInputs(request: Request, id: string): Promise<Outcome<Record<string, TemplateInput>>> {
  return mapped(await callBackend(request, "GET /templates/:id/metadata", { params: { id } }, M.loadTemplateFailed), (o) => o.inputs);
}

/** GET /templates/{id}/setup-steps?connector_id=, in step order; none falls back to the two default steps (spec §4). */
export async function loadSetupSteps(request: Request, id: string, connectorId: string): Promise<Outcome<SetupStep[]>> {
  const outcome = await callBackend(request, "GET /templates/:id/setup-steps", { params: { id }, query: { connector_id: connectorId } }, M.loadTemplateFailed);
  if (!outcome.ok) return outcome;
  if (outcome.data.steps.length) return { ok: true, data: [...outcome.data.steps].sort((a, b) => a.step - b.step) };
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
  return callBackend(request, "POST /templates/:id/preview", { params: { id }, json: { template_id: id, ...body } }, M.previewFailed);
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
