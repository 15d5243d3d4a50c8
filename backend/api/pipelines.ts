import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { PublicApiEnv } from "./env.js";
import { jsonBody } from "../lib/requests.js";
import type { Database } from "../db/client.js";
import type { CancelResult } from "../db/runs.js";
import type { Services } from "../services/deps.js";
import type { Actor } from "../services/actor.js";
import { notFound } from "../services/errors.js";
import type { ScheduleUseCases } from "../services/schedules.js";
import { backfillConnector, cancelSync, connectorSchedules, createConnector, deleteConnector, getConnector, syncConnector, updateConnector } from "../services/connectors.js";
import { cancelTransformRun, createTransform, deleteTransform, getTransform, getTransformRow, renameTransform, runTransform, transformSchedules } from "../services/transforms.js";
import { findSyncRunDetails, listRuns } from "../db/connectors.js";
import { findTransformRunDetails, listTransformRuns } from "../db/transforms.js";
import { listConnectors, listTransforms } from "../db/lists.js";
import { logWasPruned } from "../db/history.js";
import { connectorSchema, createConnectorBodySchema, updateConnectorBodySchema } from "../../contract/connectors.js";
import { transformCreateSchema, transformSchema, updateTransformBodySchema } from "../../contract/transforms.js";
import { runTriggeredByFields } from "../../contract/activity.js";
import { apiSyncRunSchema, apiTransformRunSchema } from "./schemas.js";
import { RUN_MESSAGES, runLogText, syncRunDetailsSchema, transformRunDetailsSchema } from "../../contract/runs.js";
import { backfillRequestSchema, cancelResponseSchema } from "../../contract/run-operations.js";
import { scheduleBodySchema, type Schedule } from "../../contract/schedules.js";
import { apiScheduleSchema, cursorQuerySchema, idParamsSchema, pageSchema, runParamsSchema, type ApiSchedule } from "../../contract/api.js";
import type { RunLogRecord } from "../db/run-logs.js";
import { connectorSchedule, presentConnector, presentSyncRun, SYNC_RUN_VIEWS } from "../present/connectors.js";
import { presentCancel, type RunViews } from "../present/runs.js";
import { presentTransform, presentTransformRun, transformSchedule, TRANSFORM_RUN_VIEWS } from "../present/transforms.js";
import { apiRoute, idempotencyHeaders, json, jsonRequest } from "./spec.js";
import { listPage, runsPage } from "./paging.js";

