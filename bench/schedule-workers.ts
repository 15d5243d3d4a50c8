/**
 * The scheduler and its workers at 10,000 connectors, in real time (issue 36, item 6): the delay from each run's slot
 * to a worker starting it, the scheduler's pass time, Postgres's CPU, runs missed or doubled.
 *
 * An embedded Postgres, migrated; 10,000 hourly connectors of one user, each with a tiny data-generator source (one
 * meeting a day, a day's lookback) and one of BENCH_SCHEDULE_DESTINATIONS local destinations, each with a run just
 * now, so that each comes due at its own slot (spread over the hour by its id). Then the product's own processes, as
 * the README's deployment section runs them: one `backend/main.ts --role scheduler` and two `--role worker`, with
 * their default settings. After BENCH_SCHEDULE_WORKERS_MINUTES (120: two slots of every connector) the benchmark
 * waits for the last queued runs to end, stops the processes, and reads the runs table and the scheduler's log.
 *
 * `npx tsx bench/schedule-workers.ts` prints a Markdown section (bench/run.ts takes it into bench/RESULTS.md with
 * BENCH_PARTS=schedule-workers). Environment: BENCH_SCHEDULE_CONNECTORS (10000), BENCH_SCHEDULE_WORKERS_MINUTES (120),
 * BENCH_SCHEDULE_DESTINATIONS (100), BENCH_SCHEDULE_WORKERS_PG_PORT (54372), BENCH_KEEP_DATA=1 keeps the folder.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../backend/db/embedded.js";
import { applyMigrations } from "../backend/db/migrate.js";
import { connectDatabase } from "../backend/db/client.js";
import { insertCredential, insertSource } from "../backend/db/sources.js";
import { latestSlot } from "../backend/runs/schedule.js";
import { mdTable } from "./lib/report.js";
import { makeLocalDestination } from "./lib/local-destination.js";
import { postgresCpuMs, processCpuMs, quantile } from "./lib/processes.js";

const CONNECTORS = Number(process.env.BENCH_SCHEDULE_CONNECTORS ?? 10_000);
const MINUTES = Number(process.env.BENCH_SCHEDULE_WORKERS_MINUTES ?? 120);
const DESTINATIONS = Number(process.env.BENCH_SCHEDULE_DESTINATIONS ?? 100);
const PG_PORT = Number(process.env.BENCH_SCHEDULE_WORKERS_PG_PORT ?? 54_372);
const WORKERS = 2;
const TARGETS = { delayP99Seconds: 60, passP99Ms: 1_000, missed: 0, doubled: 0 };
const HOUR_MS = 3_600_000;
const root = path.resolve(import.meta.dirname, "..");
const say = (line: string) => console.error(`[bench schedule-workers] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Warnings and errors of the processes, each said once. */
const seen = new Set<string>();

