import { and, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Database } from "./client.js";
import { connectors, syncRuns, transformRuns, transforms } from "./schema.js";
import { isUuid } from "./values.js";
import type { ActorKind } from "./activity.js";
import { inWorkspace } from "./scope.js";

/**
 * The SQL of the runs engine (backend/runs/), over either run table: sync_runs (keyed by connector) and
 * transform_runs (keyed by transform) share their run columns (schema.ts `runColumns`), so one set of queries
 * serves both; each kind names its table and key column.
 */
type RunTable = typeof syncRuns | typeof transformRuns;
export type Executor = Pick<Database, "select" | "insert" | "update" | "delete" | "execute">;

export type RunStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** A sync run and a transform run as stored (the API's shapes are made from them in backend/present/runs.ts). */
export type SyncRunRow = typeof syncRuns.$inferSelect;
export type TransformRunRow = typeof transformRuns.$inferSelect;
/** One entry of a run's attempt log, as stored: its attempt, times, outcome (running, succeeded, failed, retrying), error. */
export type RunAttemptEntry = SyncRunRow["attemptLog"][number];
/** Where one destination's data of a sync landed, as stored: its name and type, records, bytes and location. */
export type LandedEntry = SyncRunRow["landed"][number];

/** A key's failures in a row since its last success: the first of them (since when it fails) and the latest (its error). */
export interface RunFailureRecord {
  failures: number;
  since: Date;
  firstRunId: string;
  lastRunId: string;
  lastError: string | null;
}

/** A connector's or transform's newest run, as its record carries it (read by a correlated sub-query: LatestRunJson). */
export interface LatestRun {
  id: string;
  status: string;
  startedAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
  error: string | null;
}

/** What a newest-run sub-query's json_build_object answers: the same fields, its timestamps as text. */
export type LatestRunJson = Omit<LatestRun, "startedAt" | "finishedAt" | "createdAt"> & { startedAt: string | null; finishedAt: string | null; createdAt: string };

/** A newest-run sub-query's answer read back (its timestamps as dates; any other field it selects kept), or null. */
export function readLatestRun<J extends LatestRunJson>(json: J | null): (Omit<J, "startedAt" | "finishedAt" | "createdAt"> & LatestRun) | null {
  if (!json) return null;
  const date = (text: string | null) => (text === null ? null : new Date(text));
  return { ...json, startedAt: date(json.startedAt), finishedAt: date(json.finishedAt), createdAt: new Date(json.createdAt) };
}
/** A run in one of these is not over yet (one at a time per key); succeeded, failed and cancelled are final. */
export const OPEN: RunStatus[] = ["queued", "running"];

/** A run as the engine sees it: `key` is its connector or transform. */
export interface RunRecord {
  id: string;
  key: string;
  ownerId: string;
  status: string;
  jobId: string | null;
  attempts: number;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  /** Set by Cancel while the run was running: its worker stops at the next batch boundary. */
  cancelRequestedAt: Date | null;
}

/** What Cancel did to a key's open run (see `cancelOpen`). */
export type CancelResult =
  | { outcome: "cancelled"; runId: string; jobId: string | null }
  | { outcome: "stopping" | "already_stopping"; runId: string }
  | { outcome: "none" };

/** What a schedule needs to know of a connector or transform: its cadence, since when it exists, and its newest run. */
/** A connector or transform the scheduler looks at: its schedule and its newest run. */
export interface ScheduledKey {
  key: string;
  ownerId: string;
  frequency: string;
  /** The schedule column as stored (backend/runs/schedule.ts readStored); null: the frequency's slot. */
  schedule: unknown;
  createdAt: Date;
  latestRunAt: Date | null;
}

/** A new run: its key, owner and trigger; a sync's backfill adds its range [from, to). */
export interface RunInsert {
  key: string;
  ownerId: string;
  trigger: string;
  range?: { from: Date; to: Date };
  /** Who asked for it (a manual run or a backfill): a member or an API key, by name; none for the schedule. */
  triggeredBy?: RunAsker | null;
}

/** Who asked for a run: the member's or the API key's name at the time, and which of the two. */
export interface RunAsker {
  name: string;
  via: ActorKind;
}

/** What the engine writes on a run: the shared columns, plus the kind's own results (bytes, outputs). */
export interface RunValues {
  status?: RunStatus;
  jobId?: string;
  attempts?: number;
  records?: number;
  error?: string | null;
  startedAt?: Date;
  finishedAt?: Date;
  heartbeatAt?: Date | null | SQL;
  bytes?: number;
  outputs?: { table: string; rows: number }[];
  /** A sync's destinations: where their data landed. */
  landed?: LandedEntry[];
  /** Records (or replaces, by its number) one entry of the run's attempt log. */
  attempt?: RunAttemptEntry;
  /** Closes the attempt still running (its worker stopped) with this outcome. */
  closeAttempt?: { outcome: "failed" | "retrying"; error: string | null };
}

/** What a run reports while it runs (throttled by the engine): its counts so far. */
export type RunProgress = Pick<RunValues, "records" | "bytes" | "landed">;

/** An attempt whose worker stopped without ending it, as its entry reads once another attempt starts. */
export const ATTEMPT_LOST = "Its worker stopped before the attempt ended; another worker took the run up.";

/** One run table and its key column, with every query the engine needs. */
export function runTable<T extends RunTable>(table: T, key: PgColumn, keyField: "connectorId" | "transformId") {
  // One query builder over the two tables: their run columns are the same (schema.ts `runColumns`).
  const t = table as typeof syncRuns;
  const record = { id: t.id, key: sql<string>`${key}`.mapWith(String), ownerId: t.ownerId, status: t.status, jobId: t.jobId, attempts: t.attempts, error: t.error, createdAt: t.createdAt, startedAt: t.startedAt, cancelRequestedAt: t.cancelRequestedAt };
  const set = ({ attempt, closeAttempt, ...values }: RunValues) => {
    const out: Record<string, unknown> = { ...values };
    // Entries are matched inside the row's own array, so an attempt recorded twice (a retried write) stays one entry.
    // An earlier attempt still "running" lost its worker without a word (handed back at shutdown, or a killed process
    // whose job came back before the sweep saw it): it ends where the new one starts.
    if (attempt) {
      const lost = JSON.stringify({ finished_at: attempt.started_at, outcome: "retrying", error: ATTEMPT_LOST });
      out.attemptLog = sql`(SELECT COALESCE(jsonb_agg(CASE WHEN e->>'outcome' = 'running' THEN e || ${lost}::jsonb ELSE e END ORDER BY n), '[]'::jsonb)
        FROM jsonb_array_elements(${t.attemptLog}) WITH ORDINALITY AS a(e, n)
        WHERE (e->>'attempt')::int <> ${attempt.attempt}) || jsonb_build_array(${JSON.stringify(attempt)}::jsonb)`;
    } else if (closeAttempt) {
      const end = JSON.stringify({ finished_at: new Date().toISOString(), outcome: closeAttempt.outcome, error: closeAttempt.error });
      out.attemptLog = sql`(SELECT COALESCE(jsonb_agg(CASE WHEN e->>'outcome' = 'running' THEN e || ${end}::jsonb ELSE e END ORDER BY n), '[]'::jsonb)
        FROM jsonb_array_elements(${t.attemptLog}) WITH ORDINALITY AS a(e, n))`;
    }
    return out as Partial<typeof syncRuns.$inferInsert>;
  };
  /** A running run's heartbeat (the start for a run begun before heartbeats existed) is older than this many seconds. */
  const stale = (timeoutSeconds: number) => sql`COALESCE(${t.heartbeatAt}, ${t.startedAt}, ${t.createdAt}) < now() - make_interval(secs => ${timeoutSeconds})`;
  const row = (r: unknown) => r as T["$inferSelect"];

  return {
    async find(db: Executor, id: string): Promise<RunRecord | null> {
      if (!isUuid(id)) return null;
      const [found] = await db.select(record).from(t).where(eq(t.id, id));
      return found ?? null;
    },
    async insert(db: Executor, values: RunInsert): Promise<T["$inferSelect"]> {
      // A range is a sync's (a backfill): only sync_runs has its columns.
      const range = values.range ? { rangeFrom: values.range.from, rangeTo: values.range.to } : {};
      const [inserted] = await db
        .insert(t)
        .values({ [keyField]: values.key, ownerId: values.ownerId, trigger: values.trigger, triggeredBy: values.triggeredBy?.name ?? null, triggeredVia: values.triggeredBy?.via ?? null, ...range } as unknown as typeof syncRuns.$inferInsert)
        .returning();
      return row(inserted!);
    },
    async remove(db: Executor, id: string): Promise<void> {
      await db.delete(t).where(eq(t.id, id));
    },
    /**
     * The key's newest runs, newest first (the history screens); with `before` (one of the key's runs), the runs older
     * than that one: the next page. A `before` that is not one of the key's runs answers none.
     */
    async list(db: Executor, keyValue: string, limit: number, before?: string): Promise<T["$inferSelect"][]> {
      const older = before
        ? sql`(${t.createdAt}, ${t.id}) < (SELECT page.created_at, page.id FROM ${t} AS page WHERE page.id = ${before} AND page.${sql.identifier(key.name)} = ${keyValue})`
        : undefined;
      const rows = await db.select().from(t).where(and(eq(key, keyValue), older)).orderBy(desc(t.createdAt), desc(t.id)).limit(limit);
      return rows.map(row);
    },
    /** Whether the key has a run queued or running (one at a time per connector or transform). */
    /** Of these keys, those with a run queued or running. */
    async openKeys(db: Executor, keys: string[]): Promise<Set<string>> {
      if (!keys.length) return new Set();
      const rows = await db.select({ key: sql<string>`${key}`.mapWith(String) }).from(t).where(and(inArray(key, keys), inArray(t.status, OPEN)));
      return new Set(rows.map((r) => r.key));
    },
    /** Queued runs of many keys in one statement (a scheduler pass): answers each run's id and key. */
    async insertMany(db: Executor, values: { key: string; ownerId: string; trigger: string }[]): Promise<{ id: string; key: string }[]> {
      if (!values.length) return [];
      return db
        .insert(t)
        .values(values.map((v) => ({ [keyField]: v.key, ownerId: v.ownerId, trigger: v.trigger }) as unknown as typeof syncRuns.$inferInsert))
        .returning({ id: t.id, key: sql<string>`${key}`.mapWith(String) });
    },
    async removeMany(db: Executor, ids: string[]): Promise<void> {
      if (ids.length) await db.delete(t).where(inArray(t.id, ids));
    },
    /** Records each run's job, in one statement. */
    async setJobIds(db: Executor, jobs: { id: string; jobId: string }[]): Promise<void> {
      if (!jobs.length) return;
      const values = sql.join(jobs.map((j) => sql`(${j.id}::uuid, ${j.jobId})`), sql`, `);
      await db.execute(sql`UPDATE ${t} SET job_id = v.job_id FROM (VALUES ${values}) AS v(id, job_id) WHERE ${t.id} = v.id`);
    },
    async hasOpen(db: Executor, keyValue: string): Promise<boolean> {
      const [open] = await db.select({ id: t.id }).from(t).where(and(eq(key, keyValue), inArray(t.status, OPEN))).limit(1);
      return !!open;
    },
    /** The key's newest successful run, or null. */
    async latestSucceeded(db: Executor, keyValue: string): Promise<T["$inferSelect"] | null> {
      const [found] = await db.select().from(t).where(and(eq(key, keyValue), eq(t.status, "succeeded"))).orderBy(desc(t.createdAt), desc(t.id)).limit(1);
      return found ? row(found) : null;
    },
    /** The newest run's creation of the outer query's row (`outer` is its id column): for the scheduler's one query. */
    latestCreatedAt(outer: PgColumn) {
      return sql<Date | null>`(SELECT max(${t.createdAt}) FROM ${t} WHERE ${key} = ${outer})`.mapWith(t.createdAt);
    },
    async update(db: Executor, id: string, values: RunValues): Promise<void> {
      await db.update(t).set(set(values)).where(eq(t.id, id));
    },
    /** Every run that is queued or running and has a job (its job may have ended without it: see runs/recovery.ts). */
    async openWithJobs(db: Executor): Promise<RunRecord[]> {
      return db.select(record).from(t).where(and(inArray(t.status, OPEN), isNotNull(t.jobId)));
    },
    /** Updates the run only while it is still open under this job (a worker may have finished it meanwhile); true when it did. */
    async updateOpen(db: Executor, id: string, jobId: string, values: RunValues): Promise<boolean> {
      const rows = await db.update(t).set(set(values)).where(and(eq(t.id, id), eq(t.jobId, jobId), inArray(t.status, OPEN))).returning({ id: t.id });
      return rows.length > 0;
    },
    /**
     * Marks the run running for this attempt, with a first heartbeat (the database's clock: every worker compares
     * against it); only while it is still open (Cancel may have ended it since it was read). True when it did.
     */
    async markRunning(db: Executor, id: string, values: { startedAt: Date; attempts: number; attempt?: RunAttemptEntry }): Promise<boolean> {
      const rows = await db.update(t).set(set({ status: "running", ...values, heartbeatAt: sql`now()` })).where(and(eq(t.id, id), inArray(t.status, OPEN))).returning({ id: t.id });
      return rows.length > 0;
    },
    /**
     * Cancel of the key's open run: a queued one is cancelled at once (answered with its job, to be cancelled too); a
     * running one is asked to stop (its worker reads `cancel_requested_at` and ends it at the next batch boundary).
     * Each step is one conditional update, so a worker taking the run up meanwhile (markRunning) or finishing it wins or
     * loses cleanly. "none": nothing was queued or running (it may just have finished).
     */
    async cancelOpen(db: Executor, keyValue: string): Promise<CancelResult> {
      const [queued] = await db
        .update(t)
        .set({ status: "cancelled", finishedAt: sql`now()`, cancelRequestedAt: sql`now()`, heartbeatAt: null })
        .where(and(eq(key, keyValue), eq(t.status, "queued")))
        .returning({ id: t.id, jobId: t.jobId });
      if (queued) return { outcome: "cancelled", runId: queued.id, jobId: queued.jobId };
      const [asked] = await db
        .update(t)
        .set({ cancelRequestedAt: sql`now()` })
        .where(and(eq(key, keyValue), eq(t.status, "running"), isNull(t.cancelRequestedAt)))
        .returning({ id: t.id });
      if (asked) return { outcome: "stopping", runId: asked.id };
      const [running] = await db.select({ id: t.id }).from(t).where(and(eq(key, keyValue), eq(t.status, "running"))).limit(1);
      return running ? { outcome: "already_stopping", runId: running.id } : { outcome: "none" };
    },
    /**
     * Whether Cancel asked the run to stop (read by its worker every CANCEL_POLL_SECONDS and before each write), or the
     * run is gone: its connector or transform was deleted, and nothing may land after that.
     */
    async cancelRequested(db: Executor, id: string): Promise<boolean> {
      const [found] = await db.select({ at: t.cancelRequestedAt }).from(t).where(eq(t.id, id));
      return !found || !!found.at;
    },
    /** A running run's counts so far (live progress); nothing once it is no longer running. */
    async progress(db: Executor, id: string, values: RunProgress): Promise<void> {
      await db.update(t).set(set(values)).where(and(eq(t.id, id), eq(t.status, "running")));
    },
    /** One run of the key, of this owner, or null (another user's run, or another key's, is as absent as a missing one). */
    async findOwned(db: Executor, id: string, keyValue: string, ownerId: string): Promise<T["$inferSelect"] | null> {
      if (!isUuid(id) || !isUuid(keyValue)) return null;
      const [found] = await db.select().from(t).where(and(eq(t.id, id), eq(key, keyValue), inWorkspace(t, ownerId)));
      return found ? row(found) : null;
    },
    /**
     * The key's failures in a row since its last success (runs that neither failed nor succeeded aside), or null when
     * its latest finished run did not fail: the failure banner of the details pages.
     */
    async failing(db: Executor, keyValue: string): Promise<RunFailureRecord | null> {
      const result = await db.execute<{ n: number; since: Date | string; first_id: string; last_id: string; last_error: string | null }>(sql`
        WITH last_success AS (SELECT max(${t.createdAt}) AS at FROM ${t} WHERE ${key} = ${keyValue} AND ${t.status} = 'succeeded')
        SELECT count(*)::int AS n,
          min(COALESCE(${t.finishedAt}, ${t.createdAt})) AS since,
          (array_agg(${t.id} ORDER BY ${t.createdAt}, ${t.id}))[1] AS first_id,
          (array_agg(${t.id} ORDER BY ${t.createdAt} DESC, ${t.id} DESC))[1] AS last_id,
          (array_agg(${t.error} ORDER BY ${t.createdAt} DESC, ${t.id} DESC))[1] AS last_error
        FROM ${t}, last_success
        WHERE ${key} = ${keyValue} AND ${t.status} = 'failed' AND (last_success.at IS NULL OR ${t.createdAt} > last_success.at)`);
      const found = result.rows[0];
      if (!found || found.n === 0) return null;
      return { failures: found.n, since: new Date(found.since), firstRunId: found.first_id, lastRunId: found.last_id, lastError: found.last_error };
    },
    /** The run's heartbeat while it runs; false once the run is no longer running (finished, or taken back as lost). */
    async beat(db: Executor, id: string): Promise<boolean> {
      const rows = await db.update(t).set({ heartbeatAt: sql`now()` }).where(and(eq(t.id, id), eq(t.status, "running"))).returning({ id: t.id });
      return rows.length > 0;
    },
    /** Every running run with a job whose heartbeat is older than `timeoutSeconds`: its worker died (one query). */
    async dead(db: Executor, timeoutSeconds: number): Promise<RunRecord[]> {
      return db.select(record).from(t).where(and(eq(t.status, "running"), isNotNull(t.jobId), stale(timeoutSeconds)));
    },
    /** Settles a dead run only while it is still running under this job with a stale heartbeat; true when it did. */
    async settleDead(db: Executor, id: string, jobId: string, timeoutSeconds: number, values: RunValues): Promise<boolean> {
      const rows = await db
        .update(t)
        .set(set(values))
        .where(and(eq(t.id, id), eq(t.jobId, jobId), eq(t.status, "running"), stale(timeoutSeconds)))
        .returning({ id: t.id });
      return rows.length > 0;
    },
  };
}

export type RunTableQueries<T extends RunTable = RunTable> = ReturnType<typeof runTable<T>>;

/** The sync runs, one history per connector. */
export const SYNC_RUN_TABLE = runTable(syncRuns, syncRuns.connectorId, "connectorId");
/** The transform runs, one history per transform. */
export const TRANSFORM_RUN_TABLE = runTable(transformRuns, transformRuns.transformId, "transformId");

/** A schedule column that schedules runs: no schedule (the frequency's slot) or any kind but manual only. */
export const scheduleActive = (column: PgColumn) => sql`(${column} IS NULL OR ${column}->>'kind' IS DISTINCT FROM 'manual')`;

/**
 * The scheduler's bookmarks (next_due_at, migration 0011): `take` leases, in one statement, up to `limit` scheduled keys
 * whose bookmark has come (or was cleared), oldest first, skipping the rows another scheduler holds, and answers
 * them with their newest run; `place` sets each taken key's next bookmark (null: never), only where the lease is
 * still this pass's (a schedule changed meanwhile cleared it, and the next pass looks again).
 */
export function bookmarks(table: typeof connectors | typeof transforms, runs: RunTable, runKey: PgColumn) {
  const t = table as typeof connectors;
  return {
    async take(db: Executor, options: { now: Date; lease: Date; limit: number; join: SQL; where: SQL }): Promise<ScheduledKey[]> {
      const result = await db.execute<{ key: string; owner_id: string; frequency: string; schedule: unknown; created_at: Date | string; latest_run_at: Date | string | null }>(sql`
        WITH due AS (
          SELECT ${t.id} AS id FROM ${t} ${options.join}
          WHERE ${options.where} AND ${scheduleActive(t.schedule)} AND (${t.nextDueAt} IS NULL OR ${t.nextDueAt} <= ${options.now.toISOString()}::timestamptz)
          ORDER BY ${t.nextDueAt} ASC NULLS FIRST
          LIMIT ${options.limit}
          FOR UPDATE OF ${t} SKIP LOCKED
        )
        UPDATE ${t} SET next_due_at = ${options.lease.toISOString()}::timestamptz FROM due WHERE ${t.id} = due.id
        RETURNING ${t.id} AS key, ${t.ownerId} AS owner_id, ${t.frequency} AS frequency, ${t.schedule} AS schedule, ${t.createdAt} AS created_at,
          (SELECT max(r.created_at) FROM ${runs} r WHERE r.${sql.identifier(runKey.name)} = ${t.id}) AS latest_run_at`);
      return result.rows.map((r) => ({
        key: r.key,
        ownerId: r.owner_id,
        frequency: r.frequency,
        schedule: r.schedule,
        createdAt: new Date(r.created_at),
        latestRunAt: r.latest_run_at === null ? null : new Date(r.latest_run_at),
      }));
    },
    async place(db: Executor, lease: Date, next: { key: string; at: Date | null }[]): Promise<void> {
      if (!next.length) return;
      const values = sql.join(next.map((n) => sql`(${n.key}::uuid, ${n.at ? n.at.toISOString() : "infinity"}::timestamptz)`), sql`, `);
      await db.execute(sql`
        UPDATE ${t} SET next_due_at = v.at FROM (VALUES ${values}) AS v(id, at)
        WHERE ${t.id} = v.id AND ${t.nextDueAt} = ${lease.toISOString()}::timestamptz`);
    },
  };
}

/** Takes the locks of many keys' runs until the transaction ends, in one order (two callers never wait on each other). */
export async function lockRunsMany(tx: Executor, names: string[]): Promise<void> {
  if (!names.length) return;
  const list = sql.join(names.map((n) => sql`${n}`), sql`, `);
  await tx.execute(sql`SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtext(n) AS h FROM unnest(ARRAY[${list}]::text[]) AS n ORDER BY 1) AS l`);
}

/** Takes the lock of one key's runs until the transaction ends: two callers at once (Run now, the scheduler) make one run. */
export async function lockRuns(tx: Executor, name: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`);
}
