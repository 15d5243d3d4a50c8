import { and, asc, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectors, transformRuns, transforms } from "./schema.js";
import type { Transform, TransformRun } from "../../contract/transforms.js";
import { isUuid, iso } from "./values.js";

type TransformRow = typeof transforms.$inferSelect;
type RunRow = typeof transformRuns.$inferSelect;
type Executor = Pick<Database, "select" | "insert" | "update" | "delete" | "execute">;

/** The newest run of the outer "transforms" row, or null. */
export const lastTransformRun = sql<Transform["last_run"]>`(
    SELECT json_build_object('id', r.id, 'status', r.status, 'started_at', r.started_at, 'finished_at', r.finished_at, 'created_at', r.created_at, 'error', r.error)
    FROM transform_runs r WHERE r.transform_id = "transforms"."id" ORDER BY r.created_at DESC, r.id DESC LIMIT 1)`;

export function toTransform(t: TransformRow, connectorName: string | null, run: Transform["last_run"]): Transform {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    transform_type: t.transformType,
    connector_id: t.connectorId,
    connector_name: connectorName,
    status: t.status,
    created_at: iso(t.createdAt)!,
    template_id: t.templateId,
    frequency: t.frequency,
    file_types: t.fileTypes,
    inputs: t.inputs,
    last_run: run ? { ...run, started_at: iso(run.started_at), finished_at: iso(run.finished_at), created_at: iso(run.created_at)! } : null,
  };
}

/** One of the owner's transforms, or null (another user's record is as absent as a missing one). */
export async function findTransform(db: Database, ownerId: string, id: string): Promise<Transform | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ t: transforms, connectorName: connectors.name, run: lastTransformRun })
    .from(transforms)
    .leftJoin(connectors, eq(connectors.id, transforms.connectorId))
    .where(and(eq(transforms.id, id), eq(transforms.ownerId, ownerId)));
  return row ? toTransform(row.t, row.connectorName, row.run) : null;
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
  const [row] = await db.select().from(transforms).where(and(eq(transforms.id, id), eq(transforms.ownerId, ownerId)));
  return row ?? null;
}

