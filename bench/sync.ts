/**
 * Sync throughput (issue #5): the data generator → a local destination, for
 * 1×, 10× and 100× volume (volume = meetings per day × lookback days), each in
 * a fresh child process so that peak RSS does not carry over.
 *
 * Per volume: transcript lines/s, records (meetings)/s, MB/s of objects and
 * peak RSS of a real `syncConnector` run (real Postgres, real connector,
 * source and destination rows, a fresh warehouse), next to writing the very
 * same bytes with plain `fs.createWriteStream` to the same disk:
 *   - "plain files": the same files (same paths, same bodies), one stream each,
 *     FILE_CONCURRENCY at a time — what writing this output costs at best;
 *   - "one stream": all the bytes through a single stream into one file — the
 *     disk's sequential speed, shown for scale.
 * The ratio against plain files is the figure (target ≥ 0.5×).
 *
 * Targets: ≥ 50,000 transcript lines/s; ≥ 0.5× the plain write; RSS flat as
 * volume grows (peak at the largest volume ≤ 1.5× the smallest's).
 *
 * Run alone: `npx tsx bench/sync.ts` (prints a Markdown table; exit 0 when
 * measured, even if a target is missed; 1 when it could not be measured), or
 * call `runSyncBench()` (bench/run.ts).
 *
 * Each volume is measured BENCH_SYNC_RUNS times (default 3), in rounds (1×, 10×,
 * 100×, then again), so that a slow spell of the machine or its disk weighs on
 * every volume alike. The table shows the run with the median ratio, whole, and
 * every run's ratio and lines/s beside it; peak RSS is the highest of the runs.
 *
 * Environment: BENCH_SYNC_PER_DAY (default 140 meetings per day at 1×),
 * BENCH_SYNC_LOOKBACK (default 7 days), BENCH_SYNC_SCALES (default "1,10,100"),
 * BENCH_SYNC_RUNS (default 3), BENCH_SYNC_PG_PORT (default 54369),
 * BENCH_QUIET_WAIT (default 60) seconds to wait before each run for other
 * processes to leave the CPUs and for the disk under TMPDIR to settle, after
 * writing back what earlier runs left in the page cache (0: neither),
 * BENCH_KEEP_DATA=1 keeps the temporary folder.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { startEmbeddedPostgres } from "../backend/db/embedded.js";
import { applyMigrations } from "../backend/db/migrate.js";
import { connectDatabase } from "../backend/db/client.js";
import { insertCredential, insertSource } from "../backend/db/sources.js";
import { insertDestination } from "../backend/db/destinations.js";
import { insertConnector } from "../backend/db/connectors.js";
import { users } from "../backend/db/schema.js";
import { SecretBox } from "../backend/lib/crypto.js";
import { LocalWriter, localFolder, resolveLocalRoot } from "../backend/integrations/destinations/local.js";
import { generateMeetings, type Meeting } from "../backend/integrations/sources/datagen.js";
import { meetingBatch, syncConnector } from "../backend/jobs/sync-connector.job.js";
import { prepareWorkerProcess } from "../backend/jobs/worker-process.js";
import { mdTable } from "./lib/report.js";

const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), "..");

export const SYNC_TARGETS = { linesPerSecond: 50_000, ratio: 0.5, rssGrowth: 1.5 } as const;
/** The end of every run's window: fixed, so every run of the benchmark reads the same records. */
const UNTIL = new Date("2026-11-20T00:00:00Z");
const COMPANY = "Acme Rockets";
const PLATFORM = "zoom";
const DAY_MS = 86_400_000;
/** Files the plain write has open at once. */
const FILE_CONCURRENCY = 8;

export interface SyncBenchOptions {
  /** Meetings per day at 1×. */
  perDay?: number;
  /** Lookback days (one of the connector's options: 1, 3, 7, 14, 30, 90). */
  lookbackDays?: number;
  scales?: number[];
  /** Runs of each volume (in rounds over the volumes). */
  runs?: number;
  pgPort?: number;
  /** Seconds to wait for a quiet machine and disk before each run. */
  quietWait?: number;
  keepData?: boolean;
  log?: (line: string) => void;
}

