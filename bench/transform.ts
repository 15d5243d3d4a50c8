/**
 * Transform benchmark: `npx tsx bench/transform.ts`.
 *
 * Starts an embedded Postgres (port 54379, temporary folder), syncs about
 * 1,000 datagen transcripts into a local destination (DuckDB) with the real
 * sync function, then times one run of every template with the real runner
 * (read from the warehouse → analysis pipeline → result tables written back),
 * and prints a markdown table. BENCH_TRANSCRIPTS changes the volume.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
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

const PG_PORT = 54379;
const TARGET = Math.max(10, Number(process.env.BENCH_TRANSCRIPTS) || 1000);
const DAYS = 20;

const mb = (kb: number) => (kb / 1024).toFixed(0);

async function main() {
  const root = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-transform-"));
  const pgDir = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-transform-pg-"));
  const pg = await startEmbeddedPostgres({ dataDir: pgDir, port: PG_PORT, ephemeral: true });
  const handle = connectDatabase(pg.url, 4);
  try {
    await applyMigrations(pg.url);
    const { db } = handle;
    const services = { db, secrets: new SecretBox(randomBytes(32).toString("base64url")), config: { DATA_DIR: path.join(root, "data") } };
    const [user] = await db.insert(users).values({ issuer: "bench", subject: "bench", email: "bench@example.com", name: "Bench" }).returning();
    const [source] = await db
      .insert(sources)
      .values({ ownerId: user!.id, name: "Bench generator", integrationName: "datagen", integrationLabel: "Data Generator", metadata: { company: "Acme Rockets", format: "zoom", meetings_per_day: TARGET / DAYS } })
      .returning();
    const destinationId = randomUUID();
    await db.insert(destinations).values({ id: destinationId, ownerId: user!.id, name: "Bench disk", integrationName: "local", integrationLabel: "Local", category: "STORAGE", config: { folder: localFolder(user!.id, destinationId) } });
    const [connector] = await db.insert(connectors).values({ ownerId: user!.id, name: "Bench sync", sourceId: source!.id, platform: "zoom", frequency: "daily", lookbackDays: DAYS }).returning();
    await db.insert(connectorDestinations).values({ connectorId: connector!.id, destinationId });

    let started = performance.now();
    const synced = await syncConnector(services, connector!.id, new Date());
    const syncSeconds = (performance.now() - started) / 1000;
    const reader = new LocalWriter(resolveLocalRoot(services.config.DATA_DIR, localFolder(user!.id, destinationId)));
    const [{ lines }] = (await reader.query("SELECT count(*)::INTEGER AS lines FROM transcript_utterances")) as { lines: number }[];
    await reader.close();

    const rows: string[] = [];
    for (const d of allDefinitions()) {
      const [transform] = await db
        .insert(transforms)
        .values({ ownerId: user!.id, name: `Bench ${d.id}`, transformType: d.transformType, templateId: d.id, connectorId: connector!.id, fileTypes: [".vtt", ".txt"], inputs: validateInputs(d, {}), permissionsSetup: true })
        .returning();
      started = performance.now();
      const result = await runTransform(services, transform!.id, { id: randomUUID(), at: new Date() });
      const seconds = (performance.now() - started) / 1000;
      const outputs = result.outputs.map((o) => `${o.table.replace(/^tx_[0-9a-f]{8}_/, "")} ${o.rows}`).join(", ");
      rows.push(`| ${d.id} | ${result.records} | ${result.lines} | ${seconds.toFixed(2)} | ${mb(process.resourceUsage().maxRSS)} | ${outputs} |`);
      console.error(`ran ${d.id} in ${seconds.toFixed(2)} s`);
    }

    console.log(`\n### Transforms on ${synced.records} synced datagen transcripts (${lines} lines; sync took ${syncSeconds.toFixed(1)} s)\n`);
    console.log("| template | transcripts | lines | seconds | peak RSS (MB, process so far) | result rows |");
    console.log("| --- | ---: | ---: | ---: | ---: | --- |");
    for (const row of rows) console.log(row);
  } finally {
    await handle.close();
    await pg.stop();
    rmSync(root, { recursive: true, force: true });
    rmSync(pgDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
