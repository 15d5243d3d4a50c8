import { Hono, type Context } from "hono";
import { ApiError, jsonBody, requireSession, type ApiEnv } from "./context.js";
import { listHandler } from "./list-route.js";
import { listTransforms } from "../db/lists.js";
import {
  connectorChoices,
  connectorDataOf,
  deleteTransform,
  findTransform,
  findTransformRunDetails,
  insertTransform,
  latestSucceededRun,
  listTransformRuns,
  ownedTransformRow,
  setTransformSchedule,
  transformFailing,
  transformNameTaken,
} from "../db/transforms.js";
import { addScheduleRoutes } from "./schedules.js";
import { addRunRoutes } from "./run-routes.js";
import { findConnector } from "../db/connectors.js";
import {
  TRANSFORM_FILE_TYPES,
  TRANSFORM_MESSAGES as M,
  transformCreateSchema,
  transformDraftSchema,
} from "../../contract/transforms.js";
import { allDefinitions } from "../transforms/catalogue.js";
import { checkedInputs, connectorAndWarehouse, FieldError, parseFields, requireTemplate, toWarehouseTarget } from "../transforms/requests.js";
import { resultTables } from "../transforms/runner.js";
import { requireOffered } from "../transforms/offer.js";
import { enqueueTransformRun, TRANSFORM_RUNS } from "../transforms/runs.js";
import { answerCancel, stopBeforeDelete } from "./cancel.js";
import { openWarehouse } from "../transforms/warehouse.js";
import { dataFileTypes, ownedWarehouseDestination } from "../transforms/warehouse.js";
import { MAX_DOWNLOAD_ROWS, resultsCsv } from "../transforms/results-csv.js";
import { presentTransform, presentTransformRun, TRANSFORM_RUN_VIEWS } from "./present/transforms.js";

/**
 * Spec §7 "Transforms" plus, beyond the spec, the first screen's server
 * check (validate-draft), Run now, run history and result rows.
 */
export const transformsRoutes = new Hono<ApiEnv>();
transformsRoutes.use("/transforms/*", requireSession);

/** { message, field } for field errors; the app-wide handler does the rest. */
transformsRoutes.onError((error, c) => {
  if (error instanceof FieldError) return c.json({ message: error.message, ...(error.field ? { field: error.field } : {}) }, error.status);
  if (error instanceof ApiError) return c.json({ message: error.message }, error.status);
  throw error;
});

transformsRoutes.get("/transforms/config", async (c) => {
  return c.json({
    transform_types: allDefinitions().map((d) => ({ value: d.transformType, label: d.label })),
    connectors: (await connectorChoices(c.var.services.db, c.var.user.id)).map((connector) => ({
      id: connector.id,
      name: connector.name,
      file_types: dataFileTypes(connector),
      synced: connector.synced,
    })),
    file_types: [...TRANSFORM_FILE_TYPES],
  });
});

transformsRoutes.get("/transforms/list", listHandler("transforms", listTransforms, presentTransform));

/** The first screen's Continue (§5): the schema's checks, the connector is the caller's, the name is not taken. */
transformsRoutes.post("/transforms/validate-draft", async (c) => {
  const draft = parseFields(transformDraftSchema, await jsonBody(c));
  if (!(await findConnector(c.var.services.db, c.var.user.id, draft.connector_id))) throw new FieldError(400, M.connectorNotFound, "connector_id");
  if (await transformNameTaken(c.var.services.db, c.var.user.id, draft.name)) throw new FieldError(409, M.nameTaken, "name");
  return c.json({ status: "success", message: "The transform can be configured." });
});

transformsRoutes.post("/transforms/create", async (c) => {
  const { row, run } = await createTransformFor(c, await jsonBody(c));
  return c.json({ status: "success", transform_id: row.id, run_id: run?.id ?? null, message: "Transform created" }, 201);
});

/** The rules of POST /transforms/create (and of the public API's POST /api/v1/transforms): the caller's transform, made, and its first run. */
export async function createTransformFor(c: { var: ApiEnv["Variables"] }, raw: unknown) {
  const { db } = c.var.services;
  const body = parseFields(transformCreateSchema, raw);
  const d = requireTemplateInBody(body.template_id);
  const { connector, destination } = await connectorAndWarehouse(db, c.var.user.id, body.connector_id);
  if (!destination) throw new FieldError(400, M.noWarehouse, "connector_id");
  requireOffered(d, await connectorDataOf(db, connector.id));
  const { inputs, requirementInputs } = checkedInputs(d, toWarehouseTarget(destination), body.inputs, body.requirement_inputs);
  const row = await insertTransform(db, c.var.user.id, {
    name: body.name,
    description: body.description,
    transformType: d.transformType,
    templateId: d.id,
    connectorId: connector.id,
    frequency: body.frequency,
    fileTypes: [...new Set(body.file_types)],
    inputs,
    requirementInputs,
    permissionsSetup: body.permissions_setup,
  });
  if (!row) throw new FieldError(409, M.nameTaken, "name");
  // The first run, at once.
  const run = await enqueueTransformRun(db, c.var.services.queue, { id: row.id, ownerId: c.var.user.id }, "create");
  return { row, run };
}

function requireTemplateInBody(id: string) {
  try {
    return requireTemplate(id);
  } catch {
    throw new FieldError(400, M.templateNotFound, "template_id");
  }
}