/** What one child process measured for one volume. */
export interface VolumeResult {
  scale: number;
  meetingsPerDay: number;
  records: number;
  lines: number;
  bytes: number;
  seconds: number;
  /** CPU of the sync process (user + system), in seconds. */
  cpuSeconds: number;
  /** CPUs' worth of work done meanwhile by processes other than the sync (others on the machine, Postgres). */
  otherCores: number;
  peakRssBytes: number;
  plainFilesSeconds: number;
  oneStreamSeconds: number;
  /** Every run of this volume (this result is the one with the median ratio; its peak RSS is the highest). */
  runs?: { seconds: number; plainFilesSeconds: number; lines: number }[];
}

export interface SyncBenchReport {
  results: VolumeResult[];
  markdown: string;
  /** All targets met. */
  pass: boolean;
}

/* ---- machine load ----------------------------------------------------------------------------------- */

const TICK_MS = 10; // USER_HZ

/** Busy CPU time of the whole machine (ms), from /proc/stat; NaN elsewhere. */
function machineBusyMs(): number {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) * TICK_MS;
  } catch {
    return NaN;
  }
}

/**
 * Milliseconds the block device holding `dir` has spent doing I/O (io_ticks in /proc/diskstats); NaN when it
 * is not a block device (tmpfs) or not Linux.
 */
function diskBusyMs(dir: string): number {
  try {
    const dev = statSync(dir).dev;
    const major = Math.floor(dev / 256) & 0xfff;
    const minor = (dev & 0xff) | (Math.floor(dev / 4096) & ~0xff);
    for (const line of readFileSync("/proc/diskstats", "utf8").split("\n")) {
      const fields = line.trim().split(/\s+/);
      if (Number(fields[0]) === major && Number(fields[1]) === minor) return Number(fields[12]);
    }
  } catch {
    // Not Linux, or the folder is gone.
  }
  return NaN;
}

/**
 * Waits (up to `maxSeconds`) for a 2-second window in which the machine uses less than `threshold` CPUs and the
 * disk under `dir` is busy less than a tenth of the time: deleting files on this machine's ext4 (mounted with
 * discard) keeps its disk busy for a while, and file creation slow.
 */
async function waitForQuiet(maxSeconds: number, dir: string, threshold = 0.25): Promise<void> {
  const end = Date.now() + maxSeconds * 1000;
  while (Date.now() < end) {
    const before = machineBusyMs();
    const diskBefore = diskBusyMs(dir);
    await sleep(2000);
    const busy = (machineBusyMs() - before) / 2000;
    const disk = (diskBusyMs(dir) - diskBefore) / 2000;
    if (!(busy >= threshold) && !(disk >= 0.1)) return;
  }
}

/**
 * Writes back what earlier runs left dirty in the page cache (`sync`). The kernel writes dirty pages back ~30 s after
 * they were written: a 100× run leaves ~0.5 GB, whose writeback landed in the middle of the next runs and slowed their
 * file creation (seen as CPUs used by others, up to 0.7, during a 1× run).
 */
function writeBack(): void {
  spawnSync("sync", { stdio: "ignore" });
}

/* ---- the child: one volume ---------------------------------------------------------------------------- */

interface ChildArgs {
  databaseUrl: string;
  dataDir: string;
  connectorId: string;
  sourceId: string;
  folder: string;
  meetingsPerDay: number;
  lookbackDays: number;
  scale: number;
  /** Which run of this volume (its plain files get a folder of their own). */
  run: number;
}

/** Bodies of the same objects the sync wrote, chunk by chunk (never all in memory). */
function* sameObjects(args: ChildArgs) {
  const meetings = generateMeetings({ sourceId: args.sourceId, company: COMPANY, from: new Date(UNTIL.getTime() - args.lookbackDays * DAY_MS), to: UNTIL, meetingsPerDay: args.meetingsPerDay });
  let chunk: Meeting[] = [];
  for (const meeting of meetings) {
    chunk.push(meeting);
    if (chunk.length === 200) {
      yield meetingBatch(PLATFORM, args.sourceId, chunk).objects;
      chunk = [];
    }
  }
  if (chunk.length) yield meetingBatch(PLATFORM, args.sourceId, chunk).objects;
}