type App = OpenAPIHono<PublicApiEnv>;
type Vars = { var: PublicApiEnv["Variables"] };
const deleted = json(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.");

export function addConnectorRoutes(app: App) {
  const tags = ["Connectors"];
  app.openapi(
    apiRoute({ method: "get", path: "/connectors", operationId: "listConnectors", tags, summary: "List connectors", request: { query: cursorQuerySchema }, responses: { 200: json(pageSchema(connectorSchema), "A page of connectors, newest first.") } }),
    async (c) => c.json(await listPage(c.var.services.db, c.var.actor.ownerId, "connectors", listConnectors, presentConnector, c.req.valid("query")), 200),
  );
  app.openapi(
    apiRoute({ method: "get", path: "/connectors/{id}", operationId: "getConnector", tags, summary: "Read a connector", request: { params: idParamsSchema }, responses: { 200: json(connectorSchema, "The connector.") } }),
    async (c) => c.json(presentConnector(await getConnector(c.var.services, c.var.actor, c.req.valid("param").id)), 200),
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
    async (c) => c.json(presentConnector(await createConnector(c.var.services, c.var.actor, await jsonBody(c))), 201),
  );
  app.openapi(
    apiRoute({ method: "patch", path: "/connectors/{id}", operationId: "updateConnector", tags, summary: "Update a connector", request: { params: idParamsSchema, body: jsonRequest(updateConnectorBodySchema) }, responses: { 200: json(connectorSchema, "The connector, updated.") } }),
    async (c) => c.json(presentConnector(await updateConnector(c.var.services, c.var.actor, c.req.valid("param").id, await jsonBody(c))), 200),
  );
  app.openapi(
    apiRoute({ method: "delete", path: "/connectors/{id}", operationId: "deleteConnector", tags, summary: "Delete a connector (its sync is stopped first; 409 while transforms use it)", request: { params: idParamsSchema }, responses: { 200: deleted } }),
    async (c) => {
      const { id } = c.req.valid("param");
      await deleteConnector(c.var.services, c.var.actor, id);
      return c.json({ id, deleted: true as const }, 200);
    },
  );
  app.openapi(
    apiRoute({ method: "post", path: "/connectors/{id}/sync", operationId: "triggerSync", tags, summary: "Sync now", request: { params: idParamsSchema, headers: idempotencyHeaders }, responses: { 202: json(z.object({ run: apiSyncRunSchema }), "The sync, queued.") } }),
    async (c) => c.json({ run: presentSyncRun(await syncConnector(c.var.services, c.var.actor, c.req.valid("param").id)) }, 202),
  );
  app.openapi(
    apiRoute({
      method: "post",
      path: "/connectors/{id}/backfill",
      operationId: "triggerBackfill",
      tags,
      summary: "Backfill a date range",
      request: { params: idParamsSchema, headers: idempotencyHeaders, body: jsonRequest(backfillRequestSchema) },
      responses: { 202: json(z.object({ run: apiSyncRunSchema }), "The backfill, queued.") },
    }),
    async (c) => c.json({ run: presentSyncRun(await backfillConnector(c.var.services, c.var.actor, c.req.valid("param").id, await jsonBody(c))) }, 202),
  );
  addRunRoutes(app, "connectors", tags, {
    owned: getConnector,
    list: listRuns,
    details: findSyncRunDetails,
    present: SYNC_RUN_VIEWS,
    runSchema: apiSyncRunSchema,
    detailsSchema: syncRunDetailsSchema.extend(runTriggeredByFields),
    cancel: cancelSync,
    noun: "sync",
  });
  addScheduleRoutes(app, "connectors", tags, { useCases: connectorSchedules, schedule: (connector) => connectorSchedule(connector) });
}

export function addTransformRoutes(app: App) {
  const tags = ["Transforms"];
  app.openapi(
    apiRoute({ method: "get", path: "/transforms", operationId: "listTransforms", tags, summary: "List transforms", request: { query: cursorQuerySchema }, responses: { 200: json(pageSchema(transformSchema), "A page of transforms, newest first.") } }),
    async (c) => c.json(await listPage(c.var.services.db, c.var.actor.ownerId, "transforms", listTransforms, presentTransform, c.req.valid("query")), 200),
  );
  app.openapi(
    apiRoute({ method: "get", path: "/transforms/{id}", operationId: "getTransform", tags, summary: "Read a transform", request: { params: idParamsSchema }, responses: { 200: json(transformSchema, "The transform.") } }),
    async (c) => c.json(presentTransform(await getTransform(c.var.services, c.var.actor, c.req.valid("param").id)), 200),
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
      const { row } = await createTransform(c.var.services, c.var.actor, await jsonBody(c));
      return c.json(presentTransform(await getTransform(c.var.services, c.var.actor, row.id)), 201);
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
    async (c) => c.json(presentTransform(await renameTransform(c.var.services, c.var.actor, c.req.valid("param").id, c.req.valid("json"))), 200),
  );
  app.openapi(
    apiRoute({ method: "delete", path: "/transforms/{id}", operationId: "deleteTransform", tags, summary: "Delete a transform (its run is stopped first)", request: { params: idParamsSchema }, responses: { 200: deleted } }),
    async (c) => {
      const { id } = c.req.valid("param");
      await deleteTransform(c.var.services, c.var.actor, id);
      return c.json({ id, deleted: true as const }, 200);
    },
  );
  app.openapi(
    apiRoute({ method: "post", path: "/transforms/{id}/run", operationId: "triggerTransformRun", tags, summary: "Run now", request: { params: idParamsSchema, headers: idempotencyHeaders }, responses: { 202: json(z.object({ run: apiTransformRunSchema }), "The run, queued.") } }),
    async (c) => c.json({ run: presentTransformRun(await runTransform(c.var.services, c.var.actor, c.req.valid("param").id)) }, 202),
  );
  addRunRoutes(app, "transforms", tags, {
    owned: getTransformRow,
    list: listTransformRuns,
    details: findTransformRunDetails,
    present: TRANSFORM_RUN_VIEWS,
    runSchema: apiTransformRunSchema,
    detailsSchema: transformRunDetailsSchema.extend(runTriggeredByFields),
    cancel: cancelTransformRun,
    noun: "run",
  });
  addScheduleRoutes(app, "transforms", tags, { useCases: transformSchedules, schedule: (transform) => transformSchedule(transform) });
}

/** The record a generated route is about, in its operationId (`listConnectorRuns`, `setTransformSchedule`, …). */
const noun = { connectors: "Connector", transforms: "Transform" } as const;

interface RunTarget<T extends { id: string; name: string }, Run, Details> {
  owned(deps: Services, actor: Actor, id: string): Promise<T>;
  list(db: Database, id: string, limit: number, before?: string): Promise<Run[]>;
  details(db: Database, ownerId: string, record: T, runId: string): Promise<Details | null>;
  present: RunViews<T, Run, Details>;
  runSchema: z.ZodTypeAny;
  detailsSchema: z.ZodTypeAny;
  cancel(deps: Services, actor: Actor, id: string): Promise<CancelResult>;
  noun: "sync" | "run";
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
      const { body, stopping } = presentCancel(await target.cancel(c.var.services, c.var.actor, c.req.valid("param").id), target.noun);
      return c.json(body, stopping ? 202 : 200);
    },
  );
  app.openapi(
    apiRoute({ method: "get", path: `/${base}/{id}/runs`, operationId: `list${noun[base]}Runs`, tags, summary: "List runs, newest first", request: { params: idParamsSchema, query: cursorQuerySchema }, responses: { 200: json(pageSchema(target.runSchema), "A page of runs.") } }),
    async (c) => {
      const record = await target.owned(c.var.services, c.var.actor, c.req.valid("param").id);
      const read = async (limit: number, before?: string) => (await target.list(c.var.services.db, record.id, limit, before)).map((run) => target.present.run(run));
      return c.json(await runsPage(read, c.req.valid("query")), 200);
    },
  );
  const ownedRun = async (c: Vars, id: string, runId: string) => {
    const record = await target.owned(c.var.services, c.var.actor, id);
    const run = await target.details(c.var.services.db, c.var.actor.ownerId, record, runId);
    if (!run) throw notFound(RUN_MESSAGES.notFound);
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

interface ScheduleTarget<T extends { id: string; frequency?: string }> {
  useCases: ScheduleUseCases<T>;
  /** The record's schedule and next run, as the API answers them. */
  schedule(record: T): { schedule?: Schedule | null; next_run_at?: string | null };
}

/** GET and PUT /{base}/{id}/schedule: a schedule, or `{ kind: "frequency" }` back to the Daily/Hourly slot. */
function addScheduleRoutes<T extends { id: string; frequency?: string }>(app: App, base: "connectors" | "transforms", tags: string[], target: ScheduleTarget<T>) {
  const shown = (record: T): ApiSchedule => {
    const { schedule, next_run_at } = target.schedule(record);
    return { schedule: schedule ?? null, next_run_at: next_run_at ?? null };
  };
  app.openapi(
    apiRoute({ method: "get", path: `/${base}/{id}/schedule`, operationId: `get${noun[base]}Schedule`, tags, summary: "Read the schedule", request: { params: idParamsSchema }, responses: { 200: json(apiScheduleSchema, "The schedule and the next run.") } }),
    async (c) => c.json(shown(await target.useCases.get(c.var.services, c.var.actor, c.req.valid("param").id)), 200),
  );
  app.openapi(
    apiRoute({ method: "put", path: `/${base}/{id}/schedule`, operationId: `set${noun[base]}Schedule`, tags, summary: "Set the schedule", request: { params: idParamsSchema, body: jsonRequest(scheduleBodySchema) }, responses: { 200: json(apiScheduleSchema, "The schedule saved, and the next run.") } }),
    async (c) => c.json(shown(await target.useCases.set(c.var.services, c.var.actor, c.req.valid("param").id, await jsonBody(c))), 200),
  );
}
