import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectorDestinations, connectors, destinations, sources, syncRuns, transforms } from "./schema.js";
import type { Connector, ConnectorHealth, SyncRun } from "../../contract/connectors.js";
import { nextRunAt, readStored, toStored } from "../runs/schedule.js";
import type { Schedule } from "../../contract/schedules.js";
import { isUuid, iso } from "./values.js";
import { bookmarks, runFields, SYNC_RUN_TABLE, type Executor, type ScheduledKey } from "./runs.js";
import { readRunLog } from "./run-logs.js";
import type { RunFailure, SyncRunDetails } from "../../contract/runs.js";


type ConnectorRow = typeof connectors.$inferSelect;
type RunRow = typeof syncRuns.$inferSelect;

/** The connector's destinations (id, name), by name; correlated to the outer "connectors" row. */
export const linkedDestinations = sql<{ id: string; name: string }[]>`COALESCE((
    SELECT json_agg(json_build_object('id', d.id, 'name', d.name) ORDER BY d.name)
    FROM connector_destinations cd JOIN destinations d ON d.id = cd.destination_id
    WHERE cd.connector_id = "connectors"."id"), '[]'::json)`;

/** The newest run of the outer "connectors" row, or null. */
export const lastRun = sql<Connector["last_run"]>`(
    SELECT json_build_object('id', r.id, 'status', r.status, 'started_at', r.started_at, 'finished_at', r.finished_at, 'created_at', r.created_at, 'error', r.error, 'records', r.records)
    FROM sync_runs r WHERE r.connector_id = "connectors"."id" ORDER BY r.created_at DESC, r.id DESC LIMIT 1)`;

/**
 * The outer "connectors" row's health (contract/lists.ts CONNECTOR_HEALTH): paused, else its newest run's status
 * (succeeded reads healthy), else never_run. A cancelled run says nothing of health (the user stopped it): the newest
 * run that was not cancelled counts. In SQL so that the list can filter by it.
 */
export const connectorHealth = sql<ConnectorHealth>`CASE WHEN "connectors"."paused" THEN 'paused' ELSE COALESCE((
    SELECT CASE r.status WHEN 'succeeded' THEN 'healthy' ELSE r.status END
    FROM sync_runs r WHERE r.connector_id = "connectors"."id" AND r.status <> 'cancelled' ORDER BY r.created_at DESC, r.id DESC LIMIT 1), 'never_run') END`;

export function toConnector(
  c: ConnectorRow,
  sourceName: string | null,
  linked: { id: string; name: string }[],
  run: Connector["last_run"],
  health: ConnectorHealth,
  now = new Date(),
): Connector {
  const schedule = readStored(c.schedule)?.schedule ?? null;
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    source_id: c.sourceId,
    source_name: sourceName,
    destination_ids: linked.map((d) => d.id),
    destinations: linked,
    frequency: c.frequency,
    lookback_days: c.lookbackDays,
    last_synced_at: iso(c.lastSyncedAt),
    created_at: iso(c.createdAt)!,
    updated_at: iso(c.updatedAt),
    platform: c.platform,
    paused: c.paused,
    health,
    schedule,
    next_run_at: nextRunAt(c.id, c.frequency, schedule, c.paused, now),
    last_run: run
      ? { ...run, started_at: iso(run.started_at), finished_at: iso(run.finished_at), created_at: iso(run.created_at)! }
      : null,
  };
}

/** One of the owner's connectors, or null (another user's record is as absent as a missing one). */
export async function findConnector(db: Database, ownerId: string, id: string): Promise<Connector | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ c: connectors, sourceName: sources.name, linked: linkedDestinations, run: lastRun, health: connectorHealth })
    .from(connectors)
    .leftJoin(sources, eq(sources.id, connectors.sourceId))
    .where(and(eq(connectors.id, id), eq(connectors.ownerId, ownerId)));
  return row ? toConnector(row.c, row.sourceName, row.linked, row.run, row.health) : null;
}

/** The connector row itself (any owner): for the sync engine. */
export async function connectorRow(db: Database, id: string): Promise<ConnectorRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(connectors).where(eq(connectors.id, id));
  return row ?? null;
}

const CONNECTOR_BOOKMARKS = bookmarks(connectors, syncRuns, syncRuns.connectorId);

