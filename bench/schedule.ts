/**
 * The sync scheduler at 10,000 connectors (issue 36, item 6): how long a pass takes, what it costs Postgres, and
 * whether any slot is missed or queued twice.
 *
 * An embedded Postgres, migrated; 10,000 hourly connectors (one user, one data-generator source), each with a run just
 * before the first pass, so nothing is due until its next slot (the slots spread over the hour by the connector's
 * id). Then the scheduler's pass, exactly as its job runs it (settle dead runs, requeue lost ones, queue the due
 * ones through a real pg-boss), once a minute of a clock that this benchmark moves a minute per pass, over
 * BENCH_SCHEDULE_SLOTS hours. Between passes every queued run is marked done and its job removed, as finished workers
 * leave them. The clock is moved by hand so that two hours of slots take minutes; what it cannot show is the delay
 * between a run's queuing and a worker starting it, which depends on the workers, not on the scheduler.
 *
 * `npx tsx bench/schedule.ts` prints a Markdown section (bench/run.ts takes it into bench/RESULTS.md with
 * BENCH_PARTS=schedule). Environment: BENCH_SCHEDULE_CONNECTORS (10000), BENCH_SCHEDULE_SLOTS (2),
 * BENCH_SCHEDULE_PG_PORT (54371), BENCH_KEEP_DATA=1 keeps the folder.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../backend/db/embedded.js";
import { applyMigrations } from "../backend/db/migrate.js";
import { connectDatabase } from "../backend/db/client.js";
import { createLogger } from "../backend/lib/log.js";
import { startJobs } from "../backend/jobs/boss.js";
import { pgBossQueue } from "../backend/jobs/queue.js";
import { enqueueDueRuns, recoverDeadSyncRuns, recoverLostSyncRuns, SYNC_QUEUE } from "../backend/sync/index.js";
import { defineJob } from "../backend/jobs/job.js";
import { runPayload } from "../backend/runs/jobs.js";
import { latestSlot } from "../backend/runs/schedule.js";
import { mdTable } from "./lib/report.js";
import { postgresCpuMs, quantile } from "./lib/processes.js";

const CONNECTORS = Number(process.env.BENCH_SCHEDULE_CONNECTORS ?? 10_000);
const SLOTS = Number(process.env.BENCH_SCHEDULE_SLOTS ?? 2);
const PG_PORT = Number(process.env.BENCH_SCHEDULE_PG_PORT ?? 54_371);
const TARGETS = { p99Ms: 1_000, missed: 0, doubled: 0 };
const say = (line: string) => console.error(`[bench schedule] ${line}`);

async function main() {
  if (!(Number.isInteger(CONNECTORS) && CONNECTORS > 0)) throw new Error("BENCH_SCHEDULE_CONNECTORS must be a positive whole number");
  if (!(Number.isInteger(SLOTS) && SLOTS > 0)) throw new Error("BENCH_SCHEDULE_SLOTS must be a positive whole number");
  const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-schedule-"));
  say(`Starting an embedded Postgres on port ${PG_PORT} in ${folder}`);
  const server = await startEmbeddedPostgres({ dataDir: folder, port: PG_PORT, ephemeral: true });
  const handle = connectDatabase(server.url, 4);
  const log = createLogger("warn");
  let boss: Awaited<ReturnType<typeof startJobs>> | undefined;
  try {
    await applyMigrations(server.url);
    const pool = handle.pool;
    // A whole hour before the first pass: every connector's next slot comes within the first hour of passes.
    const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
    const { rows: users } = await pool.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('bench', 'schedule', 'schedule@example.com', 'Schedule') RETURNING id");
    const owner = users[0]!.id;
    const { rows: sources } = await pool.query<{ id: string }>(
      "INSERT INTO sources (owner_id, name, integration_name, integration_label, metadata) VALUES ($1, 'Gen', 'datagen', 'Data Generator', '{\"format\":\"zoom\",\"meetings_per_day\":1}') RETURNING id",
      [owner],
    );
    say(`Seeding ${CONNECTORS.toLocaleString("en-US")} hourly connectors, each with a run just before the first pass`);
    await pool.query(
      `INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days, created_at)
       SELECT $1, 'Connector ' || n, $2, 'hourly', 1, $3::timestamptz - interval '1 day' FROM generate_series(1, ${CONNECTORS}) n`,
      [owner, sources[0]!.id, start],
    );
    await pool.query("INSERT INTO sync_runs (connector_id, owner_id, status, trigger, created_at, finished_at) SELECT id, owner_id, 'succeeded', 'create', $1, $1 FROM connectors", [
      new Date(start.getTime() - 1),
    ]);
    await pool.query("ANALYZE");
    // The real queue (pg-boss), with the sync queue as the backend makes it; nothing works it here.
    const syncQueue = defineJob({ name: SYNC_QUEUE, schema: runPayload, policy: "stately", retryLimit: 3, handler: async () => {} });
    boss = await startJobs({ databaseUrl: server.url, log, jobs: [syncQueue], works: () => false, schedules: false, keepEndedJobsDays: 7 });
    const queue = pgBossQueue(boss);

    const pgData = path.resolve(folder, "pg");
    const passes: { ms: number; queued: number; postgresMs: number }[] = [];
    // The first pass after the upgrade reads every connector once, to set its bookmark: measured on its own.
    let first: { ms: number; postgresMs: number } | undefined;
    const minutes = SLOTS * 60;
    say(`${minutes} passes, a minute of the clock apart`);
    for (let minute = 0; minute <= minutes; minute++) {
      const now = new Date(start.getTime() + minute * 60_000);
      const cpu0 = postgresCpuMs(pgData);
      const t0 = performance.now();
      await recoverDeadSyncRuns(handle.db, queue);
      await recoverLostSyncRuns(handle.db, queue);
      const queued = await enqueueDueRuns(handle.db, queue, now);
      const ms = performance.now() - t0;
      const postgresMs = postgresCpuMs(pgData) - cpu0;
      if (minute === 0) first = { ms, postgresMs };
      else passes.push({ ms, queued, postgresMs });
      // The workers' part, done at once: every queued run ran, and its job ended.
      await pool.query("UPDATE sync_runs SET status = 'succeeded', started_at = created_at, finished_at = created_at WHERE status = 'queued'");
      await pool.query("DELETE FROM pgboss.job WHERE name = $1", [SYNC_QUEUE]);
      if (minute % 30 === 0) say(`pass ${minute}: ${ms.toFixed(0)} ms, ${queued} queued`);
    }

    // Every slot in the window [start, start + SLOTS hours) once per connector, none twice.
    const end = new Date(start.getTime() + minutes * 60_000);
    const { rows: runs } = await pool.query<{ connector_id: string; n: number }>(
      "SELECT connector_id, count(*)::int AS n FROM sync_runs WHERE trigger = 'schedule' GROUP BY connector_id",
    );
    const counted = new Map(runs.map((r) => [r.connector_id, r.n]));
    const { rows: all } = await pool.query<{ id: string }>("SELECT id FROM connectors");
    let missed = 0;
    let doubled = 0;
    for (const { id } of all) {
      // The slots of this connector in the window: its hourly slot's moments in [start, end] (its last run was just before start).
      let expected = 0;
      for (let at = latestSlot(id, "hourly", end).getTime(); at >= start.getTime(); at -= 3_600_000) expected++;
      const got = counted.get(id) ?? 0;
      if (got < expected) missed += expected - got;
      if (got > expected) doubled += got - expected;
    }
    const ms = passes.map((p) => p.ms).sort((a, b) => a - b);
    const queuedPerPass = passes.map((p) => p.queued).sort((a, b) => a - b);
    const postgresCpu = passes.reduce((s, p) => s + p.postgresMs, 0) / passes.length;
    const total = passes.reduce((s, p) => s + p.queued, 0);
    const ok = (value: number, target: number) => (value <= target ? "met" : "**missed**");
    const rows = [
      ["Connectors", CONNECTORS.toLocaleString("en-US"), ""],
      ["Passes (a minute of the clock apart)", String(passes.length), ""],
      ["Runs queued (expected: one per connector per slot)", `${total.toLocaleString("en-US")}`, ""],
      ["Runs queued per pass: p50 / max", `${quantile(queuedPerPass, 0.5)} / ${queuedPerPass.at(-1)}`, ""],
      ["Pass time: p50 / p99 / max", `${quantile(ms, 0.5).toFixed(0)} / ${quantile(ms, 0.99).toFixed(0)} / ${ms.at(-1)!.toFixed(0)} ms`, `p99 ≤ ${TARGETS.p99Ms} ms: ${ok(quantile(ms, 0.99), TARGETS.p99Ms)}`],
      ["Postgres CPU per pass (mean)", `${postgresCpu.toFixed(0)} ms`, ""],
      ["First pass after the upgrade (reads every connector once)", `${first!.ms.toFixed(0)} ms, Postgres ${first!.postgresMs.toFixed(0)} ms CPU`, ""],
      ["Slots missed", String(missed), `${TARGETS.missed}: ${ok(missed, TARGETS.missed)}`],
      ["Slots queued twice", String(doubled), `${TARGETS.doubled}: ${ok(doubled, TARGETS.doubled)}`],
    ];
    console.log(`### ${CONNECTORS.toLocaleString("en-US")} hourly connectors, ${SLOTS} slots (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores)\n`);
    console.log(mdTable(["", "measured", "target"], rows));
  } finally {
    await boss?.stop({ graceful: false }).catch(() => {});
    await handle.close();
    await server.stop();
    if (!process.env.BENCH_KEEP_DATA) rmSync(folder, { recursive: true, force: true });
  }
}

await main();
