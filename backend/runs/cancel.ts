import type { JobQueue } from "../jobs/queue.js";
import type { Database } from "../db/client.js";
import type { CancelResult, Executor, RunValues } from "../db/runs.js";
import { runFinished } from "../lib/metrics.js";
import { keepBeating } from "./heartbeat.js";
import type { RunKind, RunLog } from "./engine.js";

/**
 * Cancel of a sync or transform run (issue 27). A queued run is cancelled at once, its job with it. A running run is
 * asked to stop (`cancel_requested_at`): its worker reads the flag every CANCEL_POLL_SECONDS and aborts the attempt's
 * signal; the work stops at its next boundary (a sync between two batches, a transform between two steps or result
 * tables), lets what is in flight finish, and throws RunCancelledError; the engine ends the run `cancelled`, with no
 * retry and no failure alert. See docs/decisions/2026-11-26-cancel-and-backfill.md.
 */

/** How often a running run's worker looks whether it was asked to stop (one primary-key read). */
export const CANCEL_POLL_SECONDS = 0.5;

/** A run stopped because Cancel asked it to; `values` is what it did before it stopped (records, bytes). */
export class RunCancelledError extends Error {
  constructor(readonly values: RunValues = {}) {
    super("The run was cancelled.");
  }
}

/**
 * An attempt's cancel signal, aborted (with a RunCancelledError) once Cancel asks the run to stop, or once its row is
 * gone (its connector or transform deleted, perhaps by another process); `check` reads the flag now (the work asks
 * before each write, so that none starts after the click whatever the poll's pace); `stop` ends the watch.
 */
export function watchCancel(runs: { cancelRequested(db: Executor, id: string): Promise<boolean> }, db: Database, runId: string, log?: RunLog) {
  const controller = new AbortController();
  const check = async (): Promise<boolean> => {
    if (controller.signal.aborted) return true;
    if (await runs.cancelRequested(db, runId)) controller.abort(new RunCancelledError());
    return controller.signal.aborted;
  };
  const stop = keepBeating(check, CANCEL_POLL_SECONDS, (error) => log?.warn({ runId, err: (error as Error).message }, "reading a run's cancel request failed"));
  return { signal: controller.signal, stop, check };
}

/**
 * Cancels the key's open run (see RunTableQueries.cancelOpen): a queued run ends now and its job is cancelled (a
 * worker that fetched it meanwhile finds the run over and leaves it); a running run is asked to stop. Answers what
 * happened; cancelling twice, or after the run finished, is a no-op.
 */
export async function cancelRun(kind: RunKind<unknown>, db: Database, jobs: JobQueue, key: string): Promise<CancelResult> {
  const result = await kind.runs.cancelOpen(db, key);
  if (result.outcome !== "cancelled") return result;
  await kind.onStatus?.(db, key, "cancelled", new Date());
  // A run cancelled while queued ended without starting: counted as finished, with no duration.
  runFinished(kind.name, "cancelled");
  // Without a queue here (an API-only process that lost it) the job stays: its worker finds the run over and returns.
  if (result.jobId) await jobs.cancel(kind.queue, result.jobId).catch(() => {});
  return result;
}
