import { and, asc, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectorDestinations, connectors, destinations, sources, syncRuns, transforms } from "./schema.js";
import type { Connector, SyncRun, SyncRunStatus } from "../../contract/connectors.js";
import { isUuid, iso } from "./values.js";


type ConnectorRow = typeof connectors.$inferSelect;
type RunRow = typeof syncRuns.$inferSelect;

/** The connector's destinations (id, name), by name; correlated to the outer "connectors" row. */
export const linkedDestinations = sql<{ id: string; name: string }[]>`COALESCE((
    SELECT json_agg(json_build_object('id', d.id, 'name', d.name) ORDER BY d.name)
    FROM connector_destinations cd JOIN destinations d ON d.id = cd.destination_id
    WHERE cd.connector_id = "connectors"."id"), '[]'::json)`;

/** The newest run of the outer "connectors" row, or null. */
export const lastRun = sql<Connector["last_run"]>`(
    SELECT json_build_object('id', r.id, 'status', r.status, 'started_at', r.started_at, 'finished_at', r.finished_at, 'created_at', r.created_at, 'error', r.error)
    FROM sync_runs r WHERE r.connector_id = "connectors"."id" ORDER BY r.created_at DESC, r.id DESC LIMIT 1)`;

export function toConnector(c: ConnectorRow, sourceName: string | null, linked: { id: string; name: string }[], run: Connector["last_run"]): Connector {
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
    last_run: run
      ? { ...run, started_at: iso(run.started_at), finished_at: iso(run.finished_at), created_at: iso(run.created_at)! }
      : null,
  };
}

/** One of the owner's connectors, or null (another user's record is as absent as a missing one). */
export async function findConnector(db: Database, ownerId: string, id: string): Promise<Connector | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ c: connectors, sourceName: sources.name, linked: linkedDestinations, run: lastRun })
    .from(connectors)
    .leftJoin(sources, eq(sources.id, connectors.sourceId))
    .where(and(eq(connectors.id, id), eq(connectors.ownerId, ownerId)));
  return row ? toConnector(row.c, row.sourceName, row.linked, row.run) : null;
}

/** The connector row itself (any owner): for the sync engine. */
export async function connectorRow(db: Database, id: string): Promise<ConnectorRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(connectors).where(eq(connectors.id, id));
  return row ?? null;
}

/** All active (not paused) connectors whose source is of one of these integrations: the schedules to keep. */
export async function activeConnectors(db: Database, integrations: string[]): Promise<ConnectorRow[]> {
  const rows = await db
    .select({ c: connectors })
    .from(connectors)
    .innerJoin(sources, eq(sources.id, connectors.sourceId))
    .where(and(eq(connectors.paused, false), inArray(sources.integrationName, integrations)));
  return rows.map((r) => r.c);
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

export type DeleteResult = { deleted: true } | { deleted: false; reason: "not_found" } | { deleted: false; reason: "in_use"; transforms: { id: string; name: string }[] };

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
    const using = await tx.select({ id: transforms.id, name: transforms.name }).from(transforms).where(eq(transforms.connectorId, id)).orderBy(asc(transforms.name));
    if (using.length) return { deleted: false, reason: "in_use", transforms: using } as const;
    await tx.delete(connectors).where(eq(connectors.id, id));
    return { deleted: true } as const;
  });
}

// ---- sync runs ---------------------------------------------------------------------------------

export function toSyncRun(r: RunRow): SyncRun {
  return {
    id: r.id,
    connector_id: r.connectorId,
    status: r.status as SyncRunStatus,
    trigger: r.trigger,
    created_at: iso(r.createdAt)!,
    started_at: iso(r.startedAt),
    finished_at: iso(r.finishedAt),
    records: r.records,
    bytes: r.bytes,
    error: r.error,
  };
}

export async function listRuns(db: Database, connectorId: string, limit = 50): Promise<SyncRun[]> {
  const rows = await db.select().from(syncRuns).where(eq(syncRuns.connectorId, connectorId)).orderBy(desc(syncRuns.createdAt), desc(syncRuns.id)).limit(limit);
  return rows.map(toSyncRun);
}

