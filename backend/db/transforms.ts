import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectors, sources, transformRuns, transforms } from "./schema.js";
import { isUuid } from "./values.js";
import { bookmarks, readLatestRun, TRANSFORM_RUN_TABLE, type Executor, type LatestRun, type LatestRunJson, type RunFailureRecord, type ScheduledKey, type TransformRunRow } from "./runs.js";
import { readRunLog, type RunLogRecord } from "./run-logs.js";
import { readStored, toStored } from "../runs/schedule.js";
import type { Schedule } from "../../contract/schedules.js";
import { inWorkspace, workspaceRecord } from "./scope.js";

export type TransformRow = typeof transforms.$inferSelect;

/**
 * A transform as the backend knows it: its row (its schedule read back from the stored form: null is its frequency's
 * slot), its connector's name, whether that connector is paused (then it is not scheduled) and its newest run. The
 * API's shape is made from it at the HTTP edge (backend/present/transforms.ts).
 */
export interface TransformRecord extends Omit<TransformRow, "schedule"> {
  schedule: Schedule | null;
  connectorName: string | null;
  connectorPaused: boolean;
  lastRun: LatestRun | null;
}

/** The newest run of the outer "transforms" row, or null (read back by readLatestRun). */
export const lastTransformRun = sql<LatestRunJson | null>`(
    SELECT json_build_object('id', r.id, 'status', r.status, 'startedAt', r.started_at, 'finishedAt', r.finished_at, 'createdAt', r.created_at, 'error', r.error)
    FROM transform_runs r WHERE r.transform_id = "transforms"."id" ORDER BY r.created_at DESC, r.id DESC LIMIT 1)`;

/** What a transform's record is read with (one query, or a page of the list: lists.ts), its connector left-joined. */
export const transformSelection = { t: transforms, connectorName: connectors.name, connectorPaused: connectors.paused, run: lastTransformRun };

/** The record of a row selected with transformSelection. */
export function transformRecord(row: { t: TransformRow; connectorName: string | null; connectorPaused: boolean | null; run: LatestRunJson | null }): TransformRecord {
  return { ...row.t, schedule: readStored(row.t.schedule)?.schedule ?? null, connectorName: row.connectorName, connectorPaused: row.connectorPaused ?? false, lastRun: readLatestRun(row.run) };
}

/** One of the owner's transforms, or null (another user's record is as absent as a missing one). */
export async function findTransform(db: Database, ownerId: string, id: string): Promise<TransformRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select(transformSelection)
    .from(transforms)
    .leftJoin(connectors, eq(connectors.id, transforms.connectorId))
    .where(workspaceRecord(transforms, ownerId, id));
  return row ? transformRecord(row) : null;
}

/** The transform row itself (any owner): for the runner. */
export async function transformRow(db: Database, id: string): Promise<TransformRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(transforms).where(eq(transforms.id, id));
  return row ?? null;
}

/** The owner's own transform row (for the runner's HTTP calls), or null. */
export async function ownedTransformRow(db: Database, ownerId: string, id: string): Promise<TransformRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(transforms).where(workspaceRecord(transforms, ownerId, id));
  return row ?? null;
}