async function writeStream(file: string, body: string | Uint8Array): Promise<void> {
  const stream = createWriteStream(file);
  stream.end(body);
  await once(stream, "close");
}

/** The same files written plainly (one stream each, FILE_CONCURRENCY at a time); only the writing is timed. */
async function plainFiles(args: ChildArgs, folder: string): Promise<{ seconds: number; bytes: number }> {
  let ms = 0;
  let bytes = 0;
  const made = new Set<string>();
  for (const objects of sameObjects(args)) {
    const start = performance.now();
    let next = 0;
    const lane = async () => {
      while (next < objects.length) {
        const object = objects[next++]!;
        const file = path.join(folder, ...object.path.split("/"));
        const dir = path.dirname(file);
        if (!made.has(dir)) {
          await mkdir(dir, { recursive: true });
          made.add(dir);
        }
        await writeStream(file, object.body);
      }
    };
    await Promise.all(Array.from({ length: FILE_CONCURRENCY }, lane));
    ms += performance.now() - start;
    bytes += objects.reduce((n, o) => n + Buffer.byteLength(o.body as string), 0);
  }
  return { seconds: ms / 1000, bytes };
}

/** The same bytes through one stream into one file; only the writing is timed. */
async function oneStream(args: ChildArgs, file: string): Promise<number> {
  let ms = 0;
  const stream = createWriteStream(file);
  for (const objects of sameObjects(args)) {
    const start = performance.now();
    for (const object of objects) if (!stream.write(object.body)) await once(stream, "drain");
    ms += performance.now() - start;
  }
  const start = performance.now();
  stream.end();
  await once(stream, "close");
  return (ms + performance.now() - start) / 1000;
}

async function child(args: ChildArgs): Promise<VolumeResult> {
  // The sync runs in a worker process as backend/main.ts starts one: its heap setting, its file writer thread and a
  // DuckDB instance made ahead, which a worker makes at boot (a worker's first sync waits for nothing its others do not).
  await prepareWorkerProcess();
  const handle = connectDatabase(args.databaseUrl, 2);
  try {
    const services = { db: handle.db, secrets: new SecretBox(randomBytes(32).toString("base64url")), config: { DATA_DIR: args.dataDir } };
    const busyBefore = machineBusyMs();
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const result = await syncConnector(services, args.connectorId, UNTIL, { meetingsPerDay: args.meetingsPerDay });
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const otherCores = Math.max(0, ((machineBusyMs() - busyBefore) / 1000 - cpuSeconds) / seconds);
    // The kernel's high-water mark of this process: the whole run (startup included), nothing from other volumes.
    const peakRssBytes = process.resourceUsage().maxRSS * 1024;

    const reader = new LocalWriter(resolveLocalRoot(args.dataDir, args.folder));
    const [counts] = await reader.query("SELECT (SELECT count(*) FROM transcript_utterances)::INT AS lines, (SELECT count(*) FROM meetings)::INT AS meetings");
    await reader.close();
    if (counts!.meetings !== result.records) throw new Error(`The warehouse holds ${String(counts!.meetings)} meetings, the run reported ${result.records}`);

    const plainRoot = path.join(args.dataDir, `plain-${args.scale}-${args.run}`);
    const plain = await plainFiles(args, path.join(plainRoot, "files"));
    if (plain.bytes !== result.bytes) throw new Error(`The plain write wrote ${plain.bytes} bytes, the sync ${result.bytes}`);
    const oneStreamSeconds = await oneStream(args, path.join(plainRoot, "all.bin"));
    // Nothing is deleted here (the parent deletes everything once every volume is measured): see runSyncBench.
    return {
      scale: args.scale,
      meetingsPerDay: args.meetingsPerDay,
      records: result.records,
      lines: Number(counts!.lines),
      bytes: result.bytes,
      seconds,
      cpuSeconds,
      otherCores,
      peakRssBytes,
      plainFilesSeconds: plain.seconds,
      oneStreamSeconds,
    };
  } finally {
    await handle.close();
  }
}

