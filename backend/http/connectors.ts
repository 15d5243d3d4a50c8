import { Hono } from "hono";
import { ApiError, jsonBody, parse, requireSession, type ApiEnv } from "./context.js";
import { listHandler } from "./list-route.js";
import { listConnectors } from "../db/lists.js";
import { listAllDestinations } from "../db/destinations.js";
import {
  connectorFailing,
  deleteConnector,
  findConnector,
  findSyncRunDetails,
  insertConnector,
  listRuns,
  ownedDestinations,
  ownedSource,
  setConnectorSchedule,
  setPaused,
  transformsUsing,
  updateConnectorRow,
  type ConnectorRecord,
} from "../db/connectors.js";
import { addScheduleRoutes } from "./schedules.js";
import { addRunRoutes } from "./run-routes.js";
import {
  CONNECTOR_MESSAGES as M,
  createConnectorBodySchema,
  LOOKBACK_OPTIONS,
  platformsFor,
  updateConnectorBodySchema,
  type UpdateConnectorBody,
} from "../../contract/connectors.js";
import { isSourceIntegration } from "../../contract/sources.js";
import { backfillBodySchema, BACKFILL_MESSAGES } from "../../contract/run-operations.js";
import { answerCancel, stopBeforeDelete } from "./cancel.js";
import { addStreamRoutes, connectorStreams } from "./connector-streams.js";
import { enqueueSyncRun, SYNC_RUNS } from "../sync/index.js";
import { presentDestination } from "./present/destinations.js";
import { presentConnector, presentSyncRun, SYNC_RUN_VIEWS } from "./present/connectors.js";

export const connectorsRoutes = new Hono<ApiEnv>();
connectorsRoutes.use("/connectors/*", requireSession);
connectorsRoutes.use("/integrations/:integration_id/compatible-platforms", requireSession);
connectorsRoutes.use("/integrations/source/*", requireSession);

/**
 * GET /integrations/{integration_id}/compatible-platforms[?source_id=]: the
 * platforms of an integration; with a source id, those of that very source
 * (a data generator produces only its own style).
 */
connectorsRoutes.get("/integrations/:integration_id/compatible-platforms", async (c) => {
  const integration = c.req.param("integration_id");
  if (!isSourceIntegration(integration)) throw new ApiError(404, `Unknown source integration: ${integration}`);
  const sourceId = c.req.query("source_id");
  let platforms = platformsFor(integration);
  if (sourceId) {
    const source = await ownedSource(c.var.services.db, c.var.user.id, sourceId);
    if (!source || source.integrationName !== integration) throw new ApiError(404, "Source not found");
    platforms = platformsFor(integration, source.metadata);
  }
  return c.json({ status: "success", platforms, message: platforms.length ? "Compatible platforms found" : M.noPlatforms });
});

/**
 * GET /integrations/source/{source_id}/platform/{platform}/destinations: the
 * caller's destinations that can take this source's data. Every destination
 * type holds both files and rows, so all of them are compatible.
 */
connectorsRoutes.get("/integrations/source/:source_id/platform/:platform/destinations", async (c) => {
  const { db } = c.var.services;
  const source = await ownedSource(db, c.var.user.id, c.req.param("source_id"));
  if (!source) throw new ApiError(404, "Source not found");
  const platform = c.req.param("platform").toLowerCase();
  const platforms = platformsFor(source.integrationName, source.metadata);
  if (!platforms.includes(platform)) throw new ApiError(400, M.platformInvalid);
  const destinations = (await listAllDestinations(db, c.var.user.id)).map((d) => presentDestination(d));
  return c.json({ status: "success", destinations, message: destinations.length ? "Compatible destinations found" : M.noDestinations });
});

connectorsRoutes.get("/connectors/lookback-options", (c) => c.json({ status: "success", lookback_options: LOOKBACK_OPTIONS, message: "Lookback options" }));

connectorsRoutes.get("/connectors/list", listHandler("connectors", listConnectors, presentConnector));