/** §5: names compare trimmed and case-insensitively among the owner's transforms (`except`: the one being renamed). */
/** Create and rename hold it while they check a name and write it: two at once cannot both take one name. */
const lockTransformNames = (tx: Executor, ownerId: string) => tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`transform-name:${ownerId}`}))`);

export async function transformNameTaken(db: Executor, ownerId: string, name: string, except?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: transforms.id })
    .from(transforms)
    .where(and(inWorkspace(transforms, ownerId), sql`lower(btrim(${transforms.name})) = lower(btrim(${name}))`, except ? ne(transforms.id, except) : undefined))
    .limit(1);
  return !!row;
}

/**
 * Renames a transform and sets its description (what can change without recreating it: its template, connector and
 * inputs cannot). "taken" when another of the owner's transforms has the name; "missing" when it is not the owner's.
 */
export async function renameTransform(db: Database, ownerId: string, id: string, values: { name: string; description: string }): Promise<"renamed" | "taken" | "missing"> {
  if (!isUuid(id)) return "missing";
  return db.transaction(async (tx) => {
    await lockTransformNames(tx, ownerId);
    if (await transformNameTaken(tx, ownerId, values.name, id)) return "taken";
    const updated = await tx
      .update(transforms)
      .set({ name: values.name, description: values.description, updatedAt: new Date() })
      .where(workspaceRecord(transforms, ownerId, id))
      .returning({ id: transforms.id });
    return updated.length > 0 ? "renamed" : "missing";
  });
}

export interface NewTransform {
  name: string;
  description: string;
  transformType: string;
  templateId: string;
  connectorId: string;
  frequency: string;
  fileTypes: string[];
  inputs: Record<string, unknown>;
  requirementInputs: Record<string, unknown>;
  permissionsSetup: boolean;
}

/** Inserts the transform unless the owner already has one of that name (checked under a per-owner lock): null then. */
export async function insertTransform(db: Database, ownerId: string, values: NewTransform): Promise<TransformRow | null> {
  return db.transaction(async (tx) => {
    await lockTransformNames(tx, ownerId);
    if (await transformNameTaken(tx, ownerId, values.name)) return null;
    const [row] = await tx.insert(transforms).values({ ...values, ownerId, status: "PENDING" }).returning();
    return row!;
  });
}

export async function deleteTransform(db: Database, ownerId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const deleted = await db.delete(transforms).where(workspaceRecord(transforms, ownerId, id)).returning({ id: transforms.id });
  return deleted.length > 0;
}

/** What says which files a connector's data comes as: its source's integration and settings, its platform, whether it synced. */
export interface ConnectorData {
  id: string;
  name: string;
  platform: string | null;
  integrationName: string;
  metadata: Record<string, unknown>;
  synced: boolean;
}

const connectorData = {
  id: connectors.id,
  name: connectors.name,
  platform: connectors.platform,
  integrationName: sources.integrationName,
  metadata: sources.metadata,
  synced: sql<boolean>`${connectors.lastSyncedAt} IS NOT NULL`,
};

/** The owner's connectors by name, with their data's origin (GET /transforms/config). */
export async function connectorChoices(db: Database, ownerId: string): Promise<ConnectorData[]> {
  return db
    .select(connectorData)
    .from(connectors)
    .innerJoin(sources, eq(sources.id, connectors.sourceId))
    .where(inWorkspace(connectors, ownerId))
    .orderBy(asc(connectors.name), asc(connectors.id));
}

/** One connector with its data's origin (any owner: the caller has checked the transform's), or null. */
export async function connectorDataOf(db: Database, connectorId: string): Promise<ConnectorData | null> {
  if (!isUuid(connectorId)) return null;
  const [row] = await db.select(connectorData).from(connectors).innerJoin(sources, eq(sources.id, connectors.sourceId)).where(eq(connectors.id, connectorId));
  return row ?? null;
}

export async function setTransformStatus(db: Executor, id: string, status: string): Promise<void> {
  await db.update(transforms).set({ status, updatedAt: new Date() }).where(eq(transforms.id, id));
}

const TRANSFORM_BOOKMARKS = bookmarks(transforms, transformRuns, transformRuns.transformId);

/**
 * The scheduler's due transforms (backend/runs/engine.ts enqueueDue): of an active connector, and whose bookmark has
 * come; leased to this pass, up to `limit`, with their newest run.
 */
export function takeDueTransforms(db: Database, options: { now: Date; lease: Date; limit: number }): Promise<ScheduledKey[]> {
  return TRANSFORM_BOOKMARKS.take(db, {
    ...options,
    join: sql`JOIN ${connectors} ON ${connectors.id} = ${transforms.connectorId}`,
    where: eq(connectors.paused, false),
  });
}

/** Sets the taken transforms' next bookmarks (null: never). */
export const placeTransformBookmarks = TRANSFORM_BOOKMARKS.place;

/** Sets the owner's transform's schedule (null: back to its frequency's slot); false when it is not the owner's. */
export async function setTransformSchedule(db: Database, ownerId: string, id: string, schedule: Schedule | null, at = new Date()): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(transforms)
    .set({ schedule: toStored(schedule, at), updatedAt: at })
    .where(workspaceRecord(transforms, ownerId, id))
    .returning({ id: transforms.id });
  return rows.length > 0;
}

// ---- runs ----------------------------------------------------------------------------------------

/** One run of a transform with its log (its details page; its attempts are its row's). */
export interface TransformRunDetailsRecord extends TransformRunRow {
  log: RunLogRecord[];
}

/** The transform's newest runs, newest first. */
export function listTransformRuns(db: Database, transformId: string, limit = 50, before?: string): Promise<TransformRunRow[]> {
  return TRANSFORM_RUN_TABLE.list(db, transformId, limit, before);
}

/** One run of the owner's transform with its attempts and its log; null when it is not theirs. */
export async function findTransformRunDetails(db: Database, ownerId: string, transform: { id: string }, runId: string): Promise<TransformRunDetailsRecord | null> {
  const run = await TRANSFORM_RUN_TABLE.findOwned(db, runId, transform.id, ownerId);
  if (!run) return null;
  return { ...run, log: await readRunLog(db, "transform", run.id) };
}

/** The transform's failures in a row since its last success, or null (its latest finished run did not fail). */
export const transformFailing = (db: Database, transformId: string): Promise<RunFailureRecord | null> => TRANSFORM_RUN_TABLE.failing(db, transformId);

/** The newest successful run (its id and the result tables it wrote), or null. */
export async function latestSucceededRun(db: Database, transformId: string): Promise<{ id: string; outputs: { table: string; rows: number }[] } | null> {
  const run = await TRANSFORM_RUN_TABLE.latestSucceeded(db, transformId);
  return run ? { id: run.id, outputs: run.outputs } : null;
}
