/**
 * Transform benchmark (issue 37 item 5): `npx tsx bench/transform.ts`.
 *
 * For each volume (BENCH_TRANSFORM_SCALES, default "1,10,100"; 1× is BENCH_TRANSCRIPTS, default 1,000 data-generator
 * transcripts, about 20,000 lines): starts an embedded Postgres (port 54379, temporary folder), syncs that many
 * transcripts into a local destination (DuckDB) with the real sync, then runs every template once with the real runner
 * (read from the warehouse → analysis → result tables written back), each in a fresh child process, whose seconds and
 * peak RSS are the figures: a transform runs in a worker process, and its peak there is what a worker must hold.
 * Targets at 100×: each template ≤ 60 s, and its peak RSS ≤ 1.5× its own at 1×. Prints Markdown (bench/run.ts puts it
 * in bench/RESULTS.md).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes, randomUUID } from "node:crypto";
import { startEmbeddedPostgres } from "../backend/db/embedded.js";
import { applyMigrations } from "../backend/db/migrate.js";
import { connectDatabase } from "../backend/db/client.js";
import { connectorDestinations, connectors, destinations, sources, transforms, users } from "../backend/db/schema.js";
import { SecretBox } from "../backend/lib/crypto.js";
import { syncConnector } from "../backend/sync/index.js";
import { localFolder, LocalWriter, resolveLocalRoot } from "../backend/integrations/destinations/local/index.js";
import { allDefinitions } from "../backend/transforms/catalogue.js";
import { validateInputs } from "../backend/transforms/inputs.js";
import { runTransform } from "../backend/transforms/runner.js";
import { programOf } from "../backend/transforms/programs/index.js";

const PG_PORT = 54379;
const BASE = Math.max(10, Number(process.env.BENCH_TRANSCRIPTS) || 1000);
const SCALES = (process.env.BENCH_TRANSFORM_SCALES ?? "1,10,100").split(",").map(Number);
const DAYS = 20;
const TARGET_SECONDS = 60;
const TARGET_MEMORY = 1.5;
const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), "..");

const mib = (kb: number) => Math.round(kb / 1024);
const say = (line: string) => console.error(`[transform] ${line}`);

/** What one template's run in its own process measured. */
interface Measured {
  template: string;
  seconds: number;
  records: number;
  lines: number;
  peakKb: number;
  outputs: string;
}

/** The child: one run of one transform, in this process alone; prints its figures as JSON. */
async function child(args: { databaseUrl: string; dataDir: string; transformId: string; template: string }) {
  const handle = connectDatabase(args.databaseUrl, 2);
  try {
    const services = { db: handle.db, secrets: new SecretBox(randomBytes(32).toString("base64url")), config: { DATA_DIR: args.dataDir } };
    const started = performance.now();
    const result = await runTransform(services, args.transformId, { id: randomUUID(), at: new Date() });
    const measured: Measured = {
      template: args.template,
      seconds: (performance.now() - started) / 1000,
      records: result.records,
      lines: result.lines,
      peakKb: process.resourceUsage().maxRSS,
      outputs: result.outputs.map((o) => `${o.table.replace(/^tx_[0-9a-f]{8}_/, "")} ${o.rows}`).join(", "),
    };
    console.log(JSON.stringify(measured));
  } finally {
    await handle.close();
  }
}