/**
 * The scheduler's due connectors (backend/runs/engine.ts enqueueDue): active, of a source the engine can read, and
 * whose bookmark has come; leased to this pass, up to `limit`, with their newest run.
 */
export function takeDueConnectors(db: Database, integrations: string[], options: { now: Date; lease: Date; limit: number }): Promise<ScheduledKey[]> {
  return CONNECTOR_BOOKMARKS.take(db, {
    ...options,
    join: sql`JOIN ${sources} ON ${sources.id} = ${connectors.sourceId}`,
    where: and(eq(connectors.paused, false), inArray(sources.integrationName, integrations))!,
  });
}

/** Sets the taken connectors' next bookmarks (null: never). */
export const placeConnectorBookmarks = CONNECTOR_BOOKMARKS.place;

/** Sets the owner's connector's schedule (null: back to its frequency's slot); false when it is not the owner's. */
export async function setConnectorSchedule(db: Database, ownerId: string, id: string, schedule: Schedule | null, at = new Date()): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(connectors)
    .set({ schedule: toStored(schedule, at), updatedAt: at })
    .where(and(eq(connectors.id, id), eq(connectors.ownerId, ownerId)))
    .returning({ id: connectors.id });
  return rows.length > 0;
}

/** The destinations a connector writes to (any owner: for the sync engine). */
export async function connectorDestinationRows(db: Database, connectorId: string) {
  const rows = await db
    .select({ d: destinations })
    .from(connectorDestinations)
    .innerJoin(destinations, eq(destinations.id, connectorDestinations.destinationId))
    .where(eq(connectorDestinations.connectorId, connectorId));
  return rows.map((r) => r.d);
}

/** A connector's source row (any owner: for the sync engine), or null. */
export async function connectorSourceRow(db: Database, sourceId: string) {
  const [row] = await db.select().from(sources).where(eq(sources.id, sourceId));
  return row ?? null;
}

export async function ownedDestinations(db: Database, ownerId: string, ids: string[]) {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  return db.select().from(destinations).where(and(inArray(destinations.id, valid), eq(destinations.ownerId, ownerId)));
}

export async function ownedSource(db: Database, ownerId: string, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(sources).where(and(eq(sources.id, id), eq(sources.ownerId, ownerId)));
  return row ?? null;
}

export interface ConnectorValues {
  name: string;
  description: string;
  sourceId: string;
  platform: string | null;
  frequency: string;
  lookbackDays: number;
}

export async function insertConnector(db: Database, ownerId: string, values: ConnectorValues, destinationIds: string[]): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(connectors).values({ ownerId, ...values }).returning({ id: connectors.id });
    await tx.insert(connectorDestinations).values(destinationIds.map((destinationId) => ({ connectorId: row!.id, destinationId })));
    return row!.id;
  });
}

/** Replaces the connector's fields and its destinations; false when it is not the owner's. */
export async function updateConnectorRow(db: Database, ownerId: string, id: string, values: Partial<ConnectorValues>, destinationIds: string[]): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(connectors)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(connectors.id, id), eq(connectors.ownerId, ownerId)))
      .returning({ id: connectors.id });
    if (!row) return false;
    await tx.delete(connectorDestinations).where(eq(connectorDestinations.connectorId, id));
    await tx.insert(connectorDestinations).values(destinationIds.map((destinationId) => ({ connectorId: id, destinationId })));
    return true;
  });
}

export async function setPaused(db: Database, ownerId: string, id: string, paused: boolean): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(connectors)
    .set({ paused, updatedAt: new Date() })
    .where(and(eq(connectors.id, id), eq(connectors.ownerId, ownerId)))
    .returning({ id: connectors.id });
  return rows.length > 0;
}

/** The owner's connector's skipped streams and its source row, in one read (the Schema section); null when not theirs. */
export async function connectorStreamState(db: Database, ownerId: string, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ skipped: connectors.skippedStreams, source: sources })
    .from(connectors)
    .innerJoin(sources, eq(sources.id, connectors.sourceId))
    .where(and(eq(connectors.id, id), eq(connectors.ownerId, ownerId)));
  return row ?? null;
}

/**
 * Turns one of the owner's connector's streams off (`skip`) or on. Turning off the last one of `all` (its source's
 * streams) changes nothing. Answers the streams now skipped; "last" when that was refused; null when not the owner's.
 */
