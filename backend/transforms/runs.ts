import type { JobQueue } from "../jobs/queue.js";
import type { Database } from "../db/client.js";
import { TRANSFORM_RUN_TABLE, type RunAsker, type RunStatus, type TransformRunRow } from "../db/runs.js";
import { placeTransformBookmarks, setTransformStatus, takeDueTransforms } from "../db/transforms.js";
import { enqueueDue, enqueueRun, recoverDead, recoverLost, type RunKind } from "../runs/engine.js";

/** Transform runs as runs of the runs engine: one at a time per transform, on the stately "run-transform" queue. */
export const TRANSFORM_QUEUE = "run-transform";
export const TRANSFORM_SCHEDULER_QUEUE = "transform-scheduler";
export const TRANSFORM_RETRY_LIMIT = 3;

export type RunTrigger = "create" | "manual" | "schedule";

/** transforms.status follows its latest run. */
const STATUS_OF_RUN: Record<RunStatus, string> = { queued: "PENDING", running: "RUNNING", succeeded: "SUCCEEDED", failed: "FAILED", cancelled: "CANCELLED" };

export const TRANSFORM_RUNS: RunKind<TransformRunRow> = {
  name: "transform",
  queue: TRANSFORM_QUEUE,
  retryLimit: TRANSFORM_RETRY_LIMIT,
  runs: TRANSFORM_RUN_TABLE,
  onStatus: (db, transformId, status) => setTransformStatus(db, transformId, STATUS_OF_RUN[status]),
  takeDue: takeDueTransforms,
  placeBookmarks: placeTransformBookmarks,
};

/**
 * Records a queued run and sends its job; null when the transform already has a run queued or running. `triggeredBy`:
 * who asked for it (a name), none for the schedule or the transform's creation.
 */
export function enqueueTransformRun(db: Database, jobs: JobQueue, transform: { id: string; ownerId: string }, trigger: RunTrigger, triggeredBy?: RunAsker | null): Promise<TransformRunRow | null> {
  return enqueueRun(TRANSFORM_RUNS, db, jobs, { key: transform.id, ownerId: transform.ownerId }, trigger, undefined, triggeredBy);
}

/** Every minute: queue a run for each transform (of an active connector) whose slot has come. */
export const enqueueDueTransformRuns = (db: Database, jobs: JobQueue, now = new Date()) => enqueueDue(TRANSFORM_RUNS, db, jobs, now);
export const recoverLostTransformRuns = (db: Database, jobs: JobQueue) => recoverLost(TRANSFORM_RUNS, db, jobs);
export const recoverDeadTransformRuns = (db: Database, jobs: JobQueue, timeoutSeconds?: number) => recoverDead(TRANSFORM_RUNS, db, jobs, timeoutSeconds);
