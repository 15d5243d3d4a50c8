import { connectorDestinationRows, connectorStreamState, setStreamSkipped, type ConnectorRecord } from "../db/connectors.js";
import { pluginOf } from "../integrations/destinations/index.js";
import { platformOf } from "../integrations/sources/index.js";
import { sourceStreams } from "../../contract/integrations/sources.js";
import { enqueueSyncRun } from "../sync/index.js";
import { dropStreamState, streamStates } from "../sync/state.js";
import { CONNECTOR_MESSAGES as M, connectorStreamBodySchema, connectorStreamResyncBodySchema, STREAM_MESSAGES, type ConnectorStream } from "../../contract/connectors.js";
import type { StreamManifest } from "../../contract/integrations/streams.js";
import type { SyncRunRow } from "../db/runs.js";
import { runAsker, type Actor } from "./actor.js";
import type { Services } from "./deps.js";
import { invalid, notFound, parse } from "./errors.js";
import { getConnector } from "./connectors.js";
import { recordActivity } from "./activity.js";

/**
 * Issue 37, the Schema section: a connector's streams as its source's manifest declares them, where each lands at each
 * destination, and the switch that stops or resumes syncing one (POST /connectors/{id}/streams).
 */

/** The streams of the actor's connector's source, with where each lands; [] when its source's plug-in is unknown here. */
export async function connectorStreams(deps: Services, actor: Actor, connector: ConnectorRecord): Promise<ConnectorStream[]> {
  const { db } = deps;
  const state = await connectorStreamState(db, actor.ownerId, connector.id);
  const streams = state ? sourceStreams(state.source.integrationName) : [];
  if (!state || streams.length === 0) return [];
  const { source, skipped } = state;
  const platform = platformOf(source, connector.platform);
  const [destinations, states] = await Promise.all([connectorDestinationRows(db, connector.id).then((rows) => rows.sort((a, b) => a.name.localeCompare(b.name))), streamStates(db, connector.id)]);
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
    synced_to: states.find((state) => state.stream === s.name)?.syncedTo.toISOString() ?? null,
  }));
}

/**
 * A stream of the actor's connector stopped, or synced again ({ stream, enabled }). A stream turned back on gets its
 * lookback window at once: every sync reads the whole window, and one is queued unless the connector is paused or a
 * run is already open (the next one reads it then). The sentence says which.
 */
export async function setStreamEnabled(deps: Services, actor: Actor, id: string, raw: unknown): Promise<{ enabled: boolean; run: SyncRunRow | null; message: string }> {
  const connector = await getConnector(deps, actor, id);
  const body = parse(connectorStreamBodySchema, raw);
  const { db, queue } = deps;
  const state = await connectorStreamState(db, actor.ownerId, connector.id);
  if (!state) throw notFound(M.notFound);
  const streams = sourceStreams(state.source.integrationName);
  const stream = streams.find((s) => s.name === body.stream);
  if (!stream) throw invalid(STREAM_MESSAGES.unknown);
  const wasOn = !state.skipped.includes(stream.name);
  const skipped = await setStreamSkipped(db, actor.ownerId, connector.id, stream.name, !body.enabled, streams.map((s) => s.name));
  if (skipped === null) throw notFound(M.notFound);
  if (skipped === "last") throw invalid(STREAM_MESSAGES.lastOne);
  // Back on: what landed while it was off never reached its table, so its state goes and the next sync reads its window.
  if (body.enabled && !wasOn) await dropStreamState(db, connector.id, stream.name);
  const target = { type: "connector" as const, id: connector.id, name: connector.name };
  if (!body.enabled) {
    if (wasOn) await recordActivity(deps, actor, "stream_turned_off", target);
    return { enabled: false, run: null, message: STREAM_MESSAGES.off(stream.label) };
  }
  const run = !wasOn && !connector.paused ? await enqueueSyncRun(db, queue, { id: connector.id, ownerId: actor.ownerId }, "manual", undefined, runAsker(actor)) : null;
  if (!wasOn) await recordActivity(deps, actor, "stream_turned_on", target);
  return { enabled: true, run, message: run ? STREAM_MESSAGES.onQueued(stream.label) : STREAM_MESSAGES.onNext(stream.label) };
}

/**
 * Issue 52, Re-sync: the stream's state goes, so the next sync reads its whole lookback window again (and writes it
 * to every destination, replacing rows by key: nothing is doubled). A sync is queued at once unless the connector is
 * paused or a run is already open (the next one reads it then); the sentence says which. A stream that is not synced
 * cannot be re-synced: turning it back on does that.
 */
export async function resyncStream(deps: Services, actor: Actor, id: string, raw: unknown): Promise<{ run: SyncRunRow | null; message: string }> {
  const connector = await getConnector(deps, actor, id);
  const body = parse(connectorStreamResyncBodySchema, raw);
  const { db, queue } = deps;
  const state = await connectorStreamState(db, actor.ownerId, connector.id);
  if (!state) throw notFound(M.notFound);
  const stream = sourceStreams(state.source.integrationName).find((s) => s.name === body.stream);
  if (!stream) throw invalid(STREAM_MESSAGES.unknown);
  if (state.skipped.includes(stream.name)) throw invalid(STREAM_MESSAGES.resyncOff);
  await dropStreamState(db, connector.id, stream.name);
  await recordActivity(deps, actor, "stream_resynced", { type: "connector", id: connector.id, name: connector.name });
  const run = connector.paused ? null : await enqueueSyncRun(db, queue, { id: connector.id, ownerId: actor.ownerId }, "manual", undefined, runAsker(actor));
  return { run, message: run ? STREAM_MESSAGES.resyncQueued(stream.label) : STREAM_MESSAGES.resyncNext(stream.label) };
}