transformsRoutes.delete("/transforms/delete/:id", async (c) => {
  await deleteTransformFor(c, c.req.param("id"));
  return c.json({ message: "Transform deleted" });
});

/** The rules of DELETE /transforms/delete/{id} (and the public API's): its run is stopped first, nothing lands after the delete. */
export async function deleteTransformFor(c: { var: ApiEnv["Variables"] }, id: string): Promise<void> {
  const transform = await ownedTransformRow(c.var.services.db, c.var.user.id, id);
  if (transform) await stopBeforeDelete(c, TRANSFORM_RUNS, transform.id, "run");
  if (!(await deleteTransform(c.var.services.db, c.var.user.id, id))) throw new ApiError(404, M.notFound);
}

async function owned(c: Context<ApiEnv>) {
  return ownedTransform(c, c.req.param("id")!);
}

/** The caller's transform (its row), or a 404. */
export async function ownedTransform(c: { var: ApiEnv["Variables"] }, id: string) {
  const row = await ownedTransformRow(c.var.services.db, c.var.user.id, id);
  if (!row) throw new ApiError(404, M.notFound);
  return row;
}

/** Run now: 409 while a run is queued or running. */
transformsRoutes.post("/transforms/:id/run", async (c) => c.json({ status: "success", run: presentTransformRun(await runTransformFor(c, c.req.param("id"))), message: "Run queued" }, 202));

/** Run now (the app's and the public API's): the caller's transform, 409 while a run is queued or running. */
export async function runTransformFor(c: { var: ApiEnv["Variables"] }, id: string) {
  const transform = await ownedTransform(c, id);
  const run = await enqueueTransformRun(c.var.services.db, c.var.services.queue, { id: transform.id, ownerId: c.var.user.id }, "manual");
  if (!run) throw new ApiError(409, M.runOpen);
  return run;
}

/** Cancel the transform's queued or running run: 200 when it is over (or nothing was open), 202 while it stops. */
transformsRoutes.post("/transforms/:id/cancel", async (c) => {
  const transform = await owned(c);
  return answerCancel(c, TRANSFORM_RUNS, transform.id, "run");
});

addRunRoutes(transformsRoutes, "transforms", { kind: "transform", owned, list: listTransformRuns, failing: transformFailing, details: findTransformRunDetails, present: TRANSFORM_RUN_VIEWS });

/**
 * Rows of one result table (?table=, default the transform's first) as of the latest successful run: `limit` rows at
 * most, or no page when that run wrote none.
 */
async function readResults(c: Context<ApiEnv>, limit: number) {
  const { db } = c.var.services;
  const transform = await owned(c);
  const tables = resultTables(transform);
  const table = c.req.query("table") || tables[0] || "";
  if (!tables.includes(table)) throw new FieldError(400, M.unknownResultTable, "table");
  const latest = await latestSucceededRun(db, transform.id);
  if (!latest?.outputs.some((o) => o.table === table)) return { table, tables, page: null };
  const destination = await ownedWarehouseDestination(db, c.var.user.id, transform.connectorId);
  if (!destination) throw new ApiError(409, M.noWarehouse);
  const warehouse = openWarehouse(destination, c.var.user.id, c.var.services);
  try {
    const requirement = transform.requirementInputs as Record<string, string | undefined>;
    const page = await warehouse.readTable(table, limit, latest.id, { dataset: requirement.results_dataset, schema: requirement.results_schema });
    return { table, tables, page };
  } catch (error) {
    throw new ApiError(502, `Reading the result table ${table} from "${destination.name}" failed: ${(error as Error).message}`);
  } finally {
    await warehouse.close().catch(() => {});
  }
}

/** Rows of one result table as of the latest successful run (?table= one of the transform's tables, default the first; ?limit= 1–500, default 50). */
transformsRoutes.get("/transforms/:id/results", async (c) => {
  const limitText = c.req.query("limit") ?? "50";
  const limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= 500)) throw new FieldError(400, "limit must be a whole number from 1 to 500.", "limit");
  const { table, tables, page } = await readResults(c, limit);
  return c.json(page ? { table, tables, ...page } : { table, tables, columns: [] as string[], rows: [] as Record<string, unknown>[], total: 0 });
});

/** Every row of one result table as of the latest successful run, as a CSV file (?table= one of the transform's tables). */
transformsRoutes.get("/transforms/:id/results/download", async (c) => {
  const { table, page } = await readResults(c, MAX_DOWNLOAD_ROWS + 1);
  if (page && page.total > MAX_DOWNLOAD_ROWS) throw new ApiError(413, M.downloadTooLarge(page.total, MAX_DOWNLOAD_ROWS));
  return c.body(resultsCsv(page?.columns ?? [], page?.rows ?? []), 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${table}.csv"`,
    "cache-control": "private, no-store",
  });
});

addScheduleRoutes(transformsRoutes, "transforms", { notFound: M.notFound, find: findTransform, set: setTransformSchedule, present: presentTransform });

// Registered last: "/transforms/:id" would otherwise shadow the calls above.
transformsRoutes.get("/transforms/:id", async (c) => {
  const transform = await findTransform(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (!transform) throw new ApiError(404, M.notFound);
  const connector = await connectorDataOf(c.var.services.db, transform.connectorId);
  return c.json({ ...presentTransform(transform), connector_file_types: connector ? dataFileTypes(connector) : [] });
});
