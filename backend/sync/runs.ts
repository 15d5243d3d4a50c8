import type { JobQueue } from "../jobs/queue.js";
import type { Database } from "../db/client.js";
import { markSynced, placeConnectorBookmarks, takeDueConnectors } from "../db/connectors.js";
import { SYNC_RUN_TABLE, type RunAsker, type SyncRunRow } from "../db/runs.js";
import { READABLE_INTEGRATIONS } from "../integrations/sources/index.js";
import { enqueueDue, enqueueRun, recoverDead, recoverLost, type RunKind } from "../runs/engine.js";

/** Syncs as runs of the runs engine: one at a time per connector, on the stately "sync-connector" queue. */
export const SYNC_QUEUE = "sync-connector";
export const SCHEDULER_QUEUE = "sync-scheduler";
export const SYNC_RETRY_LIMIT = 3;

export const SYNC_RUNS: RunKind<SyncRunRow> = {
  name: "sync",
  queue: SYNC_QUEUE,
  retryLimit: SYNC_RETRY_LIMIT,
  runs: SYNC_RUN_TABLE,
  // last_synced_at moves only on success.
  onStatus: async (db, connectorId, status, at) => {
    if (status === "succeeded") await markSynced(db, connectorId, at);
  },
  // Only sources the engine can read: a scheduled run that can only fail would just bury the history.
  takeDue: (db, options) => takeDueConnectors(db, READABLE_INTEGRATIONS, options),
  placeBookmarks: placeConnectorBookmarks,
};

/**
 * Records a queued run and sends its job; null when the connector already has a run queued or running. A backfill
 * reads its `range` [from, to) instead of the lookback window. `triggeredBy`: who asked for it (a name), none for the
 * schedule or the connector's creation.
 */
export function enqueueSyncRun(
  db: Database,
  jobs: JobQueue,
  connector: { id: string; ownerId: string },
  trigger: "create" | "manual" | "schedule" | "backfill",
  range?: { from: Date; to: Date },
  triggeredBy?: RunAsker | null,
): Promise<SyncRunRow | null> {
  return enqueueRun(SYNC_RUNS, db, jobs, { key: connector.id, ownerId: connector.ownerId }, trigger, range, triggeredBy);
}

/** Every minute: queue a run for each active connector whose slot has come. */
export const enqueueDueRuns = (db: Database, jobs: JobQueue, now = new Date()) => enqueueDue(SYNC_RUNS, db, jobs, now);
export const recoverLostSyncRuns = (db: Database, jobs: JobQueue) => recoverLost(SYNC_RUNS, db, jobs);
export const recoverDeadSyncRuns = (db: Database, jobs: JobQueue, timeoutSeconds?: number) => recoverDead(SYNC_RUNS, db, jobs, timeoutSeconds);
