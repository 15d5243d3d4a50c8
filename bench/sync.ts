/**
 * Sync throughput against DuckDB's own bulk load (issue 25): a real connector's sync, data generator → a local
 * destination (files + DuckDB), first load and a re-run of the same window, next to DuckDB loading exactly the rows
 * the sync wrote (an NDJSON file per table) into the same tables, first load and re-run (an upsert by key). Each side
 * runs in a fresh child process, in alternation (sync, bulk, sync, bulk …), so that a slow spell of the shared
 * machine weighs on both. The figure is bulk seconds ÷ sync seconds (target ≥ 0.5), and peak RSS of the sync process
 * at the largest volume ≤ 1.3× that at the smallest. Method and figures: bench/RESULTS.md, sync section.
 *
 * `npx tsx bench/sync.ts [--scale 10 …]` prints a Markdown table and, as its last line,
 * `sync/duckdb-bulk ratio: <first> <rerun>` (the lowest over the volumes). Or call runSyncBench() (bench/run.ts).
 *
 * Environment: BENCH_SYNC_SCALES (default "1,10,100"; --scale wins), BENCH_SYNC_RUNS (default 3), BENCH_SYNC_PER_DAY
 * (140 meetings a day at 1×), BENCH_SYNC_LOOKBACK (7 days), BENCH_SYNC_PG_PORT (54369), BENCH_QUIET_WAIT (60 s at
 * most to wait for a quiet machine before each run; 0: none), BENCH_KEEP_DATA=1 keeps the temporary folder,
 * BENCH_SYNC_CPU_PROF=<folder> writes the sync child's CPU profile there.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { startEmbeddedPostgres } from "../backend/db/embedded.js";
import { applyMigrations } from "../backend/db/migrate.js";
import { connectDatabase } from "../backend/db/client.js";
import { insertCredential, insertSource } from "../backend/db/sources.js";
import { insertConnector } from "../backend/db/connectors.js";
import { users } from "../backend/db/schema.js";
import { SecretBox } from "../backend/lib/crypto.js";
import { LocalWriter, resolveLocalRoot, WAREHOUSE_FILE } from "../backend/integrations/destinations/local/index.js";
import { syncConnector } from "../backend/sync/index.js";
import { prepareWorkerProcess } from "../backend/jobs/worker-process.js";
import { waitForQuiet } from "./lib/quiet.js";
import { mdTable } from "./lib/report.js";
import { makeLocalDestination } from "./lib/local-destination.js";

const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), "..");

export const SYNC_TARGETS = { ratio: 0.5, rssGrowth: 1.3 } as const;
/** The end of every run's window: fixed, so every run reads the same records. */
const UNTIL = new Date("2026-11-20T00:00:00Z");
const COMPANY = "Acme Rockets";
const PLATFORM = "zoom";
/** The key of each table the sync writes (what the bulk re-run upserts by). */
const KEYS: Record<string, string> = { meetings: "meeting_id", transcript_utterances: "utterance_id" };

export interface SyncBenchOptions {
  perDay?: number;
  lookbackDays?: number;
  scales?: number[];
  runs?: number;
  pgPort?: number;
  quietWait?: number;
  keepData?: boolean;
  log?: (line: string) => void;
}

/** One pass of one side: wall seconds and the process's CPU seconds. */
interface Pass {
  seconds: number;
  cpuSeconds: number;
}

/** What one sync child measured. */
interface SyncSide {
  records: number;
  lines: number;
  bytes: number;
  first: Pass;
  rerun: Pass;
  peakRssBytes: number;
}

export interface VolumeResult {
  scale: number;
  meetingsPerDay: number;
  sync: SyncSide;
  bulk: { first: Pass; rerun: Pass };
  /** Every round's ratios (first, re-run); the result is the round with the median first-load ratio. */
  rounds: { first: number; rerun: number }[];
}

export interface SyncBenchReport {
  results: VolumeResult[];
  markdown: string;
  pass: boolean;
  /** The lowest ratios over the volumes. */
  ratio: { first: number; rerun: number };
}

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

async function timed(work: () => Promise<unknown>): Promise<Pass> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  return { seconds: (performance.now() - start) / 1000, cpuSeconds: cpuSeconds(cpu) };
}

/* ---- the children ----------------------------------------------------------------------------------------- */

interface SyncArgs {
  mode: "sync";
  databaseUrl: string;
  dataDir: string;
  connectorId: string;
  folder: string;
  meetingsPerDay: number;
  /** Where to leave the rows the sync wrote, one NDJSON file per table. */
  exportDir: string;
}

interface BulkArgs {
  mode: "bulk";
  /** The sync's warehouse (its tables give the columns) and its exported rows. */
  warehouse: string;
  exportDir: string;
  /** A fresh file to load into. */
  target: string;
}

