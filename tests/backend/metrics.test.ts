import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend, type RunningBackend } from "../../backend/server.js";
import { createLogger } from "../../backend/lib/log.js";
import { integrationLabel, metricsSettings } from "../../backend/lib/metrics.js";
import { fetchProvider } from "../../backend/integrations/sources/kit/http.js";
import type { SyncRun } from "../../contract/connectors.js";
import { api, createUserSession, startTestBackend, waitFor, waitForRun, type TestBackend } from "../support/backend.js";
import { seedDatagenConnector } from "../support/seed.js";
import { freePort } from "../support/ports.js";

/**
 * Prometheus metrics (issue 52 item 4). An api process with METRICS_PORT set (0: a free port) queues a sync that
 * nothing performs yet, so the queue gauges can be read while the sync waits, with no race against a worker; then a
 * second backend in this process (role all: a worker and the scheduler passes, metrics off) performs it, and the
 * counters move. Both backends share this process's counters, as the processes of one role would each keep their own.
 */
let t: TestBackend;
let worker: RunningBackend | undefined;
let cookie: string;
let email: string;

beforeAll(async () => {
  t = await startTestBackend({ role: "api", env: { NODE_ENV: "test", METRICS_PORT: "0", METRICS_HOST: "127.0.0.1" } });
  email = "metrics-watcher@example.com";
  cookie = (await createUserSession(t, email, "Metrics Watcher")).cookie;
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await t?.stop();
});

async function scrape(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${t.backend.metricsPort}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** One sample's value: `name` with exactly these labels; undefined when the text has none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const seen = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.keys(seen).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => seen[k] === v)) return Number(match[3]);
  }
  return undefined;
}

/** Like sample, for a series that must be there (a counter of a known label set exists from the start at 0). */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = sample(text, name, labels);
  if (found === undefined) throw new Error(`no sample ${name}${JSON.stringify(labels)} in:\n${text.split("\n").filter((l) => l.startsWith("tributary_")).join("\n")}`);
  return found;
}

const SYNC = { kind: "sync" };
const SUCCEEDED = { kind: "sync", outcome: "succeeded" };