function runChild(args: ChildArgs): Promise<VolumeResult> {
  return new Promise((resolve, reject) => {
    // The sync runs as scripts/start.ts runs the backend's workers (MALLOC_ARENA_MAX).
    const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" };
    const proc = spawn(process.execPath, ["--import", "tsx", here, "--child", JSON.stringify(args)], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (d: Buffer) => (out += d.toString()));
    proc.stderr.on("data", (d: Buffer) => (err += d.toString()));
    proc.once("error", reject);
    proc.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)) as VolumeResult);
      else reject(new Error(`The ${args.scale}× run exited with ${code}: ${err.trim().split("\n").slice(-8).join("\n")}`));
    });
  });
}

/* ---- the parent ------------------------------------------------------------------------------------------ */

/** A volume's runs as one result: the run with the median ratio (the lower middle one of an even count), the highest peak RSS, every run listed. */
export function medianRun(runs: VolumeResult[]): VolumeResult {
  const ratio = (r: VolumeResult) => r.plainFilesSeconds / r.seconds;
  const median = [...runs].sort((a, b) => ratio(a) - ratio(b))[Math.floor((runs.length - 1) / 2)]!;
  return {
    ...median,
    peakRssBytes: Math.max(...runs.map((r) => r.peakRssBytes)),
    runs: runs.map((r) => ({ seconds: r.seconds, plainFilesSeconds: r.plainFilesSeconds, lines: r.lines })),
  };
}

const num = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mb = (bytes: number) => bytes / 1e6;