/** One volume: a fresh Postgres and warehouse, the sync, then each template in a child. */
async function volume(scale: number): Promise<{ scale: number; transcripts: number; lines: number; syncSeconds: number; runs: Measured[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-transform-"));
  const pgDir = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-transform-pg-"));
  const pg = await startEmbeddedPostgres({ dataDir: pgDir, port: PG_PORT, ephemeral: true });
  const handle = connectDatabase(pg.url, 4);
  try {
    await applyMigrations(pg.url);
    const { db } = handle;
    const dataDir = path.join(dir, "data");
    const services = { db, secrets: new SecretBox(randomBytes(32).toString("base64url")), config: { DATA_DIR: dataDir } };
    const [user] = await db.insert(users).values({ issuer: "bench", subject: "bench", email: "bench@example.com", name: "Bench" }).returning();
    const perDay = Math.round((BASE * scale) / DAYS);
    const [source] = await db
      .insert(sources)
      .values({ ownerId: user!.id, name: "Bench generator", integrationName: "datagen", integrationLabel: "Data Generator", metadata: { company: "Acme Rockets", format: "zoom" } })
      .returning();
    const destinationId = randomUUID();
    await db.insert(destinations).values({ id: destinationId, ownerId: user!.id, name: "Bench disk", integrationName: "local", integrationLabel: "Local", category: "STORAGE", config: { folder: localFolder(user!.id, destinationId) } });
    const [connector] = await db.insert(connectors).values({ ownerId: user!.id, name: "Bench sync", sourceId: source!.id, platform: "zoom", frequency: "daily", lookbackDays: DAYS }).returning();
    await db.insert(connectorDestinations).values({ connectorId: connector!.id, destinationId });

    say(`${scale}×: syncing ${perDay} meetings a day for ${DAYS} days…`);
    const started = performance.now();
    const synced = await syncConnector(services, connector!.id, new Date(), { meetingsPerDay: perDay });
    const syncSeconds = (performance.now() - started) / 1000;
    const reader = new LocalWriter(resolveLocalRoot(dataDir, localFolder(user!.id, destinationId)));
    const [{ lines }] = (await reader.query("SELECT count(*)::INTEGER AS lines FROM transcript_utterances")) as { lines: number }[];
    await reader.close();

    const runs: Measured[] = [];
    // The transcript templates: the data here is meetings.
    for (const d of allDefinitions().filter((t) => programOf(t.id)?.stream === "meetings")) {
      const [transform] = await db
        .insert(transforms)
        .values({ ownerId: user!.id, name: `Bench ${d.id}`, transformType: d.transformType, templateId: d.id, connectorId: connector!.id, fileTypes: [".vtt", ".txt"], inputs: validateInputs(d, {}), permissionsSetup: true })
        .returning();
      const args = { databaseUrl: pg.url, dataDir, transformId: transform!.id, template: d.id };
      const run = spawnSync(process.execPath, ["--import", "tsx", here, "--child", JSON.stringify(args)], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 });
      if (run.status !== 0) throw new Error(`${d.id} at ${scale}× failed (exit ${run.status})`);
      const measured = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Measured;
      say(`${scale}×: ${d.id} in ${measured.seconds.toFixed(2)} s, peak ${mib(measured.peakKb)} MiB`);
      runs.push(measured);
    }
    return { scale, transcripts: synced.records, lines, syncSeconds, runs };
  } finally {
    await handle.close();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(pgDir, { recursive: true, force: true });
  }
}

async function main() {
  const volumes = [];
  for (const scale of SCALES) volumes.push(await volume(scale));
  const smallest = volumes[0]!;
  const largest = volumes.at(-1)!;
  for (const v of volumes) {
    console.log(`\n### ${v.scale}×: ${v.transcripts.toLocaleString("en-US")} synced transcripts (${v.lines.toLocaleString("en-US")} lines; the sync took ${v.syncSeconds.toFixed(1)} s)\n`);
    console.log("| template | seconds | peak RSS of its process | result rows |");
    console.log("| --- | ---: | ---: | --- |");
    for (const r of v.runs) console.log(`| ${r.template} | ${r.seconds.toFixed(2)} | ${mib(r.peakKb)} MiB | ${r.outputs} |`);
  }
  if (volumes.length > 1) {
    console.log(`\n### Targets at ${largest.scale}×: ≤ ${TARGET_SECONDS} s per template, peak RSS ≤ ${TARGET_MEMORY}× its own at ${smallest.scale}×\n`);
    console.log(`| template | seconds at ${largest.scale}× | peak RSS ${largest.scale}× ÷ ${smallest.scale}× | target |`);
    console.log("| --- | ---: | ---: | --- |");
    for (const r of largest.runs) {
      const base = smallest.runs.find((s) => s.template === r.template)!;
      const growth = r.peakKb / base.peakKb;
      const met = r.seconds <= TARGET_SECONDS && growth <= TARGET_MEMORY;
      console.log(`| ${r.template} | ${r.seconds.toFixed(2)} | ${growth.toFixed(2)}× (${mib(base.peakKb)} → ${mib(r.peakKb)} MiB) | ${met ? "met" : "FAIL"} |`);
    }
  }
}

const at = process.argv.indexOf("--child");
(at >= 0 ? child(JSON.parse(process.argv[at + 1]!)) : main()).catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