export async function setStreamSkipped(db: Database, ownerId: string, id: string, stream: string, skip: boolean, all: string[]): Promise<string[] | "last" | null> {
  if (!isUuid(id)) return null;
  const next = skip ? sql`array_append(array_remove(${connectors.skippedStreams}, ${stream}::text), ${stream}::text)` : sql`array_remove(${connectors.skippedStreams}, ${stream}::text)`;
  const rows = await db
    .update(connectors)
    .set({ skippedStreams: next, updatedAt: new Date() })
    .where(and(eq(connectors.id, id), eq(connectors.ownerId, ownerId), sql`NOT (${next} @> ARRAY[${sql.join(all.map((name) => sql`${name}::text`), sql`, `)}]::text[])`))
    .returning({ skipped: connectors.skippedStreams });
  if (rows[0]) return rows[0].skipped;
  const [exists] = await db.select({ id: connectors.id }).from(connectors).where(and(eq(connectors.id, id), eq(connectors.ownerId, ownerId)));
  return exists ? "last" : null;
}

export type DeleteResult = { deleted: true } | { deleted: false; reason: "not_found" } | { deleted: false; reason: "in_use"; transforms: { id: string; name: string }[] };

/** The transforms that read a connector's data (a connector they use cannot be deleted). */
export function transformsUsing(db: Executor, id: string): Promise<{ id: string; name: string }[]> {
  return db.select({ id: transforms.id, name: transforms.name }).from(transforms).where(eq(transforms.connectorId, id)).orderBy(asc(transforms.name));
}

/** Deletes a connector unless transforms use it; check and delete in one transaction with the row locked. */
export async function deleteConnector(db: Database, ownerId: string, id: string): Promise<DeleteResult> {
  if (!isUuid(id)) return { deleted: false, reason: "not_found" };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: connectors.id })
      .from(connectors)
      .where(and(eq(connectors.id, id), eq(connectors.ownerId, ownerId)))
      .for("update");
    if (!row) return { deleted: false, reason: "not_found" } as const;
    const using = await transformsUsing(tx, id);
    if (using.length) return { deleted: false, reason: "in_use", transforms: using } as const;
    await tx.delete(connectors).where(eq(connectors.id, id));
    return { deleted: true } as const;
  });
}

// ---- sync runs ---------------------------------------------------------------------------------

export function toSyncRun(r: RunRow): SyncRun {
  return { ...runFields(r), connector_id: r.connectorId, bytes: r.bytes, range_from: iso(r.rangeFrom), range_to: iso(r.rangeTo) };
}

/** A sync run's backfill range [from, to), or null for a run of the lookback window (for the sync engine). */
export async function syncRunRange(db: Executor, runId: string): Promise<{ from: Date; to: Date } | null> {
  if (!isUuid(runId)) return null;
  const [row] = await db.select({ from: syncRuns.rangeFrom, to: syncRuns.rangeTo }).from(syncRuns).where(eq(syncRuns.id, runId));
  return row?.from && row.to ? { from: row.from, to: row.to } : null;
}

/** The connector's newest runs, newest first (with `before`, those older than that run). */
export async function listRuns(db: Database, connectorId: string, limit = 50, before?: string): Promise<SyncRun[]> {
  return (await SYNC_RUN_TABLE.list(db, connectorId, limit, before)).map(toSyncRun);
}

/** One run of the owner's connector with its attempts, where its data landed and its log; null when it is not theirs. */
export async function findSyncRunDetails(db: Database, ownerId: string, connector: { id: string; name: string }, runId: string): Promise<SyncRunDetails | null> {
  const run = await SYNC_RUN_TABLE.findOwned(db, runId, connector.id, ownerId);
  if (!run) return null;
  return { ...toSyncRun(run), connector_name: connector.name, attempts: run.attemptLog, landed: run.landed, log: await readRunLog(db, "sync", run.id), log_kept_days: null };
}

/** The connector's failures in a row since its last success, or null (its latest finished run did not fail). */
export const connectorFailing = (db: Database, connectorId: string): Promise<RunFailure | null> => SYNC_RUN_TABLE.failing(db, connectorId);

/** A sync's success: the connector was synced up to `at`. */
export async function markSynced(db: Executor, connectorId: string, at: Date): Promise<void> {
  await db.update(connectors).set({ lastSyncedAt: at }).where(eq(connectors.id, connectorId));
}