/** Runs the connector's sync twice (first load, re-run of the same window) as a worker process runs it. */
async function syncChild(args: SyncArgs): Promise<SyncSide> {
  await prepareWorkerProcess();
  const handle = connectDatabase(args.databaseUrl, 2);
  try {
    const services = { db: handle.db, secrets: new SecretBox(randomBytes(32).toString("base64url")), config: { DATA_DIR: args.dataDir } };
    let result = { records: 0, bytes: 0 };
    const run = async () => {
      result = await syncConnector(services, args.connectorId, UNTIL, { meetingsPerDay: args.meetingsPerDay });
    };
    const first = await timed(run);
    const rerun = await timed(run);
    // The kernel's high-water mark of this process (both passes, nothing from other volumes).
    const peakRssBytes = process.resourceUsage().maxRSS * 1024;
    const reader = new LocalWriter(resolveLocalRoot(args.dataDir, args.folder));
    try {
      const [counts] = await reader.query("SELECT (SELECT count(*) FROM transcript_utterances)::INT AS lines, (SELECT count(*) FROM meetings)::INT AS meetings");
      if (counts!.meetings !== result.records) throw new Error(`The warehouse holds ${String(counts!.meetings)} meetings, the run reported ${result.records}`);
      for (const table of Object.keys(KEYS)) await reader.query(`COPY ${table} TO '${path.join(args.exportDir, `${table}.ndjson`)}' (FORMAT json)`);
      return { records: result.records, lines: Number(counts!.lines), bytes: result.bytes, first, rerun, peakRssBytes };
    } finally {
      await reader.close();
    }
  } finally {
    await handle.close();
  }
}

/** DuckDB alone: the exported rows into empty tables of the same columns, then the same rows again as an upsert. */
async function bulkChild(args: BulkArgs): Promise<{ first: Pass; rerun: Pass }> {
  const setup = await DuckDBInstance.create(args.target);
  const db = await setup.connect();
  await db.run(`ATTACH '${args.warehouse}' AS synced (READ_ONLY)`);
  const reads: Record<string, string> = {};
  for (const table of Object.keys(KEYS)) {
    await db.run(`CREATE TABLE ${table} AS SELECT * FROM synced.${table} LIMIT 0`);
    const columns = (await db.runAndReadAll(`SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = current_database() AND table_name = '${table}' ORDER BY ordinal_position`)).getRows();
    const struct = columns.map(([name, type]) => `'${String(name)}': '${String(type)}'`).join(", ");
    reads[table] = `read_json('${path.join(args.exportDir, `${table}.ndjson`)}', format = 'newline_delimited', columns = {${struct}})`;
  }
  db.closeSync();
  setup.closeSync();
  // Each pass opens the file, loads in one transaction and closes it (its checkpoint included), as a sync does.
  const pass = (statements: (table: string, read: string) => string[]) =>
    timed(async () => {
      const instance = await DuckDBInstance.create(args.target);
      const connection = await instance.connect();
      const sql = Object.entries(reads).flatMap(([table, read]) => statements(table, read));
      await connection.run(["BEGIN", ...sql, "COMMIT"].join(";\n"));
      connection.closeSync();
      instance.closeSync();
    });
  const first = await pass((table, read) => [`INSERT INTO ${table} SELECT * FROM ${read}`]);
  const rerun = await pass((table, read) => [
    `CREATE TEMP TABLE staged AS SELECT * FROM ${read}`,
    `DELETE FROM ${table} USING staged WHERE ${table}.${KEYS[table]} = staged.${KEYS[table]}`,
    `INSERT INTO ${table} SELECT * FROM staged`,
    `DROP TABLE staged`,
  ]);
  return { first, rerun };
}

function runChild<T>(args: SyncArgs | BulkArgs): Promise<T> {
  return new Promise((resolve, reject) => {
    // As scripts/start.ts runs the backend's workers (MALLOC_ARENA_MAX).
    const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" };
    // BENCH_SYNC_CPU_PROF=<folder>: the sync child writes a V8 CPU profile there (where its time goes).
    const profile = args.mode === "sync" && process.env.BENCH_SYNC_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_SYNC_CPU_PROF] : [];
    const proc = spawn(process.execPath, [...profile, "--import", "tsx", here, "--child", JSON.stringify(args)], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (d: Buffer) => (out += d.toString()));
    proc.stderr.on("data", (d: Buffer) => (err += d.toString()));
    proc.once("error", reject);
    proc.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)) as T);
      else reject(new Error(`The ${args.mode} child exited with ${code}: ${err.trim().split("\n").slice(-8).join("\n")}`));
    });
  });
}

/* ---- the parent ------------------------------------------------------------------------------------------- */

