import { Hono, type Context } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { jsonBody } from "../lib/requests.js";
import { listHandler } from "./list-route.js";
import { listConnectors } from "../db/lists.js";
import { connectorFailing, findSyncRunDetails, listRuns } from "../db/connectors.js";
import { addScheduleRoutes } from "./schedules.js";
import { addRunRoutes } from "./run-routes.js";
import { CONNECTOR_MESSAGES as M, LOOKBACK_OPTIONS } from "../../contract/connectors.js";
import { BACKFILL_MESSAGES } from "../../contract/run-operations.js";
import { connectorStreams, resyncStream, setStreamEnabled } from "../services/streams.js";
import { backfillConnector, cancelSync, compatibleDestinations, compatiblePlatforms, connectorSchedules, createConnector, deleteConnector, getConnector, pauseConnector, syncConnector, updateConnector } from "../services/connectors.js";
import { presentDestination } from "../present/destinations.js";
import { presentConnector, presentSyncRun, SYNC_RUN_VIEWS } from "../present/connectors.js";
import { presentCancel } from "../present/runs.js";

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
  const platforms = await compatiblePlatforms(c.var.services, c.var.actor, c.req.param("integration_id"), c.req.query("source_id") || undefined);
  return c.json({ status: "success", platforms, message: platforms.length ? "Compatible platforms found" : M.noPlatforms });
});

/**
 * GET /integrations/source/{source_id}/platform/{platform}/destinations: the
 * caller's destinations that can take this source's data. Every destination
 * type holds both files and rows, so all of them are compatible.
 */
connectorsRoutes.get("/integrations/source/:source_id/platform/:platform/destinations", async (c) => {
  const found = await compatibleDestinations(c.var.services, c.var.actor, c.req.param("source_id"), c.req.param("platform"));
  const destinations = found.map((d) => presentDestination(d));
  return c.json({ status: "success", destinations, message: destinations.length ? "Compatible destinations found" : M.noDestinations });
});

connectorsRoutes.get("/connectors/lookback-options", (c) => c.json({ status: "success", lookback_options: LOOKBACK_OPTIONS, message: "Lookback options" }));

connectorsRoutes.get("/connectors/list", listHandler("connectors", listConnectors, presentConnector));

connectorsRoutes.get("/connectors/list-by-id/:id", async (c) => {
  const connector = await getConnector(c.var.services, c.var.actor, c.req.param("id"));
  return c.json({ ...presentConnector(connector), streams: await connectorStreams(c.var.services, c.var.actor, connector) });
});

/** POST /connectors/create: spec §5 "Connector create", message for message (createConnector, backend/services/connectors.ts). */
connectorsRoutes.post("/connectors/create", async (c) => c.json({ ...presentConnector(await createConnector(c.var.services, c.var.actor, await jsonBody(c))), message: "Connector created" }, 201));

/** PUT /connectors/update/{id}: the connector's fields and every destination it keeps (at least one, as on create). */
connectorsRoutes.put("/connectors/update/:id", async (c) => {
  const connector = await updateConnector(c.var.services, c.var.actor, c.req.param("id"), await jsonBody(c));
  return c.json({ ...presentConnector(connector), message: "Connector updated" });
});

connectorsRoutes.delete("/connectors/delete/:id", async (c) => {
  await deleteConnector(c.var.services, c.var.actor, c.req.param("id"));
  return c.json({ message: "Connector deleted" });
});

/* ---- Sync now, pause/resume, run history ---------------------------------------------------------------- */

const owned = (c: Context<ApiEnv>) => getConnector(c.var.services, c.var.actor, c.req.param("id")!);

connectorsRoutes.post("/connectors/:id/sync", async (c) => c.json({ status: "success", run: presentSyncRun(await syncConnector(c.var.services, c.var.actor, c.req.param("id"))), message: "Sync queued" }, 202));

/** Cancel the connector's queued or running sync: 200 when it is over (or nothing was open), 202 while it stops. */
connectorsRoutes.post("/connectors/:id/cancel", async (c) => {
  const { body, stopping } = presentCancel(await cancelSync(c.var.services, c.var.actor, c.req.param("id")), "sync");
  return c.json(body, stopping ? 202 : 200);
});

/** A one-off sync of a date range (contract/run-operations.ts): 409 while a run is queued or running. */
connectorsRoutes.post("/connectors/:id/backfill", async (c) => {
  const run = await backfillConnector(c.var.services, c.var.actor, c.req.param("id"), await jsonBody(c));
  return c.json({ status: "success", run: presentSyncRun(run), message: BACKFILL_MESSAGES.queued }, 202);
});

connectorsRoutes.post("/connectors/:id/pause", async (c) => {
  await pauseConnector(c.var.services, c.var.actor, c.req.param("id"), true);
  return c.json({ status: "success", paused: true, message: "Connector paused" });
});

connectorsRoutes.post("/connectors/:id/resume", async (c) => {
  await pauseConnector(c.var.services, c.var.actor, c.req.param("id"), false);
  return c.json({ status: "success", paused: false, message: "Connector resumed" });
});

addRunRoutes(connectorsRoutes, "connectors", {
  kind: "sync",
  owned,
  list: listRuns,
  failing: connectorFailing,
  details: findSyncRunDetails,
  present: SYNC_RUN_VIEWS,
});

/** POST /connectors/{id}/streams { stream, enabled } (issue 37, the Schema section): stops syncing a stream, or syncs it again. */
connectorsRoutes.post("/connectors/:id/streams", async (c) => {
  const { enabled, run, message } = await setStreamEnabled(c.var.services, c.var.actor, c.req.param("id"), await jsonBody(c));
  return c.json({ status: "success", enabled, run: run && presentSyncRun(run), message });
});

/** POST /connectors/{id}/streams/resync { stream } (issue 52): the next sync reads the stream's whole window again. */
connectorsRoutes.post("/connectors/:id/streams/resync", async (c) => {
  const { run, message } = await resyncStream(c.var.services, c.var.actor, c.req.param("id"), await jsonBody(c));
  return c.json({ status: "success", run: run && presentSyncRun(run), message });
});

addScheduleRoutes(connectorsRoutes, "connectors", connectorSchedules, presentConnector);
