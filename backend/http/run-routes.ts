import type { Context, Hono } from "hono";
import { type ApiEnv } from "./context.js";
import { ApiError } from "../lib/requests.js";
import type { Database } from "../db/client.js";
import { isUuid } from "../db/values.js";
import { logWasPruned } from "../db/history.js";
import type { RunFailureRecord } from "../db/runs.js";
import type { RunLogRecord } from "../db/run-logs.js";
import { RUN_MESSAGES, runLogFileName, runLogText } from "../../contract/runs.js";
import { presentRunFailure, type RunViews } from "../present/runs.js";
import { renderChart } from "../transforms/charts/render.js";
import type { ChartDeclaration } from "../transforms/charts/types.js";
import { isTimeZone } from "../../contract/run-operations.js";

/** What the run routes read of a run's details record. */
type RunDetailsCore = { id: string; createdAt: Date; log: RunLogRecord[] };

/** The newest runs the history's charts read (30 days of a connector synced every few minutes). */
const RUN_CHART_LIMIT = 5_000;
type ChartRun = { started_at: string | null; finished_at: string | null; records: number };

/** The history's charts: what a run moved, and how long it took, per day. */
function runCharts(kind: "sync" | "transform"): ChartDeclaration[] {
  const moved = kind === "sync" ? "synced" : "read";
  return [
    {
      id: "records_per_day",
      title: `Records ${moved} per day`,
      table: "runs",
      description: `How many records the runs of each of the last 30 days ${moved}.`,
      mark: "line",
      x: { field: "started_at", title: "Day", type: "time", step: "day", lastDays: 30 },
      y: { field: "records", title: "Records", type: "quantity", aggregate: "sum" },
    },
    {
      id: "duration_per_day",
      title: "Run duration per day",
      table: "runs",
      description: "How long the finished runs of each of the last 30 days took, on average.",
      mark: "line",
      x: { field: "started_at", title: "Day", type: "time", step: "day", lastDays: 30 },
      y: { field: "duration_ms", title: "Average duration", type: "quantity", aggregate: "mean", unit: "milliseconds" },
    },
  ];
}

/** Runs in one page of a history. */
export const RUNS_PAGE = 50;

/** What the run calls need of a connector or a transform: its owner's record, its runs, and one run's details. */
export interface RunTarget<T extends { id: string; name: string }, Run, Details extends RunDetailsCore> {
  /** The caller's record of the path's :id, or a 404 (ApiError). */
  owned(c: Context<ApiEnv>): Promise<T>;
  /** The newest `limit` runs, or with `before` (a run's id) the `limit` runs older than that one. */
  list(db: Database, id: string, limit: number, before?: string): Promise<Run[]>;
  failing(db: Database, id: string): Promise<RunFailureRecord | null>;
  details(db: Database, ownerId: string, record: T, runId: string): Promise<Details | null>;
  present: RunViews<T, Run, Details>;
  /** "sync" or "transform": names the log file. */
  kind: "sync" | "transform";
}

/**
 * GET /{base}/:id/runs (the history, newest first, 50 at a time — ?before= a run's id for the page after it, has_more
 * when there is one — and whether it is failing: the details page's banner),
 * GET /{base}/:id/runs/:runId (one run: attempts, where it landed, its log) and GET /{base}/:id/runs/:runId/log (the
 * log as a text file). Another user's run, or a run of another record, is a 404.
 */
export function addRunRoutes<T extends { id: string; name: string }, Run, Details extends RunDetailsCore>(
  routes: Hono<ApiEnv>,
  base: "connectors" | "transforms",
  target: RunTarget<T, Run, Details>,
): void {
  routes.get(`/${base}/:id/runs`, async (c) => {
    const record = await target.owned(c);
    const before = c.req.query("before") || undefined;
    if (before !== undefined && !isUuid(before)) throw new ApiError(400, RUN_MESSAGES.badPage);
    const { db } = c.var.services;
    const [page, failing] = await Promise.all([target.list(db, record.id, RUNS_PAGE + 1, before), target.failing(db, record.id)]);
    const runs = page.slice(0, RUNS_PAGE).map((run) => target.present.run(run));
    return c.json({ status: "success", runs, failing: failing && presentRunFailure(failing), has_more: page.length > RUNS_PAGE, message: "Runs" });
  });

  /**
   * The run history as pictures (issue 54): records and average duration per day over the last 30 days, in the reader's
   * time zone (?tz=, default UTC), drawn as the results' charts are.
   */
  routes.get(`/${base}/:id/runs/charts`, async (c) => {
    const zone = c.req.query("tz") || "UTC";
    if (!isTimeZone(zone)) throw new ApiError(400, "tz must be a time zone such as Europe/Paris.");
    const record = await target.owned(c);
    const since = Date.now() - 30 * 86_400_000;
    const runs = (await target.list(c.var.services.db, record.id, RUN_CHART_LIMIT)).map((run) => target.present.run(run) as unknown as ChartRun);
    const rows = runs
      .filter((run) => run.started_at && Date.parse(run.started_at) >= since)
      .map((run) => ({ started_at: run.started_at, records: run.records, duration_ms: run.finished_at ? Date.parse(run.finished_at) - Date.parse(run.started_at!) : null }));
    const charts = [];
    for (const chart of runCharts(target.kind)) charts.push(await renderChart(chart, rows, zone));
    return c.json({ charts, time_zone: zone });
  });

  const ownedRun = async (c: Context<ApiEnv>) => {
    const record = await target.owned(c);
    const run = await target.details(c.var.services.db, c.var.actor.ownerId, record, c.req.param("runId")!);
    if (!run) throw new ApiError(404, RUN_MESSAGES.notFound);
    const days = c.var.services.config.RUN_LOG_DAYS;
    return target.present.details(record, run, logWasPruned(run, days) ? days : null);
  };

  routes.get(`/${base}/:id/runs/:runId`, async (c) => c.json({ status: "success", run: await ownedRun(c), message: "Run" }));

  routes.get(`/${base}/:id/runs/:runId/log`, async (c) => {
    const run = await ownedRun(c);
    return c.body(runLogText(run.log), 200, {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": `attachment; filename="${runLogFileName(target.kind, run.id)}"`,
    });
  });
}