/** A backend process of `role`; the scheduler's debug lines (one per pass, with its time) are kept. */
function startRole(role: "scheduler" | "worker", env: NodeJS.ProcessEnv, passes: number[]): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "backend/main.ts"), "--role", role], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: role === "scheduler" ? "debug" : "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let rest = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      try {
        const entry = JSON.parse(line) as { job?: string; ms?: number; level?: number; msg?: string };
        if (entry.job === "sync-scheduler" && typeof entry.ms === "number") passes.push(entry.ms);
        else if ((entry.level ?? 0) >= 40 && !seen.has(`${role}: ${entry.msg}`)) {
          seen.add(`${role}: ${entry.msg}`);
          say(`${role}: ${entry.msg}`);
        }
      } catch {
        if (line.trim()) say(`${role}: ${line.slice(0, 300)}`);
      }
    }
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function main() {
  if (!(Number.isInteger(CONNECTORS) && CONNECTORS > 0)) throw new Error("BENCH_SCHEDULE_CONNECTORS must be a positive whole number");
  if (!(MINUTES > 0)) throw new Error("BENCH_SCHEDULE_WORKERS_MINUTES must be a positive number");
  if (!(Number.isInteger(DESTINATIONS) && DESTINATIONS > 0)) throw new Error("BENCH_SCHEDULE_DESTINATIONS must be a positive whole number");
  const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-schedule-workers-"));
  const dataDir = path.join(folder, "data");
  say(`Starting an embedded Postgres on port ${PG_PORT} in ${folder}`);
  const server = await startEmbeddedPostgres({ dataDir: folder, port: PG_PORT, ephemeral: true });
  const handle = connectDatabase(server.url, 4);
  const children: ChildProcess[] = [];
  try {
    await applyMigrations(server.url);
    const pool = handle.pool;
    const { rows: users } = await pool.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('bench', 'schedule-workers', 'schedule@example.com', 'Schedule') RETURNING id");
    const owner = users[0]!.id;
    const credential = await insertCredential(handle.db, owner, { integrationName: "datagen", secret: null, metadata: { generator: "tributary-datagen" } });
    const source = await insertSource(handle.db, owner, {
      name: "Data generator",
      description: "",
      integrationName: "datagen",
      integrationLabel: "Data Generator",
      credentialId: credential.id,
      status: "active",
      metadata: { company: "Acme Rockets", format: "zoom", meetings_per_day: 1 },
    });
    say(`Making ${DESTINATIONS} local destinations`);
    const destinationIds: string[] = [];
    for (let n = 0; n < DESTINATIONS; n++) {
      const { id } = await makeLocalDestination(handle.db, dataDir, owner, `Local ${n + 1}`);
      destinationIds.push(id);
    }
    say(`Seeding ${CONNECTORS.toLocaleString("en-US")} hourly connectors, each with a run just now`);
    const seeded = new Date();
    await pool.query(
      `INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days, created_at)
       SELECT $1, 'Connector ' || n, $2, 'hourly', 1, $3::timestamptz - interval '1 day' FROM generate_series(1, ${CONNECTORS}) n`,
      [owner, source.id, seeded],
    );
    await pool.query(
      `INSERT INTO connector_destinations (connector_id, destination_id)
       SELECT id, ($1::uuid[])[1 + (row_number() OVER (ORDER BY id) - 1) % $2] FROM connectors`,
      [destinationIds, DESTINATIONS],
    );
    await pool.query("INSERT INTO sync_runs (connector_id, owner_id, status, trigger, created_at, finished_at) SELECT id, owner_id, 'succeeded', 'create', $1, $1 FROM connectors", [seeded]);
    await pool.query("ANALYZE");

    const env: NodeJS.ProcessEnv = { NODE_ENV: "production", APP_URL: "https://localhost:3000", DATABASE_URL: server.url, DATA_DIR: dataDir, TRIBUTARY_SECRET_KEY: randomBytes(32).toString("base64url") };
    const passes: number[] = [];
    const pgData = path.resolve(folder, "pg");
    const cpu0 = postgresCpuMs(pgData);
    const start = new Date();
    say(`Starting a scheduler and ${WORKERS} workers for ${MINUTES} minutes`);
    const scheduler = startRole("scheduler", env, passes);
    const workers = Array.from({ length: WORKERS }, () => startRole("worker", env, passes));
    children.push(scheduler, ...workers);
    const end = new Date(start.getTime() + MINUTES * 60_000);
    const count = async () =>
      (await pool.query<{ status: string; n: number }>("SELECT status, count(*)::int AS n FROM sync_runs WHERE trigger = 'schedule' GROUP BY status ORDER BY status")).rows
        .map((r) => `${r.status} ${r.n}`)
        .join(", ");
    while (Date.now() < end.getTime()) {
      await sleep(Math.min(5 * 60_000, end.getTime() - Date.now()));
      say(`${((Date.now() - start.getTime()) / 60_000).toFixed(0)} min: ${await count()}`);
    }
    // Two more passes queue the slots of the window's last seconds (later slots are not counted); then the scheduler
    // stops, and the runs it queued are waited for.
    await sleep(30_000);
    await stop(scheduler);
    const settled = Date.now() + 10 * 60_000;
    while (Date.now() < settled && (await pool.query("SELECT 1 FROM sync_runs WHERE status IN ('queued', 'running') LIMIT 1")).rowCount) await sleep(5_000);
    const postgresMs = postgresCpuMs(pgData) - cpu0;
    const workerMs = workers.map((worker) => processCpuMs(worker.pid!));
    await Promise.all(workers.map(stop));

    // Each scheduled run's slot is the latest at or before its queuing; its delay is from that slot to its start.
    const { rows: runs } = await pool.query<{ connector_id: string; created_at: Date; started_at: Date | null; status: string }>(
      "SELECT connector_id, created_at, started_at, status FROM sync_runs WHERE trigger = 'schedule'",
    );
    const perConnector = new Map<string, number>();
    const delays: number[] = [];
    let notStarted = 0;
    for (const run of runs) {
      const slot = latestSlot(run.connector_id, "hourly", run.created_at).getTime();
      if (slot < start.getTime() || slot >= end.getTime()) continue;
      perConnector.set(run.connector_id, (perConnector.get(run.connector_id) ?? 0) + 1);
      if (run.started_at) delays.push((run.started_at.getTime() - slot) / 1000);
      else notStarted++;
    }
    const { rows: all } = await pool.query<{ id: string }>("SELECT id FROM connectors");
    let missed = 0;
    let doubled = 0;
    for (const { id } of all) {
      let expected = 0;
      for (let at = latestSlot(id, "hourly", new Date(end.getTime() - 1)).getTime(); at >= start.getTime(); at -= HOUR_MS) expected++;
      const got = perConnector.get(id) ?? 0;
      if (got < expected) missed += expected - got;
      if (got > expected) doubled += got - expected;
    }
    const statuses = await count();
    delays.sort((a, b) => a - b);
    const passMs = [...passes].sort((a, b) => a - b);
    const ok = (value: number, target: number) => (value <= target ? "met" : "**missed**");
    const minutes = (Date.now() - start.getTime()) / 60_000;
    const rows = [
      ["Connectors (hourly) · local destinations", `${CONNECTORS.toLocaleString("en-US")} · ${DESTINATIONS}`, ""],
      ["Processes", `1 scheduler, ${WORKERS} workers (defaults: a pass every 10 s, 4 syncs at once per worker)`, ""],
      ["Slots in the window", `${MINUTES} min: ${delays.length + notStarted} runs queued (${statuses})`, ""],
      ["Delay from slot to start: p50 / p99 / max", delays.length ? `${quantile(delays, 0.5).toFixed(1)} / ${quantile(delays, 0.99).toFixed(1)} / ${delays.at(-1)!.toFixed(1)} s` : "none", delays.length ? `p99 ≤ ${TARGETS.delayP99Seconds} s: ${ok(quantile(delays, 0.99), TARGETS.delayP99Seconds)}` : ""],
      ["Runs never started", String(notStarted), ""],
      ["Scheduler pass time: p50 / p99 / max", passMs.length ? `${quantile(passMs, 0.5)} / ${quantile(passMs, 0.99)} / ${passMs.at(-1)} ms (${passMs.length} passes)` : "none", passMs.length ? `p99 ≤ ${TARGETS.passP99Ms} ms: ${ok(quantile(passMs, 0.99), TARGETS.passP99Ms)}` : ""],
      ["Postgres CPU", `${(postgresMs / 1000 / minutes).toFixed(1)} s per minute (${((postgresMs / 1000 / (minutes * 60)) * 100).toFixed(0)}% of a core)`, ""],
      ["Workers' CPU", workerMs.map((ms) => `${((ms / 1000 / (minutes * 60)) * 100).toFixed(0)}%`).join(", ") + " of a core", ""],
      ["Slots missed", String(missed), `${TARGETS.missed}: ${ok(missed, TARGETS.missed)}`],
      ["Slots queued twice", String(doubled), `${TARGETS.doubled}: ${ok(doubled, TARGETS.doubled)}`],
    ];
    console.log(`### ${CONNECTORS.toLocaleString("en-US")} hourly connectors, a scheduler and ${WORKERS} workers for ${MINUTES} minutes (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores)\n`);
    console.log(mdTable(["", "measured", "target"], rows));
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await handle.close();
    await server.stop();
    if (!process.env.BENCH_KEEP_DATA) rmSync(folder, { recursive: true, force: true });
  }
}

await main();