const num = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratioOf = (r: Pick<VolumeResult, "sync" | "bulk">) => ({ first: r.bulk.first.seconds / r.sync.first.seconds, rerun: r.bulk.rerun.seconds / r.sync.rerun.seconds });

export function syncTable(results: VolumeResult[]): { markdown: string; pass: boolean; ratio: { first: number; rerun: number } } {
  const base = results[0]?.sync.peakRssBytes ?? 0;
  let pass = results.length > 0;
  const ratio = { first: Infinity, rerun: Infinity };
  const rows = results.map((r) => {
    const { first, rerun } = ratioOf(r);
    ratio.first = Math.min(ratio.first, first);
    ratio.rerun = Math.min(ratio.rerun, rerun);
    const rssOk = r.sync.peakRssBytes <= base * SYNC_TARGETS.rssGrowth;
    const ok = first >= SYNC_TARGETS.ratio && rerun >= SYNC_TARGETS.ratio && rssOk;
    pass &&= ok;
    const secs = (p: Pass) => `${p.seconds.toFixed(2)} s (${num(p.cpuSeconds / p.seconds, 2)} CPUs)`;
    return [
      `${r.scale}×`,
      `${num(r.sync.records)} meetings · ${num(r.sync.lines)} lines · ${num(r.sync.bytes / 1e6, 1)} MB of files`,
      `${secs(r.sync.first)} · ${secs(r.bulk.first)}`,
      `${secs(r.sync.rerun)} · ${secs(r.bulk.rerun)}`,
      `${first.toFixed(2)}× · ${rerun.toFixed(2)}×`,
      `${num(r.sync.lines / r.sync.first.seconds)} · ${num(r.sync.lines / r.sync.rerun.seconds)}`,
      `${num(r.sync.peakRssBytes / 2 ** 20)} MiB (${(r.sync.peakRssBytes / base).toFixed(2)}×)`,
      r.rounds.map((x) => `${x.first.toFixed(2)}× · ${x.rerun.toFixed(2)}×`).join("; "),
      ok ? "PASS" : "FAIL",
    ];
  });
  const header = ["Volume", "Written", "First load: sync · DuckDB bulk", "Re-run: sync · DuckDB bulk", "Ratio bulk/sync: first · re-run", "Sync lines/s: first · re-run", "Sync peak RSS", "Every round: first · re-run", "Targets"];
  const targets =
    `Targets: DuckDB bulk seconds ÷ sync seconds ≥ ${SYNC_TARGETS.ratio} for the first load and the re-run at every volume; ` +
    `peak RSS of the sync process ≤ ${SYNC_TARGETS.rssGrowth}× the smallest volume's. Each row is the round with the median first-load ` +
    `ratio; its peak RSS is the highest of the volume's rounds.`;
  return { markdown: `${mdTable(header, rows)}\n\n${targets}`, pass, ratio };
}

