import type { CancelResult, LatestRun, RunFailureRecord, RunStatus, SyncRunRow, TransformRunRow } from "../db/runs.js";
import type { ActorKind } from "../db/activity.js";
import type { RunLogRecord } from "../db/run-logs.js";
import type { RunFailure, RunLogLine } from "../../contract/runs.js";
import { cancelMessage, type CancelResponse } from "../../contract/run-operations.js";
import { iso } from "./values.js";

/**
 * The API's fields of a run of either kind (contract: syncRunSchema, transformRunSchema), in the order it answers them;
 * each kind adds its key and results (present/connectors.ts, present/transforms.ts).
 */
export function runFields(r: SyncRunRow | TransformRunRow) {
  return {
    id: r.id,
    status: r.status as RunStatus,
    trigger: r.trigger,
    cancel_requested_at: iso(r.cancelRequestedAt),
    created_at: iso(r.createdAt),
    started_at: iso(r.startedAt),
    finished_at: iso(r.finishedAt),
    records: r.records,
    error: r.error,
    // Who asked for it (issue 51): a member's or an API key's name, and which (null: the schedule, its creation).
    triggered_by: r.triggeredBy ?? null,
    triggered_via: r.triggeredBy ? ((r.triggeredVia as ActorKind | null) ?? null) : null,
  };
}

/** A record's newest run as its `last_run` answers it (a connector's adds the records it read). */
export function presentLastRun(run: LatestRun) {
  return { id: run.id, status: run.status, started_at: iso(run.startedAt), finished_at: iso(run.finishedAt), created_at: iso(run.createdAt), error: run.error };
}

/** The failure banner of a details page: failures in a row since the last success. */
export function presentRunFailure(f: RunFailureRecord): RunFailure {
  return { failures: f.failures, since: iso(f.since), first_run_id: f.firstRunId, last_run_id: f.lastRunId, last_error: f.lastError };
}

/** One line of a run's log. */
export function presentLogLine(line: RunLogRecord): RunLogLine {
  return { at: iso(line.at), level: line.level, message: line.message };
}

/** A kind's run in the API's shape, and one run's details (`logKeptDays`: set when its log was deleted for its age). */
export interface RunViews<T, Run, Details> {
  run(run: Run): { id: string };
  details(record: T, run: Details, logKeptDays: number | null): { id: string; log: RunLogLine[] };
}

/** A cancel's answer; `stopping`: the run is still stopping (202), else it is over or nothing was open (200). */
export function presentCancel(result: CancelResult, noun: "sync" | "run"): { body: CancelResponse; stopping: boolean } {
  const body: CancelResponse = { status: "success", outcome: result.outcome, run_id: result.outcome === "none" ? null : result.runId, message: cancelMessage(result.outcome, noun) };
  return { body, stopping: result.outcome === "stopping" || result.outcome === "already_stopping" };
}
