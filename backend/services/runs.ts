import type { CancelResult } from "../db/runs.js";
import { cancelRun } from "../runs/cancel.js";
import type { RunKind } from "../runs/engine.js";
import { stopRuns } from "../runs/stop.js";
import type { Services } from "./deps.js";
import { conflict } from "./errors.js";

/** The queued or running run of `key` (a record the actor's, checked by the caller) cancelled, or asked to stop. */
export const cancelOpenRun = (deps: Services, kind: RunKind<unknown>, key: string): Promise<CancelResult> => cancelRun(kind, deps.db, deps.queue, key);

/**
 * Before a delete of `key` (the actor's own, checked): its queued and running runs are stopped, and the delete waits for
 * the worker to let go (backend/runs/stop.ts). A worker that does not let go in time: a conflict, and nothing is deleted.
 */
export async function stopBeforeDelete(deps: Services, kind: RunKind<unknown>, key: string, noun: "sync" | "run"): Promise<void> {
  if (await stopRuns(kind, deps.db, deps.queue, key)) return;
  throw conflict(`Its ${noun} is still stopping after the batch it was writing. Try deleting again in a few seconds.`);
}