export function syncTable(results: VolumeResult[]): { markdown: string; pass: boolean } {
  const base = results[0]?.peakRssBytes ?? 0;
  let pass = results.length > 0;
  const rows = results.map((r) => {
    const linesPerSecond = r.lines / r.seconds;
    const syncMBps = mb(r.bytes) / r.seconds;
    const ratio = r.plainFilesSeconds / r.seconds; // same bytes: the ratio of the speeds
    const rssOk = r.peakRssBytes <= base * SYNC_TARGETS.rssGrowth;
    const ok = linesPerSecond >= SYNC_TARGETS.linesPerSecond && ratio >= SYNC_TARGETS.ratio && rssOk;
    pass &&= ok;
    return [
      `${r.scale}×`,
      `${num(r.records)} meetings · ${num(r.lines)} lines · ${num(mb(r.bytes), 1)} MB`,
      `${num(linesPerSecond)} · ${num(r.lines / r.plainFilesSeconds)}`,
      num(r.records / r.seconds),
      num(syncMBps, 1),
      `${num(mb(r.bytes) / r.plainFilesSeconds, 1)} · ${num(mb(r.bytes) / r.oneStreamSeconds, 0)}`,
      `${ratio.toFixed(2)}× · ${(r.oneStreamSeconds / r.seconds).toFixed(3)}×`,
      `${num(r.peakRssBytes / 2 ** 20)} MiB`,
      `${num(r.cpuSeconds / r.seconds, 2)} · ${num(r.otherCores, 2)}`,
      (r.runs ?? []).map((run) => `${(run.plainFilesSeconds / run.seconds).toFixed(2)}× · ${num(run.lines / run.seconds / 1000, 1)}k`).join("; "),
      ok ? "PASS" : "FAIL",
    ];
  });
  const header = ["Volume", "Written", "Lines/s (sync · plain files)", "Records/s", "MB/s", "Plain MB/s (files · one stream)", "Ratio (files · one stream)", "Peak RSS", "CPUs: sync · others", "Every run: ratio · lines/s", "Targets"];
  const targets =
    `Targets: ≥ ${num(SYNC_TARGETS.linesPerSecond)} transcript lines/s; ≥ ${SYNC_TARGETS.ratio}× the plain write of the same files; ` +
    `peak RSS ≤ ${SYNC_TARGETS.rssGrowth}× the smallest volume's (streaming). Each row is the run with the median ratio of its ` +
    `volume; its peak RSS is the highest of that volume's runs. "Plain files" lines/s: the run's transcript lines over the time ` +
    `the plain write of its files took (what writing the files alone allows, for scale).`;
  return { markdown: `${mdTable(header, rows)}\n\n${targets}`, pass };
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
  if (!scales.every((s) => Number.isFinite(s) && s > 0)) throw new Error(`BENCH_SYNC_SCALES must be positive numbers, e.g. 1,10,100`);
  if (!(Number.isInteger(runs) && runs > 0)) throw new Error(`BENCH_SYNC_RUNS must be a positive whole number`);

  const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-sync-"));
  const dataDir = path.join(folder, "data");
  log(`Starting an embedded Postgres on port ${pgPort} in ${folder}`);
  // Postgres keeps its data in <folder>/pg (the folder is made reachable for the postgres user when run as root).
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
    const measured = new Map<number, VolumeResult[]>(scales.map((scale) => [scale, []]));
    for (let round = 1; round <= runs; round++) for (const scale of scales) {
      // A fresh destination (empty warehouse and folder) and connector per run: every run is a first sync.
      const id = randomUUID();
      const destinationFolder = localFolder(ownerId, id);
      const prepared = new LocalWriter(resolveLocalRoot(dataDir, destinationFolder));
      await prepared.prepare();
      await prepared.close();
      await insertDestination(db, ownerId, {
        id,
        name: `Local ${scale}× (run ${round})`,
        description: "",
        integrationName: "local",
        integrationLabel: "Local files",
        category: "STORAGE",
        status: "ACTIVE",
        config: { folder: destinationFolder, files: `${destinationFolder}/files`, warehouse: `${destinationFolder}/warehouse.duckdb` },
        credentialId: null,
      });
      const connectorId = await insertConnector(db, ownerId, { name: `Sync ${scale}× (run ${round})`, description: "", sourceId: source.id, platform: PLATFORM, frequency: "daily", lookbackDays }, [id]);
      const meetingsPerDay = perDay * scale;
      if (quietWait > 0) {
        writeBack();
        await waitForQuiet(quietWait, dataDir);
      }
      log(`${scale}×, run ${round} of ${runs}: ${meetingsPerDay} meetings/day × ${lookbackDays} days …`);
      const result = await runChild({ databaseUrl: server.url, dataDir, connectorId, sourceId: source.id, folder: destinationFolder, meetingsPerDay, lookbackDays, scale, run: round });
      log(
        `${scale}×: ${num(result.lines)} lines in ${result.seconds.toFixed(2)} s = ${num(result.lines / result.seconds)} lines/s, ` +
          `plain files ${result.plainFilesSeconds.toFixed(2)} s (ratio ${(result.plainFilesSeconds / result.seconds).toFixed(2)}), ` +
          `peak RSS ${num(result.peakRssBytes / 2 ** 20)} MiB, others used ${result.otherCores.toFixed(2)} CPUs`,
      );
      measured.get(scale)!.push(result);
      // The written files stay until every volume is measured. ext4 does not hand out inodes freed in the last
      // few minutes (recently_deleted() in its inode allocator scans past them), so deleting one volume's
      // ~200,000 files made the next volume's file creation up to 6× slower in the kernel, for the sync and
      // the plain write alike, depending on how long ago the deletion was.
    }
    const results = scales.map((scale) => medianRun(measured.get(scale)!));
    return { results, ...syncTable(results) };
  } finally {
    await handle.close();
    await server.stop();
    if (!keepData) rmSync(folder, { recursive: true, force: true });
    else log(`Data kept in ${folder}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === here) {
  if (process.argv[2] === "--child") {
    child(JSON.parse(process.argv[3]!) as ChildArgs).then(
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
    runSyncBench().then(
      (report) => {
        console.log(`\n${report.markdown}\n`);
        console.log(report.pass ? "All sync targets met." : "Some sync targets were missed (see FAIL).");
      },
      (error: Error) => {
        console.error(`[bench:sync] could not be measured: ${error.message}`);
        process.exit(1);
      },
    );
  }
}
