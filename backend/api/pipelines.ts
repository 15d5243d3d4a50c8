import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ApiError, jsonBody, parse, type ApiEnv } from "../http/context.js";
import type { Database } from "../db/client.js";
import { backfillFor, createConnectorFor, deleteConnectorFor, owned as ownedConnector, syncFor, updateConnectorFor } from "../http/connectors.js";
import { createTransformFor, deleteTransformFor, ownedTransform, runTransformFor } from "../http/transforms.js";
import { cancelFor } from "../http/cancel.js";
import { findConnector, findSyncRunDetails, listRuns, setConnectorSchedule } from "../db/connectors.js";
import { findTransform, findTransformRunDetails, listTransformRuns, renameTransform, setTransformSchedule } from "../db/transforms.js";
import { listConnectors, listTransforms } from "../db/lists.js";
import { logWasPruned } from "../db/history.js";
import { SYNC_RUNS } from "../sync/index.js";
import { TRANSFORM_RUNS } from "../transforms/runs.js";
import { connectorSchema, CONNECTOR_MESSAGES, createConnectorBodySchema, syncRunSchema, updateConnectorBodySchema } from "../../contract/connectors.js";
import { TRANSFORM_MESSAGES, transformCreateSchema, transformRunSchema, transformSchema, updateTransformBodySchema } from "../../contract/transforms.js";
import { RUN_MESSAGES, runLogText, syncRunDetailsSchema, transformRunDetailsSchema } from "../../contract/runs.js";
import { backfillRequestSchema, cancelResponseSchema } from "../../contract/run-operations.js";
import { scheduleBodySchema, scheduleOf, type Schedule } from "../../contract/schedules.js";
import { apiScheduleSchema, cursorQuerySchema, idParamsSchema, pageSchema, runParamsSchema, type ApiSchedule } from "../../contract/api.js";
import type { RunViews } from "../http/run-routes.js";
import type { RunLogRecord } from "../db/run-logs.js";
import { connectorSchedule, presentConnector, presentSyncRun, SYNC_RUN_VIEWS } from "../http/present/connectors.js";
import { presentTransform, presentTransformRun, transformSchedule, TRANSFORM_RUN_VIEWS } from "../http/present/transforms.js";
import { apiRoute, idempotencyHeaders, json, jsonRequest } from "./spec.js";
import { listPage, runsPage } from "./paging.js";

