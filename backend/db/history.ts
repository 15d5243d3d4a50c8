import { sql, type SQL } from "drizzle-orm";
import type { Database } from "./client.js";
import { pruneActivity } from "./activity.js";

/** How long finished runs and run log lines are kept, in days (config: RUN_HISTORY_DAYS, RUN_LOG_DAYS). */
export interface Retention {
  runDays: number;
  logDays: number;
}

export interface Pruned {
  syncRuns: number;
  transformRuns: number;
  logLines: number;
  alertDeliveries: number;
  /** Activity log entries (issue 51), kept as long as run history; present when any went. */
  activity?: number;
}

const DAY_MS = 86_400_000;

/** The moment before which what is kept `days` days is past its time. */
const cutoff = (days: number, now: Date) => new Date(now.getTime() - days * DAY_MS);

/**
 * Whether a run's log was pruned: no line is left of a run older than the logs' retention. (A run always logs at least
 * its queuing, and the runs whose lines the prune keeps are kept with their lines.)
 */
export function logWasPruned(run: { createdAt: Date; log: unknown[] }, logDays: number, now = new Date()): boolean {
  return run.log.length === 0 && run.createdAt < cutoff(logDays, now);
}

/** Rows deleted per statement: each batch is a short transaction, so the prune never holds a long lock. */
const BATCH = 5_000;

const RUN_TABLES = [
  { table: "sync_runs", key: "connector_id", log: "sync_run_id", count: "syncRuns" },
  { table: "transform_runs", key: "transform_id", log: "transform_run_id", count: "transformRuns" },
] as const;

/**
 * The runs of a run table that are kept whatever their age: each connector's (or transform's) latest run, and its
 * latest failure (what its details page and its "failing since" banner read). Both use the table's history index.
 */
function keptRuns(table: string, key: string): SQL {
  return sql.raw(
    `(SELECT DISTINCT ON (${key}) id FROM ${table} ORDER BY ${key}, created_at DESC, id DESC)
     UNION ALL
     (SELECT DISTINCT ON (${key}) id FROM ${table} WHERE status = 'failed' ORDER BY ${key}, created_at DESC, id DESC)`,
  );
}

async function deleteInBatches(db: Database, statement: SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(statement);
    const deleted = result.rowCount ?? 0;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/**
 * Deletes the finished runs created more than `runDays` ago (their log lines go with them) and the log lines written
 * more than `logDays` ago, but never a run that is queued or running, nor a connector's or transform's latest run or
 * latest failure, nor those runs' log lines. Answers what it deleted. Safe beside another prune (another worker's):
 * each batch deletes what is still there.
 */
export async function pruneHistory(db: Database, retention: Retention, now = new Date()): Promise<Pruned> {
  const runCutoff = cutoff(retention.runDays, now);
  const logCutoff = cutoff(retention.logDays, now);
  const pruned: Pruned = { syncRuns: 0, transformRuns: 0, logLines: 0, alertDeliveries: 0 };
  for (const { table, key, log, count } of RUN_TABLES) {
    pruned[count] = await deleteInBatches(
      db,
      sql`DELETE FROM ${sql.identifier(table)} WHERE id IN (
        SELECT id FROM ${sql.identifier(table)}
        WHERE created_at < ${runCutoff} AND status IN ('succeeded', 'failed', 'cancelled') AND id NOT IN (${keptRuns(table, key)})
        LIMIT ${BATCH})`,
    );
    pruned.logLines += await deleteInBatches(
      db,
      sql`DELETE FROM run_log_lines WHERE id IN (
        SELECT id FROM run_log_lines
        WHERE at < ${logCutoff} AND ${sql.identifier(log)} IS NOT NULL AND ${sql.identifier(log)} NOT IN (${keptRuns(table, key)})
        LIMIT ${BATCH})`,
    );
  }
  // An alert is about a run: it is kept as long as runs are, unless it is still being sent.
  pruned.alertDeliveries = await deleteInBatches(
    db,
    sql`DELETE FROM alert_deliveries WHERE id IN (
      SELECT id FROM alert_deliveries WHERE created_at < ${runCutoff} AND status <> 'pending' LIMIT ${BATCH})`,
  );
  // Who did what is kept as long as the runs it tells of.
  const activity = await pruneActivity(db, runCutoff, BATCH);
  if (activity > 0) pruned.activity = activity;
  return pruned;
}