/** §5: names compare trimmed and case-insensitively among the owner's transforms. */
export async function transformNameTaken(db: Executor, ownerId: string, name: string): Promise<boolean> {
  const [row] = await db
    .select({ id: transforms.id })
    .from(transforms)
    .where(and(eq(transforms.ownerId, ownerId), sql`lower(btrim(${transforms.name})) = lower(btrim(${name}))`))
    .limit(1);
  return !!row;
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
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`transform-name:${ownerId}`}))`);
    if (await transformNameTaken(tx, ownerId, values.name)) return null;
    const [row] = await tx.insert(transforms).values({ ...values, ownerId, status: "PENDING" }).returning();
    return row!;
  });
}

export async function deleteTransform(db: Database, ownerId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const deleted = await db.delete(transforms).where(and(eq(transforms.id, id), eq(transforms.ownerId, ownerId))).returning({ id: transforms.id });
  return deleted.length > 0;
}

/** The owner's connectors as {id, name} by name (GET /transforms/config). */
export async function connectorChoices(db: Database, ownerId: string): Promise<{ id: string; name: string }[]> {
  return db.select({ id: connectors.id, name: connectors.name }).from(connectors).where(eq(connectors.ownerId, ownerId)).orderBy(asc(connectors.name), asc(connectors.id));
}

export async function setTransformStatus(db: Executor, id: string, status: string): Promise<void> {
  await db.update(transforms).set({ status, updatedAt: new Date() }).where(eq(transforms.id, id));
}

/** Every transform whose connector is active: the schedules to keep. */
export async function scheduledTransforms(db: Database): Promise<TransformRow[]> {
  const rows = await db.select({ t: transforms }).from(transforms).innerJoin(connectors, eq(connectors.id, transforms.connectorId)).where(eq(connectors.paused, false));
  return rows.map((r) => r.t);
}

// ---- runs ----------------------------------------------------------------------------------------

export function toTransformRun(r: RunRow): TransformRun {
  return {
    id: r.id,
    transform_id: r.transformId,
    status: r.status as TransformRun["status"],
    trigger: r.trigger,
    created_at: iso(r.createdAt)!,
    started_at: iso(r.startedAt),
    finished_at: iso(r.finishedAt),
    records: r.records,
    outputs: r.outputs,
    error: r.error,
  };
}

export async function listTransformRuns(db: Database, transformId: string, limit = 50): Promise<TransformRun[]> {
  const rows = await db.select().from(transformRuns).where(eq(transformRuns.transformId, transformId)).orderBy(desc(transformRuns.createdAt), desc(transformRuns.id)).limit(limit);
  return rows.map(toTransformRun);
}

export async function insertTransformRun(db: Executor, values: { transformId: string; ownerId: string; trigger: string }): Promise<TransformRun> {
  const [row] = await db.insert(transformRuns).values(values).returning();
  return toTransformRun(row!);
}

/** The transform's run that is queued or running, if any (one at a time per transform). */
export async function openTransformRun(db: Executor, transformId: string): Promise<TransformRun | null> {
  const [row] = await db
    .select()
    .from(transformRuns)
    .where(and(eq(transformRuns.transformId, transformId), inArray(transformRuns.status, ["queued", "running"])))
    .orderBy(desc(transformRuns.createdAt))
    .limit(1);
  return row ? toTransformRun(row) : null;
}

/** Every transform run that is queued or running and has a job (its job may have ended without it: see recoverLostRuns). */
export async function openTransformRunsWithJobs(db: Database): Promise<RunRow[]> {
  return db
    .select()
    .from(transformRuns)
    .where(and(inArray(transformRuns.status, ["queued", "running"]), isNotNull(transformRuns.jobId)));
}

/** Updates the run only while it is still open under this job (a worker may have finished it meanwhile); true when it did. */
export async function updateOpenTransformRun(db: Executor, id: string, jobId: string, values: Partial<Omit<RunRow, "id" | "transformId" | "ownerId">>): Promise<boolean> {
  const rows = await db
    .update(transformRuns)
    .set(values)
    .where(and(eq(transformRuns.id, id), eq(transformRuns.jobId, jobId), inArray(transformRuns.status, ["queued", "running"])))
    .returning({ id: transformRuns.id });
  return rows.length > 0;
}

/** Marks the run running for this attempt, with a first heartbeat (the database's clock: every worker compares against it). */
export async function markTransformRunning(db: Executor, id: string, values: { startedAt: Date; attempts: number }): Promise<void> {
  await db.update(transformRuns).set({ status: "running", ...values, heartbeatAt: sql`now()` }).where(eq(transformRuns.id, id));
}

/** The run's heartbeat while it runs; false once the run is no longer running (finished, or taken back as lost). */
export async function beatTransformRun(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .update(transformRuns)
    .set({ heartbeatAt: sql`now()` })
    .where(and(eq(transformRuns.id, id), eq(transformRuns.status, "running")))
    .returning({ id: transformRuns.id });
  return rows.length > 0;
}

/** A running run's heartbeat (the start for a run begun before heartbeats existed) is older than this many seconds. */
const stale = (timeoutSeconds: number) =>
  sql`COALESCE(${transformRuns.heartbeatAt}, ${transformRuns.startedAt}, ${transformRuns.createdAt}) < now() - make_interval(secs => ${timeoutSeconds})`;

/** Every running transform run with a job whose heartbeat is older than `timeoutSeconds`: its worker died (one query). */
export async function deadTransformRuns(db: Database, timeoutSeconds: number): Promise<RunRow[]> {
  return db
    .select()
    .from(transformRuns)
    .where(and(eq(transformRuns.status, "running"), isNotNull(transformRuns.jobId), stale(timeoutSeconds)));
}

/** Settles a dead run only while it is still running under this job with a stale heartbeat; true when it did. */
export async function settleDeadTransformRun(db: Executor, id: string, jobId: string, timeoutSeconds: number, values: Partial<Omit<RunRow, "id" | "transformId" | "ownerId">>): Promise<boolean> {
  const rows = await db
    .update(transformRuns)
    .set(values)
    .where(and(eq(transformRuns.id, id), eq(transformRuns.jobId, jobId), eq(transformRuns.status, "running"), stale(timeoutSeconds)))
    .returning({ id: transformRuns.id });
  return rows.length > 0;
}

export async function updateTransformRun(db: Executor, id: string, values: Partial<Omit<RunRow, "id" | "transformId" | "ownerId">>): Promise<void> {
  await db.update(transformRuns).set(values).where(eq(transformRuns.id, id));
}

export async function findTransformRun(db: Database, id: string): Promise<RunRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(transformRuns).where(eq(transformRuns.id, id));
  return row ?? null;
}

/** The newest successful run's outputs (the result tables the screen can show). */
export async function latestOutputs(db: Database, transformId: string): Promise<{ table: string; rows: number }[]> {
  const [row] = await db
    .select({ outputs: transformRuns.outputs })
    .from(transformRuns)
    .where(and(eq(transformRuns.transformId, transformId), eq(transformRuns.status, "succeeded")))
    .orderBy(desc(transformRuns.createdAt), desc(transformRuns.id))
    .limit(1);
  return row?.outputs ?? [];
}
