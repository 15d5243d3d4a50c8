import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectorDestinations, connectors, destinations, sources, syncRuns, transforms } from "./schema.js";
import { readStored, toStored } from "../runs/schedule.js";
import type { Schedule } from "../../contract/schedules.js";
import type { ConnectorHealth } from "../../contract/lists.js";
import { isUuid } from "./values.js";
import { bookmarks, readLatestRun, SYNC_RUN_TABLE, type Executor, type LatestRun, type LatestRunJson, type RunFailureRecord, type ScheduledKey, type SyncRunRow } from "./runs.js";
import { readRunLog, type RunLogRecord } from "./run-logs.js";
import { inWorkspace, workspaceRecord } from "./scope.js";

export type ConnectorRow = typeof connectors.$inferSelect;

/** A connector's newest run as its record carries it: its times and outcome, and the records it read. */
export interface LastSyncRun extends LatestRun {
  records: number;
}

/**
 * A connector as the backend knows it: its row (its schedule read back from the stored form: null is its frequency's
 * slot), its source's name, the destinations it writes to (id and name, by name), its newest run and its health. The
 * API's shape is made from it at the HTTP edge (backend/present/connectors.ts).
 */
export interface ConnectorRecord extends Omit<ConnectorRow, "schedule"> {
  schedule: Schedule | null;
  sourceName: string | null;
  destinations: { id: string; name: string }[];
  lastRun: LastSyncRun | null;
  health: ConnectorHealth;
}

/** The connector's destinations (id, name), by name; correlated to the outer "connectors" row. */
export const linkedDestinations = sql<{ id: string; name: string }[]>`COALESCE((
    SELECT json_agg(json_build_object('id', d.id, 'name', d.name) ORDER BY d.name)
    FROM connector_destinations cd JOIN destinations d ON d.id = cd.destination_id
    WHERE cd.connector_id = "connectors"."id"), '[]'::json)`;

/** The newest run of the outer "connectors" row, or null (read back by readLatestRun). */
export const lastRun = sql<(LatestRunJson & { records: number }) | null>`(
    SELECT json_build_object('id', r.id, 'status', r.status, 'startedAt', r.started_at, 'finishedAt', r.finished_at, 'createdAt', r.created_at, 'error', r.error, 'records', r.records)
    FROM sync_runs r WHERE r.connector_id = "connectors"."id" ORDER BY r.created_at DESC, r.id DESC LIMIT 1)`;

/**
 * The outer "connectors" row's health (contract/lists.ts CONNECTOR_HEALTH): paused, else its newest run's status
 * (succeeded reads healthy), else never_run. A cancelled run says nothing of health (the user stopped it): the newest
 * run that was not cancelled counts. In SQL so that the list can filter by it.
 */
export const connectorHealth = sql<ConnectorHealth>`CASE WHEN "connectors"."paused" THEN 'paused' ELSE COALESCE((
    SELECT CASE r.status WHEN 'succeeded' THEN 'healthy' ELSE r.status END
    FROM sync_runs r WHERE r.connector_id = "connectors"."id" AND r.status <> 'cancelled' ORDER BY r.created_at DESC, r.id DESC LIMIT 1), 'never_run') END`;

/** What a connector's record is read with (one query, or a page of the list: lists.ts). */
export const connectorSelection = { c: connectors, sourceName: sources.name, linked: linkedDestinations, run: lastRun, health: connectorHealth };

/** The record of a row selected with connectorSelection. */
export function connectorRecord(row: { c: ConnectorRow; sourceName: string | null; linked: { id: string; name: string }[]; run: (LatestRunJson & { records: number }) | null; health: ConnectorHealth }): ConnectorRecord {
  return { ...row.c, schedule: readStored(row.c.schedule)?.schedule ?? null, sourceName: row.sourceName, destinations: row.linked, lastRun: readLatestRun(row.run), health: row.health };
}

/** One of the owner's connectors, or null (another user's record is as absent as a missing one). */
export async function findConnector(db: Database, ownerId: string, id: string): Promise<ConnectorRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select(connectorSelection)
    .from(connectors)
    .leftJoin(sources, eq(sources.id, connectors.sourceId))
    .where(workspaceRecord(connectors, ownerId, id));
  return row ? connectorRecord(row) : null;
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
    .where(workspaceRecord(connectors, ownerId, id))
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
  return db.select().from(destinations).where(and(inArray(destinations.id, valid), inWorkspace(destinations, ownerId)));
}

export async function ownedSource(db: Database, ownerId: string, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(sources).where(workspaceRecord(sources, ownerId, id));
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
      .where(workspaceRecord(connectors, ownerId, id))
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
    .where(workspaceRecord(connectors, ownerId, id))
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
    .where(workspaceRecord(connectors, ownerId, id));
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
    .where(and(eq(connectors.id, id), inWorkspace(connectors, ownerId), sql`NOT (${next} @> ARRAY[${sql.join(all.map((name) => sql`${name}::text`), sql`, `)}]::text[])`))
    .returning({ skipped: connectors.skippedStreams });
  if (rows[0]) return rows[0].skipped;
  const [exists] = await db.select({ id: connectors.id }).from(connectors).where(workspaceRecord(connectors, ownerId, id));
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
      .where(workspaceRecord(connectors, ownerId, id))
      .for("update");
    if (!row) return { deleted: false, reason: "not_found" } as const;
    const using = await transformsUsing(tx, id);
    if (using.length) return { deleted: false, reason: "in_use", transforms: using } as const;
    await tx.delete(connectors).where(eq(connectors.id, id));
    return { deleted: true } as const;
  });
}

// ---- sync runs ---------------------------------------------------------------------------------

/** One run of a connector with its log (its details page; attempts and where its data landed are its row's). */
export interface SyncRunDetailsRecord extends SyncRunRow {
  log: RunLogRecord[];
}

/** A sync run's backfill range [from, to), or null for a run of the lookback window (for the sync engine). */
export async function syncRunRange(db: Executor, runId: string): Promise<{ from: Date; to: Date } | null> {
  if (!isUuid(runId)) return null;
  const [row] = await db.select({ from: syncRuns.rangeFrom, to: syncRuns.rangeTo }).from(syncRuns).where(eq(syncRuns.id, runId));
  return row?.from && row.to ? { from: row.from, to: row.to } : null;
}

/** The connector's newest runs, newest first (with `before`, those older than that run). */
export function listRuns(db: Database, connectorId: string, limit = 50, before?: string): Promise<SyncRunRow[]> {
  return SYNC_RUN_TABLE.list(db, connectorId, limit, before);
}

/** One run of the owner's connector with its attempts, where its data landed and its log; null when it is not theirs. */
export async function findSyncRunDetails(db: Database, ownerId: string, connector: { id: string }, runId: string): Promise<SyncRunDetailsRecord | null> {
  const run = await SYNC_RUN_TABLE.findOwned(db, runId, connector.id, ownerId);
  if (!run) return null;
  return { ...run, log: await readRunLog(db, "sync", run.id) };
}

/** The connector's failures in a row since its last success, or null (its latest finished run did not fail). */
export const connectorFailing = (db: Database, connectorId: string): Promise<RunFailureRecord | null> => SYNC_RUN_TABLE.failing(db, connectorId);

/** A sync's success: the connector was synced up to `at`. */
export async function markSynced(db: Executor, connectorId: string, at: Date): Promise<void> {
  await db.update(connectors).set({ lastSyncedAt: at }).where(eq(connectors.id, connectorId));
}