export async function insertRun(db: Database, values: { connectorId: string; ownerId: string; trigger: string }): Promise<SyncRun> {
  const [row] = await db.insert(syncRuns).values(values).returning();
  return toSyncRun(row!);
}

/** The connector's run that is queued or running, if any (one at a time per connector). */
export async function openRun(db: Database, connectorId: string): Promise<SyncRun | null> {
  const [row] = await db
    .select()
    .from(syncRuns)
    .where(and(eq(syncRuns.connectorId, connectorId), inArray(syncRuns.status, ["queued", "running"])))
    .orderBy(desc(syncRuns.createdAt))
    .limit(1);
  return row ? toSyncRun(row) : null;
}

/** Every run that is queued or running and has a job (its job may have ended without it: see recoverLostRuns). */
export async function openRunsWithJobs(db: Database): Promise<RunRow[]> {
  return db
    .select()
    .from(syncRuns)
    .where(and(inArray(syncRuns.status, ["queued", "running"]), isNotNull(syncRuns.jobId)));
}

/** Updates the run only while it is still open under this job (a worker may have finished it meanwhile); true when it did. */
export async function updateOpenRun(db: Database, id: string, jobId: string, values: Partial<Omit<RunRow, "id" | "connectorId" | "ownerId">>): Promise<boolean> {
  const rows = await db
    .update(syncRuns)
    .set(values)
    .where(and(eq(syncRuns.id, id), eq(syncRuns.jobId, jobId), inArray(syncRuns.status, ["queued", "running"])))
    .returning({ id: syncRuns.id });
  return rows.length > 0;
}

/** Marks the run running for this attempt, with a first heartbeat (the database's clock: every worker compares against it). */
export async function markRunning(db: Database, id: string, values: { startedAt: Date; attempts: number }): Promise<void> {
  await db.update(syncRuns).set({ status: "running", ...values, heartbeatAt: sql`now()` }).where(eq(syncRuns.id, id));
}

/** The run's heartbeat while it runs; false once the run is no longer running (finished, or taken back as lost). */
export async function beatRun(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .update(syncRuns)
    .set({ heartbeatAt: sql`now()` })
    .where(and(eq(syncRuns.id, id), eq(syncRuns.status, "running")))
    .returning({ id: syncRuns.id });
  return rows.length > 0;
}

/** A running run's heartbeat (the start for a run begun before heartbeats existed) is older than this many seconds. */
const stale = (timeoutSeconds: number) =>
  sql`COALESCE(${syncRuns.heartbeatAt}, ${syncRuns.startedAt}, ${syncRuns.createdAt}) < now() - make_interval(secs => ${timeoutSeconds})`;

/** Every running run with a job whose heartbeat is older than `timeoutSeconds`: its worker died (one query). */
export async function deadRuns(db: Database, timeoutSeconds: number): Promise<RunRow[]> {
  return db
    .select()
    .from(syncRuns)
    .where(and(eq(syncRuns.status, "running"), isNotNull(syncRuns.jobId), stale(timeoutSeconds)));
}

/** Settles a dead run only while it is still running under this job with a stale heartbeat; true when it did. */
export async function settleDeadRun(db: Database, id: string, jobId: string, timeoutSeconds: number, values: Partial<Omit<RunRow, "id" | "connectorId" | "ownerId">>): Promise<boolean> {
  const rows = await db
    .update(syncRuns)
    .set(values)
    .where(and(eq(syncRuns.id, id), eq(syncRuns.jobId, jobId), eq(syncRuns.status, "running"), stale(timeoutSeconds)))
    .returning({ id: syncRuns.id });
  return rows.length > 0;
}

export async function updateRun(db: Database, id: string, values: Partial<Omit<RunRow, "id" | "connectorId" | "ownerId">>): Promise<void> {
  await db.update(syncRuns).set(values).where(eq(syncRuns.id, id));
}

export async function findRun(db: Database, id: string): Promise<RunRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(syncRuns).where(eq(syncRuns.id, id));
  return row ?? null;
}

export async function markSynced(db: Database, connectorId: string, at: Date): Promise<void> {
  await db.update(connectors).set({ lastSyncedAt: at }).where(eq(connectors.id, connectorId));
}
