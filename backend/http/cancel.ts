import type { Context } from "hono";
import type { ApiEnv } from "./context.js";
import { cancelMessage, type CancelResponse } from "../../contract/run-operations.js";
import { cancelRun } from "../runs/cancel.js";
import type { RunKind } from "../runs/engine.js";
import { stopRuns } from "../runs/stop.js";
import { ApiError } from "./context.js";

/**
 * POST /connectors/{id}/cancel and /transforms/{id}/cancel, once the caller's ownership of `key` is checked: 200 when
 * the run is over (a queued run cancelled, or nothing was open: a no-op), 202 while a running one stops.
 */
export async function answerCancel(c: Context<ApiEnv>, kind: RunKind<unknown>, key: string, noun: "sync" | "run") {
  const { body, status } = await cancelFor(c, kind, key, noun);
  return c.json(body, status);
}

/** The cancel itself and its answer (shared with the public API's POST /api/v1/{connectors|transforms}/{id}/cancel). */
export async function cancelFor(c: { var: ApiEnv["Variables"] }, kind: RunKind<unknown>, key: string, noun: "sync" | "run"): Promise<{ body: CancelResponse; status: 200 | 202 }> {
  const result = await cancelRun(kind, c.var.services.db, c.var.services.queue, key);
  const body: CancelResponse = { status: "success", outcome: result.outcome, run_id: result.outcome === "none" ? null : result.runId, message: cancelMessage(result.outcome, noun) };
  return { body, status: result.outcome === "stopping" || result.outcome === "already_stopping" ? 202 : 200 };
}

/**
 * Before a delete of `key` (the caller's own, checked): its queued and running runs are stopped, and the delete waits for
 * the worker to let go (backend/runs/stop.ts). A worker that does not let go in time: 409, and nothing is deleted.
 */
export async function stopBeforeDelete(c: { var: ApiEnv["Variables"] }, kind: RunKind<unknown>, key: string, noun: "sync" | "run") {
  if (await stopRuns(kind, c.var.services.db, c.var.services.queue, key)) return;
  throw new ApiError(409, `Its ${noun} is still stopping after the batch it was writing. Try deleting again in a few seconds.`);
}
