import type { JobQueue } from "../jobs/queue.js";
import type { Database } from "../db/client.js";
import { cancelRun } from "./cancel.js";
import type { RunKind } from "./engine.js";

/**
 * Before a connector or transform (or what its run reads and writes) is deleted, its run is stopped (issue 39): a
 * queued run is cancelled with its job, a running one is asked to stop through the database (so a worker in another
 * process hears it too), and the delete waits, at most RUN_STOP_WAIT_SECONDS, for the worker to let go: once it has,
 * nothing more lands and its slot is free. A worker checks the flag before each write and treats a run whose row is gone
 * as cancelled, so even a run that slips in after this wait writes nothing.
 */

/** How long a delete waits for a running run's worker to stop (its batch in flight lands first). */
export function stopWaitSeconds(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.RUN_STOP_WAIT_SECONDS);
  return Number.isFinite(n) && n > 0 ? n : 30;
}

/** How often the wait reads the run's status. */
const STOP_POLL_MS = 100;

/**
 * Cancels the key's open run and waits until no run of the key is running; answers whether it stopped in time (true
 * at once when nothing was queued or running).
 */
export async function stopRuns(kind: RunKind<unknown>, db: Database, jobs: JobQueue, key: string, waitSeconds = stopWaitSeconds()): Promise<boolean> {
  const result = await cancelRun(kind, db, jobs, key);
  if (result.outcome !== "stopping" && result.outcome !== "already_stopping") return true;
  const deadline = Date.now() + waitSeconds * 1000;
  for (;;) {
    if (!(await kind.runs.hasOpen(db, key))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
  }
}
