import http from "node:http";
import type { AddressInfo } from "node:net";
import type pg from "pg";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Logger } from "./log.js";

/**
 * Prometheus metrics of this process (issue 52 item 4). The counters and histograms live in one registry per process
 * and are always kept (an increment costs next to nothing); they are only served when METRICS_PORT is set
 * (startMetricsServer). Every label value is one of a small fixed set (a run kind, an outcome, an integration's
 * name): never an id, a name a user typed, an address or a secret, so the series stay few and the text holds no
 * user data.
 */
export const registry = new Registry();

/** The kinds of run the runs engine performs (backend/runs/engine.ts RunKind.name). */
export type MetricsRunKind = "sync" | "transform";
export type RunOutcomeLabel = "succeeded" | "failed" | "cancelled";
const RUN_KINDS: MetricsRunKind[] = ["sync", "transform"];
const OUTCOMES: RunOutcomeLabel[] = ["succeeded", "failed", "cancelled"];

const runsStarted = new Counter({
  name: "tributary_runs_started_total",
  help: "Runs whose first attempt started in this process.",
  labelNames: ["kind"] as const,
  registers: [registry],
});
const runsFinished = new Counter({
  name: "tributary_runs_finished_total",
  help: "Runs that ended for good in this process (a worker's run, or a dead or lost run a sweep or scheduler pass settled), by outcome.",
  labelNames: ["kind", "outcome"] as const,
  registers: [registry],
});
const runRetries = new Counter({
  name: "tributary_run_retries_total",
  help: "Attempts that failed in this process and were handed back to the queue to be retried.",
  labelNames: ["kind"] as const,
  registers: [registry],
});
const runDuration = new Histogram({
  name: "tributary_run_duration_seconds",
  help: "From a run's first attempt starting to its end, for runs that ended in this process.",
  labelNames: ["kind", "outcome"] as const,
  // Runs take from under a second (a small sync) to hours (a large backfill; the job expires at 3 h by default).
  buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 10_800],
  registers: [registry],
});
const syncRecords = new Counter({
  name: "tributary_sync_records_written_total",
  help: "Records (meetings, e-mails) that syncs ending in this process wrote to their destinations.",
  registers: [registry],
});
const syncBytes = new Counter({
  name: "tributary_sync_bytes_written_total",
  help: "Bytes that syncs ending in this process wrote to their destinations.",
  registers: [registry],
});
const providerRequests = new Counter({
  name: "tributary_provider_requests_total",
  help: "HTTP requests to a source's provider API (every try, a 429's retries included), by integration.",
  labelNames: ["integration"] as const,
  registers: [registry],
});
const providerFailures = new Counter({
  name: "tributary_provider_request_failures_total",
  help: "Provider requests that failed: no answer (network error, timeout), a 5xx or a 429, by integration.",
  labelNames: ["integration"] as const,
  registers: [registry],
});
const schedulerPass = new Histogram({
  name: "tributary_scheduler_pass_seconds",
  help: "How long one scheduler pass took (settling dead and lost runs, then queueing the due ones), by run kind.",
  labelNames: ["kind"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

// Every series of a known label set exists from the start at 0: a rate() over a counter that first appears at 1 misses
// that first increment, and an operator sees what there is to watch before anything has happened.
for (const kind of RUN_KINDS) {
  runsStarted.inc({ kind }, 0);
  runRetries.inc({ kind }, 0);
  schedulerPass.zero({ kind });
  for (const outcome of OUTCOMES) {
    runsFinished.inc({ kind, outcome }, 0);
    runDuration.zero({ kind, outcome });
  }
}
syncRecords.inc(0);
syncBytes.inc(0);

/** A run's first attempt started. */
export function runStarted(kind: MetricsRunKind): void {
  runsStarted.inc({ kind });
}

/** An attempt failed and the run goes back to the queue for another. */
export function runRetried(kind: MetricsRunKind): void {
  runRetries.inc({ kind });
}

/**
 * A run ended for good. `seconds`: since its first attempt started (unknown for a run settled by recovery, whose start
 * this process did not see); `records`/`bytes`: what a sync wrote before it ended (succeeded, or cancelled at a batch
 * boundary with what it had written).
 */
export function runFinished(kind: MetricsRunKind, outcome: RunOutcomeLabel, done: { seconds?: number; records?: number; bytes?: number } = {}): void {
  runsFinished.inc({ kind, outcome });
  if (done.seconds !== undefined && Number.isFinite(done.seconds)) runDuration.observe({ kind, outcome }, Math.max(0, done.seconds));
  // Only a sync's records are written to destinations; a transform's are rows of its results, counted by its runs.
  if (kind !== "sync") return;
  if (done.records && done.records > 0) syncRecords.inc(done.records);
  if (done.bytes && done.bytes > 0) syncBytes.inc(done.bytes);
}

/**
 * The label of a provider: its display name as the readers pass it to fetchProvider ("Zoom", "Microsoft Graph"), in
 * lower case with anything but letters and digits as "_": "zoom", "microsoft_graph". Those names are constants of the
 * code, so the values stay few; the cap keeps a mistaken caller from making long ones.
 */
export function integrationLabel(name: string): string {
  const label = name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 40);
  return label || "unknown";
}

/** One request to a provider's API, and whether it failed (no answer, a 5xx or a 429). */
export function providerRequest(integration: string, failed: boolean): void {
  const label = integrationLabel(integration);
  providerRequests.inc({ integration: label });
  // Created at the first request, at 0, so that a failure ratio has its denominator's twin from the start.
  providerFailures.inc({ integration: label }, failed ? 1 : 0);
}

/** One scheduler pass of a run kind took this long. */
export function schedulerPassed(kind: MetricsRunKind, seconds: number): void {
  schedulerPass.observe({ kind }, Math.max(0, seconds));
}

/** The queued runs of each kind: how many, and how long the oldest has waited (0 when none). */
interface QueueReading {
  kind: MetricsRunKind;
  depth: number;
  oldest: number;
}

/**
 * One statement for both kinds and both gauges. A run waiting for a retry is queued again, its age counted from when
 * it was first queued: a retried run that waits long is worth seeing. The database's clock on both sides of the
 * subtraction, so a worker's drifting clock cannot make an age negative.
 */
const QUEUE_SQL = `
  SELECT 'sync' AS kind, count(*)::int AS depth, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest
    FROM sync_runs WHERE status = 'queued'
  UNION ALL
  SELECT 'transform', count(*)::int, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8
    FROM transform_runs WHERE status = 'queued'`;

/**
 * The queue gauges of one backend, read from its runs tables when scraped (not kept up to date between scrapes: the
 * database is the truth, shared by every process). Their own registry, because they hold that backend's database.
 */
function queueRegistry(pool: pg.Pool, log: Logger): Registry {
  const own = new Registry();
  // The two gauges are collected side by side at each scrape: the first asks, the second shares its answer.
  let reading: Promise<QueueReading[] | null> | undefined;
  const read = () =>
    (reading ??= pool
      .query<QueueReading>(QUEUE_SQL)
      .then((result) => result.rows)
      .catch((error: unknown) => {
        log.warn({ err: (error as Error).message }, "metrics: the run queues could not be read; the queue gauges are left out of this scrape");
        return null;
      })
      .finally(() => {
        reading = undefined;
      }));
  const gauge = (name: string, help: string, value: (row: QueueReading) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["kind"] as const,
      registers: [own],
      async collect() {
        const rows = await read();
        // An unreadable database shows as missing series, never as a stale or made-up 0.
        this.reset();
        for (const row of rows ?? []) this.set({ kind: row.kind }, value(row));
      },
    });
  gauge("tributary_queue_depth", "Runs queued (waiting for a worker, or for a retry's back-off), by kind. The same in every process: aggregate with max.", (row) => row.depth);
  gauge("tributary_queue_oldest_age_seconds", "How long the oldest queued run has waited since it was queued, by kind (0 when none is). The same in every process: aggregate with max.", (row) => row.oldest);
  return own;
}

let defaultMetrics = false;

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics (Prometheus text format) on `host`:`port`: this process's registry, Node's own metrics (CPU,
 * memory, event loop lag, GC) and the queue gauges read from `pool`. Nothing else is served there. The default host is
 * loopback: the metrics tell the volume of work, and a scraper on another machine is a deliberate choice (METRICS_HOST).
 */
export async function startMetricsServer(options: { port: number; host: string; pool: pg.Pool; log: Logger }): Promise<MetricsServer> {
  // Once per process: prom-client's default metrics register on a registry once (a second call throws), and a test
  // process may start several backends.
  if (!defaultMetrics) {
    collectDefaultMetrics({ register: registry });
    defaultMetrics = true;
  }
  const queues = queueRegistry(options.pool, options.log);
  const server = http.createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found: metrics are at GET /metrics.\n");
      return;
    }
    Promise.all([registry.metrics(), queues.metrics()]).then(
      ([own, queue]) => {
        response.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
        response.end(request.method === "HEAD" ? undefined : `${own}\n${queue}`);
      },
      (error: unknown) => {
        options.log.error({ err: error }, "metrics: a scrape failed");
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("The metrics could not be collected.\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // A scraper keeps its connection open between scrapes: closing must not wait for it.
  server.keepAliveTimeout = 5_000;
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * METRICS_PORT / METRICS_HOST from a backend's environment: null when METRICS_PORT is unset or empty (metrics are off
 * by default); 0 picks a free port (tests). A value that is not a port stops the start, as any bad setting does.
 */
export function metricsSettings(env: Record<string, string | undefined>): { port: number; host: string } | null {
  const raw = env.METRICS_PORT?.trim();
  if (!raw) return null;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65_535) throw new Error(`Invalid backend configuration:\n  METRICS_PORT: "${raw}" is not a port number (0-65535)`);
  return { port, host: env.METRICS_HOST?.trim() || "127.0.0.1" };
}