describe("metrics (issue 52 item 4)", () => {
  it("a sync moves the counters: queued, then started, finished, records and bytes written; the queue empties", async () => {
    const company = "Quillfeather Metrics Ltd";
    const { connectorId, sourceId } = await seedDatagenConnector(t, cookie, { name: "Metrics watched connector", company, meetingsPerDay: 2, lookbackDays: 1 });
    const before = await scrape();
    expect(value(before, "tributary_queue_depth", SYNC)).toBe(0);
    expect(value(before, "tributary_queue_oldest_age_seconds", SYNC)).toBe(0);

    const queued = await api(t, cookie, "POST", `/connectors/${connectorId}/sync`);
    expect(queued.status).toBe(202);
    const runId = queued.body.run.id as string;

    // During the sync, before any worker exists: the run waits in the queue, and nothing has started.
    const waiting = await scrape();
    expect(value(waiting, "tributary_queue_depth", SYNC)).toBe(1);
    expect(value(waiting, "tributary_queue_depth", { kind: "transform" })).toBe(0);
    expect(value(waiting, "tributary_queue_oldest_age_seconds", SYNC)).toBeGreaterThanOrEqual(0);
    expect(value(waiting, "tributary_runs_started_total", SYNC)).toBe(value(before, "tributary_runs_started_total", SYNC));

    // A worker (and scheduler) with metrics off: METRICS_PORT empty is unset.
    worker = await startBackend({ role: "all", env: { ...t.env, METRICS_PORT: "" }, log: createLogger("silent") });
    expect(worker.metricsPort).toBeUndefined();
    const run = await waitForRun<SyncRun>(t, cookie, `/connectors/${connectorId}`, runId);
    expect(run).toMatchObject({ status: "succeeded", error: null });
    expect(run.records).toBeGreaterThan(0);
    expect(run.bytes).toBeGreaterThan(0);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    expect(moved("tributary_runs_started_total", SYNC)).toBe(1);
    expect(moved("tributary_runs_finished_total", SUCCEEDED)).toBe(1);
    expect(moved("tributary_runs_finished_total", { kind: "sync", outcome: "failed" })).toBe(0);
    expect(moved("tributary_run_duration_seconds_count", SUCCEEDED)).toBe(1);
    expect(moved("tributary_run_duration_seconds_sum", SUCCEEDED)).toBeGreaterThan(0);
    expect(moved("tributary_sync_records_written_total")).toBe(run.records);
    expect(moved("tributary_sync_bytes_written_total")).toBe(run.bytes);
    expect(moved("tributary_runs_started_total", { kind: "transform" })).toBe(0);
    expect(value(after, "tributary_queue_depth", SYNC)).toBe(0);
    expect(value(after, "tributary_queue_oldest_age_seconds", SYNC)).toBe(0);
    // Node's own metrics are there too.
    expect(value(after, "process_cpu_user_seconds_total")).toBeGreaterThan(0);

    // The worker's scheduler passes its first time as it starts, and every SCHEDULER_PASS_SECONDS after.
    const passes = await waitFor("a timed scheduler pass", async () => {
      const text = await scrape();
      return (sample(text, "tributary_scheduler_pass_seconds_count", SYNC) ?? 0) >= 1 && text;
    });
    expect(value(passes, "tributary_scheduler_pass_seconds_count", { kind: "transform" })).toBeGreaterThanOrEqual(0);

    // No id, name, address or secret of the user's, and every label of ours is one of a few fixed values.
    for (const secret of [t.secretKey, t.databaseUrl, email, "Metrics Watcher", "Metrics watched connector", company, connectorId, sourceId, runId]) expect(passes).not.toContain(secret);
    for (const line of passes.split("\n").filter((l) => l.startsWith("tributary_"))) {
      for (const [, label, labelValue] of line.matchAll(/(\w+)="([^"]*)"/g)) {
        if (label === "kind") expect(["sync", "transform"]).toContain(labelValue);
        else if (label === "outcome") expect(["succeeded", "failed", "cancelled"]).toContain(labelValue);
        else if (label === "le") expect(labelValue).toMatch(/^(\+Inf|\d+(\.\d+)?(e[+-]?\d+)?)$/);
        else expect(label).toBe("integration");
      }
    }
  });

  it("provider requests and their failures (no answer, 5xx, 429) are counted by integration, under a lower-case name", async () => {
    const provider = http.createServer((request, response) => {
      if (request.url === "/ok") response.writeHead(200).end("{}");
      else if (request.url === "/busy") response.writeHead(429, { "retry-after": "3600" }).end();
      else response.writeHead(503).end();
    });
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    const closed = await freePort();
    try {
      const before = await scrape();
      const count = (text: string, name: string, integration: string) => sample(text, name, { integration }) ?? 0;
      expect((await fetchProvider("Zoom", `${base}/ok`)).status).toBe(200);
      expect((await fetchProvider("Zoom", `${base}/down`)).status).toBe(503);
      // A Retry-After longer than a reader waits in place fails at once, after the one request.
      await expect(fetchProvider("Zoom", `${base}/busy`)).rejects.toThrow(/429/);
      await expect(fetchProvider("Microsoft Graph", `http://127.0.0.1:${closed}/`)).rejects.toThrow(/could not be reached/);
      const after = await scrape();
      const moved = (name: string, integration: string) => count(after, name, integration) - count(before, name, integration);
      expect(moved("tributary_provider_requests_total", "zoom")).toBe(3);
      expect(moved("tributary_provider_request_failures_total", "zoom")).toBe(2);
      expect(moved("tributary_provider_requests_total", "microsoft_graph")).toBe(1);
      expect(moved("tributary_provider_request_failures_total", "microsoft_graph")).toBe(1);
      expect(after).not.toContain(base);
    } finally {
      await new Promise((resolve) => provider.close(resolve));
    }
  });

  it("serves nothing but GET /metrics on its port, and nothing of it on the API's port", async () => {
    const other = await fetch(`http://127.0.0.1:${t.backend.metricsPort}/`);
    expect(other.status).toBe(404);
    await other.text();
    const head = await fetch(`http://127.0.0.1:${t.backend.metricsPort}/metrics`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const onApi = await fetch(`${t.url}/metrics`);
    expect(onApi.status).toBe(404);
    await onApi.text();
  });

  it("is off unless METRICS_PORT is set, and a METRICS_PORT that is not a port stops the start", async () => {
    expect(metricsSettings({})).toBeNull();
    expect(metricsSettings({ METRICS_PORT: " " })).toBeNull();
    expect(metricsSettings({ METRICS_PORT: "9464" })).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(metricsSettings({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" })).toEqual({ port: 9464, host: "0.0.0.0" });
    for (const bad of ["abc", "-1", "65536", "94.64"]) expect(() => metricsSettings({ METRICS_PORT: bad })).toThrow(/METRICS_PORT/);
    // Refused before the backend makes anything (no migration, no connection).
    await expect(startBackend({ role: "api", env: { ...t.env, METRICS_PORT: "not-a-port" }, log: createLogger("silent") })).rejects.toThrow(/METRICS_PORT/);
    expect(integrationLabel("Microsoft Graph")).toBe("microsoft_graph");
    expect(integrationLabel("Zoom")).toBe("zoom");
  });
});