connectorsRoutes.get("/connectors/list-by-id/:id", async (c) => {
  const connector = await findConnector(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (!connector) throw new ApiError(404, M.notFound);
  return c.json({ ...presentConnector(connector), streams: await connectorStreams(c.var.services.db, c.var.user.id, connector) });
});

/** The source (the caller's), its platform, and the destinations (the caller's, deduplicated) of a create or update. */
async function checkLinks(c: { var: ApiEnv["Variables"] }, sourceId: string, platform: string | undefined, destinationIds: string[]) {
  const { db } = c.var.services;
  const source = await ownedSource(db, c.var.user.id, sourceId);
  if (!source) throw new ApiError(400, M.sourceNotFound);
  const platforms = platformsFor(source.integrationName, source.metadata);
  let chosen: string | null = null;
  if (platforms.length) {
    if (platform === undefined) chosen = platforms[0]!;
    else if (!platform) throw new ApiError(400, M.platformRequired);
    else if (!platforms.includes(platform)) throw new ApiError(400, M.platformInvalid);
    else chosen = platform;
  }
  const ids = [...new Set(destinationIds)];
  const found = await ownedDestinations(db, c.var.user.id, ids);
  if (found.length !== ids.length) throw new ApiError(400, M.destinationNotFound);
  return { source, platform: chosen, destinations: found };
}

/** POST /connectors/create: spec §5 "Connector create", message for message. */
connectorsRoutes.post("/connectors/create", async (c) => c.json({ ...presentConnector(await createConnectorFor(c, await jsonBody(c))), message: "Connector created" }, 201));

/** The rules of POST /connectors/create (and of the public API's POST /api/v1/connectors): the caller's connector, made. */
export async function createConnectorFor(c: { var: ApiEnv["Variables"] }, raw: unknown): Promise<ConnectorRecord> {
  const body = parse(createConnectorBodySchema, raw);
  const platformGiven = typeof raw === "object" && raw !== null && "platform" in raw ? body.platform : undefined;
  const { source, platform, destinations } = await checkLinks(c, body.source_id, platformGiven, body.destination_ids);
  if (destinations.length === 0) {
    const available = await listAllDestinations(c.var.services.db, c.var.user.id);
    throw new ApiError(400, available.length ? M.destinationsRequired : M.noDestinationsForPlatform);
  }
  const missing = source.requiredIntegrationCategories.filter((category) => !destinations.some((d) => d.category.toUpperCase() === category.toUpperCase()));
  if (missing.length) throw new ApiError(400, M.missingCategories(missing));
  const id = await insertConnector(
    c.var.services.db,
    c.var.user.id,
    { name: body.name, description: body.description, sourceId: source.id, platform, frequency: body.frequency, lookbackDays: body.lookback_days },
    destinations.map((d) => d.id),
  );
  // The first sync, at once (issue 35 item 3), unless the connector is manual only or the caller asks not to
  // (`first_sync: false`, for a client that syncs on its own).
  const created = (await findConnector(c.var.services.db, c.var.user.id, id))!;
  if (body.first_sync !== false && created.schedule?.kind !== "manual") await enqueueSyncRun(c.var.services.db, c.var.services.queue, { id, ownerId: c.var.user.id }, "create");
  return (await findConnector(c.var.services.db, c.var.user.id, id))!;
}

/** PUT /connectors/update/{id}: the connector's fields and every destination it keeps (at least one, as on create). */
connectorsRoutes.put("/connectors/update/:id", async (c) => {
  const body = parse(updateConnectorBodySchema, await jsonBody(c));
  const existing = await findConnector(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (!existing) throw new ApiError(404, M.notFound);
  return c.json({ ...presentConnector(await updateConnectorFor(c, existing, body)), message: "Connector updated" });
});

/** The rules of PUT /connectors/update/{id} (and the public API's PATCH), once the caller's connector is found. */
export async function updateConnectorFor(c: { var: ApiEnv["Variables"] }, existing: ConnectorRecord, body: UpdateConnectorBody): Promise<ConnectorRecord> {
  const { db } = c.var.services;
  const sameSource = existing.sourceId === body.source_id;
  const { source, platform, destinations } = await checkLinks(c, body.source_id, sameSource ? (existing.platform ?? undefined) : undefined, body.destination_ids);
  const missing = source.requiredIntegrationCategories.filter((category) => !destinations.some((d) => d.category.toUpperCase() === category.toUpperCase()));
  if (missing.length) throw new ApiError(400, M.missingCategories(missing));
  await updateConnectorRow(
    db,
    c.var.user.id,
    existing.id,
    { name: body.name, description: body.description, sourceId: source.id, platform, frequency: body.frequency, lookbackDays: body.lookback_days ?? existing.lookbackDays },
    destinations.map((d) => d.id),
  );
  return (await findConnector(db, c.var.user.id, existing.id))!;
}

connectorsRoutes.delete("/connectors/delete/:id", async (c) => {
  await deleteConnectorFor(c, c.req.param("id"));
  return c.json({ message: "Connector deleted" });
});

/** The rules of DELETE /connectors/delete/{id} (and the public API's): its sync stopped first, 409 while transforms use it. */
export async function deleteConnectorFor(c: { var: ApiEnv["Variables"] }, id: string): Promise<void> {
  // Its sync is stopped first (nothing lands after the delete), unless the delete is refused anyway.
  const connector = await findConnector(c.var.services.db, c.var.user.id, id);
  if (connector && (await transformsUsing(c.var.services.db, connector.id)).length === 0) await stopBeforeDelete(c, SYNC_RUNS, connector.id, "sync");
  const result = await deleteConnector(c.var.services.db, c.var.user.id, id);
  if (result.deleted) return;
  if (result.reason === "not_found") throw new ApiError(404, M.notFound);
  const names = result.transforms.map((x) => `"${x.name}"`).join(", ");
  const noun = result.transforms.length === 1 ? "transform uses" : "transforms use";
  throw new ApiError(409, `This connector cannot be deleted because ${result.transforms.length} ${noun} it: ${names}. Delete those transforms first.`);
}

/* ---- Sync now, pause/resume, run history ---------------------------------------------------------------- */

export async function owned(c: { var: ApiEnv["Variables"] }, id: string) {
  const connector = await findConnector(c.var.services.db, c.var.user.id, id);
  if (!connector) throw new ApiError(404, M.notFound);
  return connector;
}

connectorsRoutes.post("/connectors/:id/sync", async (c) => c.json({ status: "success", run: presentSyncRun(await syncFor(c, c.req.param("id"))), message: "Sync queued" }, 202));

/** Sync now (the app's and the public API's): the caller's connector, 409 while a sync is queued or running. */
export async function syncFor(c: { var: ApiEnv["Variables"] }, id: string) {
  const connector = await owned(c, id);
  const run = await enqueueSyncRun(c.var.services.db, c.var.services.queue, { id: connector.id, ownerId: c.var.user.id }, "manual");
  if (!run) throw new ApiError(409, "A sync of this connector is already queued or running.");
  return run;
}

/** Cancel the connector's queued or running sync: 200 when it is over (or nothing was open), 202 while it stops. */
connectorsRoutes.post("/connectors/:id/cancel", async (c) => {
  const connector = await owned(c, c.req.param("id"));
  return answerCancel(c, SYNC_RUNS, connector.id, "sync");
});

/** A one-off sync of a date range (contract/run-operations.ts): 409 while a run is queued or running. */
connectorsRoutes.post("/connectors/:id/backfill", async (c) => {
  const connector = await owned(c, c.req.param("id"));
  return c.json({ status: "success", run: presentSyncRun(await backfillFor(c, connector, await jsonBody(c))), message: BACKFILL_MESSAGES.queued }, 202);
});

/** A backfill of the caller's connector (the app's and the public API's): the range checked, 409 while a run is open. */
export async function backfillFor(c: { var: ApiEnv["Variables"] }, connector: { id: string }, raw: unknown) {
  const range = parse(backfillBodySchema(), raw);
  const run = await enqueueSyncRun(c.var.services.db, c.var.services.queue, { id: connector.id, ownerId: c.var.user.id }, "backfill", range);
  if (!run) throw new ApiError(409, BACKFILL_MESSAGES.open);
  return run;
}

connectorsRoutes.post("/connectors/:id/pause", async (c) => {
  const connector = await owned(c, c.req.param("id"));
  await setPaused(c.var.services.db, c.var.user.id, connector.id, true);
  return c.json({ status: "success", paused: true, message: "Connector paused" });
});

connectorsRoutes.post("/connectors/:id/resume", async (c) => {
  const connector = await owned(c, c.req.param("id"));
  await setPaused(c.var.services.db, c.var.user.id, connector.id, false);
  return c.json({ status: "success", paused: false, message: "Connector resumed" });
});

addRunRoutes(connectorsRoutes, "connectors", {
  kind: "sync",
  owned: (c) => owned(c, c.req.param("id")!),
  list: listRuns,
  failing: connectorFailing,
  details: findSyncRunDetails,
  present: SYNC_RUN_VIEWS,
});

addStreamRoutes(connectorsRoutes, (c) => owned(c, c.req.param("id")!));

addScheduleRoutes(connectorsRoutes, "connectors", { notFound: M.notFound, find: findConnector, set: setConnectorSchedule, present: presentConnector });