export async function runSyncBench(options: SyncBenchOptions = {}): Promise<SyncBenchReport> {
  const log = options.log ?? ((line: string) => console.log(`[bench:sync] ${line}`));
  const perDay = options.perDay ?? Number(process.env.BENCH_SYNC_PER_DAY ?? 140);
  const lookbackDays = options.lookbackDays ?? Number(process.env.BENCH_SYNC_LOOKBACK ?? 7);
  const scales = options.scales ?? (process.env.BENCH_SYNC_SCALES ?? "1,10,100").split(",").map(Number);
  const runs = options.runs ?? Number(process.env.BENCH_SYNC_RUNS ?? 3);
  const pgPort = options.pgPort ?? Number(process.env.BENCH_SYNC_PG_PORT ?? 54369);
  const quietWait = options.quietWait ?? Number(process.env.BENCH_QUIET_WAIT ?? 60);
  const keepData = options.keepData ?? process.env.BENCH_KEEP_DATA === "1";
  if (!scales.every((s) => Number.isFinite(s) && s > 0)) throw new Error("The scales must be positive numbers, e.g. 1,10,100");
  if (!(Number.isInteger(runs) && runs > 0)) throw new Error("BENCH_SYNC_RUNS must be a positive whole number");

  const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-sync-"));
  const dataDir = path.join(folder, "data");
  log(`Starting an embedded Postgres on port ${pgPort} in ${folder}`);
  const server = await startEmbeddedPostgres({ dataDir: folder, port: pgPort, ephemeral: true }).catch((error: unknown) => {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  });
  const handle = connectDatabase(server.url, 2);
  try {
    await applyMigrations(server.url);
    const { db } = handle;
    const [user] = await db.insert(users).values({ issuer: "bench", subject: "sync", email: "sync-bench@example.com", name: "Sync Bench" }).returning();
    const ownerId = user!.id;
    const credential = await insertCredential(db, ownerId, { integrationName: "datagen", secret: null, metadata: { generator: "tributary-datagen" } });
    const source = await insertSource(db, ownerId, {
      name: "Data generator · bench",
      description: "",
      integrationName: "datagen",
      integrationLabel: "Data Generator",
      credentialId: credential.id,
      status: "active",
      metadata: { company: COMPANY, format: PLATFORM },
    });
    const measured = new Map<number, Omit<VolumeResult, "rounds">[]>(scales.map((scale) => [scale, []]));
    const quiet = async () => {
      if (quietWait <= 0) return;
      spawnSync("sync", { stdio: "ignore" }); // what earlier runs left in the page cache is written back now, not mid-run
      await waitForQuiet(quietWait, dataDir);
    };
    for (let round = 1; round <= runs; round++) {
      for (const scale of scales) {
        // A fresh destination (empty warehouse and folder) and connector per round: its first pass is a first load.
        const { id, folder: destinationFolder, root: destinationRoot } = await makeLocalDestination(db, dataDir, ownerId, `Local ${scale}× (round ${round})`);
        const connectorId = await insertConnector(db, ownerId, { name: `Sync ${scale}× (round ${round})`, description: "", sourceId: source.id, platform: PLATFORM, frequency: "daily", lookbackDays }, [id]);
        const meetingsPerDay = perDay * scale;
        const exportDir = mkdtempSync(path.join(folder, "rows-"));
        await quiet();
        log(`${scale}×, round ${round} of ${runs}: sync of ${meetingsPerDay} meetings/day × ${lookbackDays} days, twice …`);
        const sync = await runChild<SyncSide>({ mode: "sync", databaseUrl: server.url, dataDir, connectorId, folder: destinationFolder, meetingsPerDay, exportDir });
        await quiet();
        log(`${scale}×, round ${round} of ${runs}: DuckDB's bulk load of the same ${num(sync.lines)} lines …`);
        const bulk = await runChild<VolumeResult["bulk"]>({ mode: "bulk", warehouse: path.join(destinationRoot, WAREHOUSE_FILE), exportDir, target: path.join(exportDir, "bulk.duckdb") });
        const ratio = ratioOf({ sync, bulk });
        log(
          `${scale}×: sync ${sync.first.seconds.toFixed(2)} s / ${sync.rerun.seconds.toFixed(2)} s, bulk ${bulk.first.seconds.toFixed(2)} s / ` +
            `${bulk.rerun.seconds.toFixed(2)} s: ratio ${ratio.first.toFixed(2)} / ${ratio.rerun.toFixed(2)}, peak RSS ${num(sync.peakRssBytes / 2 ** 20)} MiB`,
        );
        measured.get(scale)!.push({ scale, meetingsPerDay, sync, bulk });
        // Deleted at the very end with the rest: on ext4 creating files is several times slower for a while after
        // many blocks are freed, and the next sync creates thousands (docs/decisions/2026-11-22-local-destination.md).
      }
    }
    const results = scales.map((scale) => {
      const all = measured.get(scale)!;
      const median = [...all].sort((a, b) => ratioOf(a).first - ratioOf(b).first)[Math.floor((all.length - 1) / 2)]!;
      const peakRssBytes = Math.max(...all.map((r) => r.sync.peakRssBytes));
      return { ...median, sync: { ...median.sync, peakRssBytes }, rounds: all.map(ratioOf) };
    });
    return { results, ...syncTable(results) };
  } finally {
    await handle.close();
    await server.stop();
    if (!keepData) rmSync(folder, { recursive: true, force: true });
    else log(`Data kept in ${folder}`);
  }
}

/** `--scale 10` (repeatable, or "1,10"): the volumes to run. */
function scalesFromArgs(argv: string[]): number[] | undefined {
  const given = argv.flatMap((arg, i) => (argv[i - 1] === "--scale" ? arg.split(",").map(Number) : []));
  return given.length > 0 ? given : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === here) {
  if (process.argv[2] === "--child") {
    const args = JSON.parse(process.argv[3]!) as SyncArgs | BulkArgs;
    (args.mode === "sync" ? syncChild(args) : bulkChild(args)).then(
      (result) => {
        console.log(`RESULT ${JSON.stringify(result)}`);
        process.exit(0);
      },
      (error: Error) => {
        console.error(error.stack ?? error.message);
        process.exit(1);
      },
    );
  } else {
    runSyncBench({ scales: scalesFromArgs(process.argv.slice(2)) }).then(
      (report) => {
        console.log(`\n${report.markdown}\n`);
        console.log(report.pass ? "All sync targets met." : "Some sync targets were missed (see FAIL).");
        console.log(`sync/duckdb-bulk ratio: ${report.ratio.first.toFixed(2)} ${report.ratio.rerun.toFixed(2)}`);
      },
      (error: Error) => {
        console.error(`[bench:sync] could not be measured: ${error.message}`);
        process.exit(1);
      },
    );
  }
}
