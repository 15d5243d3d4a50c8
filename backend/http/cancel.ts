import type { Context } from "hono";
import type { ApiEnv } from "./context.js";
import { cancelMessage, type CancelResponse } from "../../contract/run-operations.js";
import { cancelRun } from "../runs/cancel.js";
import type { RunKind } from "../runs/engine.js";
import { runQueue } from "../runs/queues.js";

/**
 * POST /connectors/{id}/cancel and /transforms/{id}/cancel, once the caller's ownership of `key` is checked: 200 when
 * the run is over (a queued run cancelled, or nothing was open: a no-op), 202 while a running one stops.
 */
export async function answerCancel(c: Context<ApiEnv>, kind: RunKind<unknown>, key: string, noun: "sync" | "run") {
  const result = await cancelRun(kind, c.var.services.db, runQueue(c.var.services.config.DATABASE_URL), key);
  const body: CancelResponse = { status: "success", outcome: result.outcome, run_id: result.outcome === "none" ? null : result.runId, message: cancelMessage(result.outcome, noun) };
  return c.json(body, result.outcome === "stopping" || result.outcome === "already_stopping" ? 202 : 200);
}
