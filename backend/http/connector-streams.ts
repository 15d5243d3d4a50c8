import type { Context, Hono } from "hono";
import { ApiError, jsonBody, parse, type ApiEnv } from "./context.js";
import { connectorDestinationRows, connectorStreamState, setStreamSkipped, type ConnectorRecord } from "../db/connectors.js";
import { pluginOf } from "../integrations/destinations/index.js";
import { platformOf } from "../integrations/sources/index.js";
import { sourceStreams } from "../../contract/integrations/sources.js";
import { enqueueSyncRun } from "../sync/index.js";
import { CONNECTOR_MESSAGES as M, connectorStreamBodySchema, STREAM_MESSAGES, type ConnectorStream } from "../../contract/connectors.js";
import type { StreamManifest } from "../../contract/integrations/streams.js";
import type { Database } from "../db/client.js";
import { presentSyncRun } from "./present/connectors.js";

/**
 * Issue 37, the Schema section: a connector's streams as its source's manifest declares them, where each lands at each
 * destination, and the switch that stops or resumes syncing one (POST /connectors/{id}/streams).
 */

/** The streams of the owner's connector's source, with where each lands; [] when its source's plug-in is unknown here. */
export async function connectorStreams(db: Database, ownerId: string, connector: ConnectorRecord): Promise<ConnectorStream[]> {
  const state = await connectorStreamState(db, ownerId, connector.id);
  const streams = state ? sourceStreams(state.source.integrationName) : [];
  if (!state || streams.length === 0) return [];
  const { source, skipped } = state;
  const platform = platformOf(source, connector.platform);
  const destinations = (await connectorDestinationRows(db, connector.id)).sort((a, b) => a.name.localeCompare(b.name));
  const lands = (stream: StreamManifest) =>
    destinations.map((d) => {
      const landed = { folders: stream.files?.[platform]?.length ? [`${platform}/${source.id}/`] : [], tables: [stream.name] };
      return { destination: d.name, location: pluginOf(d).location?.(d, landed) ?? `table ${stream.name}` };
    });
  return streams.map((s) => ({
    name: s.name,
    label: s.label,
    primary_key: [...s.primaryKey],
    cursor_field: s.cursorField,
    columns: s.columns.map((c) => ({ ...c })),
    enabled: !skipped.includes(s.name),
    lands: lands(s),
  }));
}

/**
 * POST /connectors/{id}/streams { stream, enabled }: stops syncing a stream, or syncs it again. A stream turned back on
 * gets its lookback window at once: every sync reads the whole window, and one is queued unless the connector is
 * paused or a run is already open (the next one reads it then).
 */
export function addStreamRoutes(routes: Hono<ApiEnv>, owned: (c: Context<ApiEnv>) => Promise<ConnectorRecord>): void {
  routes.post("/connectors/:id/streams", async (c) => {
    const connector = await owned(c);
    const body = parse(connectorStreamBodySchema, await jsonBody(c));
    const { db, queue } = c.var.services;
    const state = await connectorStreamState(db, c.var.user.id, connector.id);
    if (!state) throw new ApiError(404, M.notFound);
    const streams = sourceStreams(state.source.integrationName);
    const stream = streams.find((s) => s.name === body.stream);
    if (!stream) throw new ApiError(400, STREAM_MESSAGES.unknown);
    const wasOn = !state.skipped.includes(stream.name);
    const skipped = await setStreamSkipped(db, c.var.user.id, connector.id, stream.name, !body.enabled, streams.map((s) => s.name));
    if (skipped === null) throw new ApiError(404, M.notFound);
    if (skipped === "last") throw new ApiError(400, STREAM_MESSAGES.lastOne);
    if (!body.enabled) return c.json({ status: "success", enabled: false, run: null, message: STREAM_MESSAGES.off(stream.label) });
    const run = !wasOn && !connector.paused ? await enqueueSyncRun(db, queue, { id: connector.id, ownerId: c.var.user.id }, "manual") : null;
    return c.json({ status: "success", enabled: true, run: run && presentSyncRun(run), message: run ? STREAM_MESSAGES.onQueued(stream.label) : STREAM_MESSAGES.onNext(stream.label) });
  });
}