type App = OpenAPIHono<ApiEnv>;
type Vars = { var: ApiEnv["Variables"] };
const deleted = json(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.");

export function addConnectorRoutes(app: App) {
  const tags = ["Connectors"];
  app.openapi(
    apiRoute({ method: "get", path: "/connectors", operationId: "listConnectors", tags, summary: "List connectors", request: { query: cursorQuerySchema }, responses: { 200: json(pageSchema(connectorSchema), "A page of connectors, newest first.") } }),
    async (c) => c.json(await listPage(c.var.services.db, c.var.user.id, "connectors", listConnectors, presentConnector, c.req.valid("query")), 200),
  );
  app.openapi(
    apiRoute({ method: "get", path: "/connectors/{id}", operationId: "getConnector", tags, summary: "Read a connector", request: { params: idParamsSchema }, responses: { 200: json(connectorSchema, "The connector.") } }),
    async (c) => c.json(presentConnector(await ownedConnector(c, c.req.valid("param").id)), 200),
  );
  app.openapi(
    apiRoute({
      method: "post",
      path: "/connectors",
      operationId: "createConnector",
      tags,
      summary: "Create a connector",
      description: "Its first sync is queued at once unless first_sync is false or its schedule is manual.",
      request: { headers: idempotencyHeaders, body: jsonRequest(createConnectorBodySchema) },
      responses: { 201: json(connectorSchema, "The connector, created.") },
    }),
    async (c) => c.json(presentConnector(await createConnectorFor(c, await jsonBody(c))), 201),
  );
  app.openapi(
    apiRoute({ method: "patch", path: "/connectors/{id}", operationId: "updateConnector", tags, summary: "Update a connector", request: { params: idParamsSchema, body: jsonRequest(updateConnectorBodySchema) }, responses: { 200: json(connectorSchema, "The connector, updated.") } }),
    async (c) => {
      const existing = await ownedConnector(c, c.req.valid("param").id);
      return c.json(presentConnector(await updateConnectorFor(c, existing, parse(updateConnectorBodySchema, await jsonBody(c)))), 200);
    },
  );
  app.openapi(
    apiRoute({ method: "delete", path: "/connectors/{id}", operationId: "deleteConnector", tags, summary: "Delete a connector (its sync is stopped first; 409 while transforms use it)", request: { params: idParamsSchema }, responses: { 200: deleted } }),
    async (c) => {
      const { id } = c.req.valid("param");
      await deleteConnectorFor(c, id);
      return c.json({ id, deleted: true as const }, 200);
    },
  );
  app.openapi(
    apiRoute({ method: "post", path: "/connectors/{id}/sync", operationId: "triggerSync", tags, summary: "Sync now", request: { params: idParamsSchema, headers: idempotencyHeaders }, responses: { 202: json(z.object({ run: syncRunSchema }), "The sync, queued.") } }),
    async (c) => c.json({ run: presentSyncRun(await syncFor(c, c.req.valid("param").id)) }, 202),
  );
  app.openapi(
    apiRoute({
      method: "post",
      path: "/connectors/{id}/backfill",
      operationId: "triggerBackfill",
      tags,
      summary: "Backfill a date range",
      request: { params: idParamsSchema, headers: idempotencyHeaders, body: jsonRequest(backfillRequestSchema) },
      responses: { 202: json(z.object({ run: syncRunSchema }), "The backfill, queued.") },
    }),
    async (c) => c.json({ run: presentSyncRun(await backfillFor(c, await ownedConnector(c, c.req.valid("param").id), await jsonBody(c))) }, 202),
  );
  addRunRoutes(app, "connectors", tags, {
    owned: ownedConnector,
    list: listRuns,
    details: findSyncRunDetails,
    present: SYNC_RUN_VIEWS,
    runSchema: syncRunSchema,
    detailsSchema: syncRunDetailsSchema,
    cancel: (c, id) => cancelFor(c, SYNC_RUNS, id, "sync"),
  });
  addScheduleRoutes(app, "connectors", tags, { find: findConnector, schedule: (connector) => connectorSchedule(connector), set: setConnectorSchedule, notFound: CONNECTOR_MESSAGES.notFound });
}

export function addTransformRoutes(app: App) {
  const tags = ["Transforms"];
  app.openapi(
    apiRoute({ method: "get", path: "/transforms", operationId: "listTransforms", tags, summary: "List transforms", request: { query: cursorQuerySchema }, responses: { 200: json(pageSchema(transformSchema), "A page of transforms, newest first.") } }),
    async (c) => c.json(await listPage(c.var.services.db, c.var.user.id, "transforms", listTransforms, presentTransform, c.req.valid("query")), 200),
  );
  app.openapi(
    apiRoute({ method: "get", path: "/transforms/{id}", operationId: "getTransform", tags, summary: "Read a transform", request: { params: idParamsSchema }, responses: { 200: json(transformSchema, "The transform.") } }),
    async (c) => {
      const transform = await findTransform(c.var.services.db, c.var.user.id, c.req.valid("param").id);
      if (!transform) throw new ApiError(404, TRANSFORM_MESSAGES.notFound);
      return c.json(presentTransform(transform), 200);
    },
  );
  app.openapi(
    apiRoute({
      method: "post",
      path: "/transforms",
      operationId: "createTransform",
      tags,
      summary: "Create a transform from a template",
      description: "Its first run is queued at once. Its template, connector and inputs are changed by creating a new one (spec: legacy editing is deprecated); PATCH renames it.",
      request: { headers: idempotencyHeaders, body: jsonRequest(transformCreateSchema) },
      responses: { 201: json(transformSchema, "The transform, created.") },
    }),
    async (c) => {
      const { row } = await createTransformFor(c, await jsonBody(c));
      return c.json(presentTransform((await findTransform(c.var.services.db, c.var.user.id, row.id))!), 201);
    },
  );
  app.openapi(
    apiRoute({
      method: "patch",
      path: "/transforms/{id}",
      operationId: "updateTransform",
      tags,
      summary: "Rename a transform",
      description: "Its name and description. Its template, connector and inputs are changed by creating a new transform; its schedule at /transforms/{id}/schedule.",
      request: { params: idParamsSchema, body: jsonRequest(updateTransformBodySchema) },
      responses: { 200: json(transformSchema, "The transform, updated.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const outcome = await renameTransform(c.var.services.db, c.var.user.id, id, c.req.valid("json"));
      if (outcome === "missing") throw new ApiError(404, TRANSFORM_MESSAGES.notFound);
      if (outcome === "taken") throw new ApiError(409, TRANSFORM_MESSAGES.nameTaken);
      return c.json(presentTransform((await findTransform(c.var.services.db, c.var.user.id, id))!), 200);
    },
  );
  app.openapi(
    apiRoute({ method: "delete", path: "/transforms/{id}", operationId: "deleteTransform", tags, summary: "Delete a transform (its run is stopped first)", request: { params: idParamsSchema }, responses: { 200: deleted } }),
    async (c) => {
      const { id } = c.req.valid("param");
      await deleteTransformFor(c, id);
      return c.json({ id, deleted: true as const }, 200);
    },
  );
  app.openapi(
    apiRoute({ method: "post", path: "/transforms/{id}/run", operationId: "triggerTransformRun", tags, summary: "Run now", request: { params: idParamsSchema, headers: idempotencyHeaders }, responses: { 202: json(z.object({ run: transformRunSchema }), "The run, queued.") } }),
    async (c) => c.json({ run: presentTransformRun(await runTransformFor(c, c.req.valid("param").id)) }, 202),
  );
  addRunRoutes(app, "transforms", tags, {
    owned: ownedTransform,
    list: listTransformRuns,
    details: findTransformRunDetails,
    present: TRANSFORM_RUN_VIEWS,
    runSchema: transformRunSchema,
    detailsSchema: transformRunDetailsSchema,
    cancel: (c, id) => cancelFor(c, TRANSFORM_RUNS, id, "run"),
  });
  addScheduleRoutes(app, "transforms", tags, { find: findTransform, schedule: (transform) => transformSchedule(transform), set: setTransformSchedule, notFound: TRANSFORM_MESSAGES.notFound });
}

/** The record a generated route is about, in its operationId (`listConnectorRuns`, `setTransformSchedule`, …). */
const noun = { connectors: "Connector", transforms: "Transform" } as const;

interface RunTarget<T extends { id: string; name: string }, Run, Details> {
  owned(c: Vars, id: string): Promise<T>;
  list(db: Database, id: string, limit: number, before?: string): Promise<Run[]>;
  details(db: Database, ownerId: string, record: T, runId: string): Promise<Details | null>;
  present: RunViews<T, Run, Details>;
  runSchema: z.ZodTypeAny;
  detailsSchema: z.ZodTypeAny;
  cancel(c: Vars, id: string): Promise<{ body: z.infer<typeof cancelResponseSchema>; status: 200 | 202 }>;
}

/** Cancel, the run history (cursor paged), one run with its attempts and log, and the log as text. */
function addRunRoutes<T extends { id: string; name: string }, Run, Details extends { createdAt: Date; log: RunLogRecord[] }>(
  app: App,
  base: "connectors" | "transforms",
  tags: string[],
  target: RunTarget<T, Run, Details>,
) {
  app.openapi(
    apiRoute({ method: "post", path: `/${base}/{id}/cancel`, operationId: `cancel${noun[base]}Run`, tags, summary: "Cancel the queued or running run (200: over, 202: stopping)", request: { params: idParamsSchema, headers: idempotencyHeaders }, responses: { 200: json(cancelResponseSchema, "Cancelled, or nothing was open."), 202: json(cancelResponseSchema, "The running run is stopping.") } }),
    async (c) => {
      const record = await target.owned(c, c.req.valid("param").id);
      const { body, status } = await target.cancel(c, record.id);
      return c.json(body, status);
    },
  );
  app.openapi(
    apiRoute({ method: "get", path: `/${base}/{id}/runs`, operationId: `list${noun[base]}Runs`, tags, summary: "List runs, newest first", request: { params: idParamsSchema, query: cursorQuerySchema }, responses: { 200: json(pageSchema(target.runSchema), "A page of runs.") } }),
    async (c) => {
      const record = await target.owned(c, c.req.valid("param").id);
      const read = async (limit: number, before?: string) => (await target.list(c.var.services.db, record.id, limit, before)).map((run) => target.present.run(run));
      return c.json(await runsPage(read, c.req.valid("query")), 200);
    },
  );
  const ownedRun = async (c: Vars, id: string, runId: string) => {
    const record = await target.owned(c, id);
    const run = await target.details(c.var.services.db, c.var.user.id, record, runId);
    if (!run) throw new ApiError(404, RUN_MESSAGES.notFound);
    const days = c.var.services.config.RUN_LOG_DAYS;
    return target.present.details(record, run, logWasPruned(run, days) ? days : null);
  };
  app.openapi(
    apiRoute({ method: "get", path: `/${base}/{id}/runs/{runId}`, operationId: `get${noun[base]}Run`, tags, summary: "Read a run with its attempts and log", request: { params: runParamsSchema }, responses: { 200: json(target.detailsSchema, "The run.") } }),
    async (c) => {
      const { id, runId } = c.req.valid("param");
      return c.json((await ownedRun(c, id, runId)) as object, 200);
    },
  );
  app.openapi(
    apiRoute({ method: "get", path: `/${base}/{id}/runs/{runId}/log`, operationId: `get${noun[base]}RunLog`, tags, summary: "Read a run's log as text", request: { params: runParamsSchema }, responses: { 200: { content: { "text/plain": { schema: z.string() } }, description: "One line per entry: time, level, message." } } }),
    async (c) => {
      const { id, runId } = c.req.valid("param");
      const run = await ownedRun(c, id, runId);
      return c.text(runLogText(run.log), 200);
    },
  );
}

interface ScheduleTarget<T> {
  find(db: Database, ownerId: string, id: string): Promise<T | null>;
  /** The record's schedule and next run, as the API answers them. */
  schedule(record: T): { schedule?: Schedule | null; next_run_at?: string | null };
  set(db: Database, ownerId: string, id: string, schedule: Schedule | null): Promise<boolean>;
  notFound: string;
}

/** GET and PUT /{base}/{id}/schedule: a schedule, or `{ kind: "frequency" }` back to the Daily/Hourly slot. */
function addScheduleRoutes<T>(app: App, base: "connectors" | "transforms", tags: string[], target: ScheduleTarget<T>) {
  const read = async (c: Context<ApiEnv>, id: string): Promise<ApiSchedule> => {
    const record = await target.find(c.var.services.db, c.var.user.id, id);
    if (!record) throw new ApiError(404, target.notFound);
    const shown = target.schedule(record);
    return { schedule: shown.schedule ?? null, next_run_at: shown.next_run_at ?? null };
  };
  app.openapi(
    apiRoute({ method: "get", path: `/${base}/{id}/schedule`, operationId: `get${noun[base]}Schedule`, tags, summary: "Read the schedule", request: { params: idParamsSchema }, responses: { 200: json(apiScheduleSchema, "The schedule and the next run.") } }),
    async (c) => c.json(await read(c, c.req.valid("param").id), 200),
  );
  app.openapi(
    apiRoute({ method: "put", path: `/${base}/{id}/schedule`, operationId: `set${noun[base]}Schedule`, tags, summary: "Set the schedule", request: { params: idParamsSchema, body: jsonRequest(scheduleBodySchema) }, responses: { 200: json(apiScheduleSchema, "The schedule saved, and the next run.") } }),
    async (c) => {
      const { id } = c.req.valid("param");
      await read(c, id);
      const schedule = scheduleOf(parse(scheduleBodySchema, await jsonBody(c)));
      if (!(await target.set(c.var.services.db, c.var.user.id, id, schedule))) throw new ApiError(404, target.notFound);
      return c.json(await read(c, id), 200);
    },
  );
}
