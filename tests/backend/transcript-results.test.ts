import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalWriter } from "../../backend/integrations/destinations/local/index.js";
import { LocalWarehouse } from "../../backend/integrations/destinations/local/warehouse.js";
import { PostgresWarehouse } from "../../backend/integrations/destinations/postgres/warehouse.js";
import { PostgresWriter } from "../../backend/integrations/destinations/postgres/writer.js";
import type { PostgresTarget } from "../../backend/integrations/destinations/postgres/connect.js";
import { userPostgresDatabase } from "../support/user-postgres.js";
import type { DestinationWriter } from "../../backend/integrations/destinations/writer.js";
import type { Warehouse } from "../../backend/integrations/destinations/warehouse.js";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import { datagenPlugin } from "../../backend/integrations/sources/datagen/plugin.js";
import { batchMaker, writeRecords } from "../../backend/sync/index.js";
import { allDefinitions } from "../../backend/transforms/catalogue.js";
import { programOf } from "../../backend/transforms/programs/index.js";
import { runProgram } from "../support/programs.js";

/**
 * Issue 37's safety net for moving the templates into the warehouses: every transcript template, with its default
 * inputs, on the benchmark's 1× data (140 data-generator meetings a day for 7 days, as bench/sync.ts), read from the
 * local warehouse and from PostgreSQL. Both must give the same result rows, and those rows must be the ones recorded
 * in transcript-results-1x.json (row count, a digest of every row, the first row) — so a template rewritten in SQL
 * must give exactly what it gave before. After a deliberate change to a template's results, record them again with
 * UPDATE_TRANSCRIPT_RESULTS=1 and say why in the commit.
 */

const SOURCE = "5b1d0c2e-7f3a-4c9b-8e6d-0a1b2c3d4e5f";
const UNTIL = new Date("2026-11-20T00:00:00.000Z");
const DAYS = 7;
const PER_DAY = 140;
const RUN = { id: "recorded-run", at: new Date("2026-11-20T06:00:00.000Z") };
const RECORDED = path.join(path.dirname(fileURLToPath(import.meta.url)), "transcript-results-1x.json");

type Results = Record<string, Record<string, { rows: number; sha256: string; first: unknown }>>;

/** A value as JSON can hold it the same whichever warehouse it was read from. */
const plain = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

/** Every template's outputs over what `warehouse` holds: rows in key order, each as plain values. */
async function resultsFrom(warehouse: Warehouse): Promise<{ results: Results; rows: Record<string, unknown[]> }> {
  const results: Results = {};
  const rows: Record<string, unknown[]> = {};
  for (const d of allDefinitions().filter((t) => programOf(t.id)?.stream === "meetings")) {
    results[d.id] = {};
    // Small batches: meetings and their lines span several of the scans' batches.
    for (const output of await runProgram(d.id, { warehouse, sourceId: SOURCE, platforms: ["zoom"], batchRows: 700 }, RUN)) {
      const keyOf = (row: Record<string, unknown>) => JSON.stringify(output.key.map((k) => plain(row[k])));
      const sorted = [...output.rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
      const canonical = sorted.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plain(v)])));
      const text = JSON.stringify(canonical);
      rows[`${d.id}.${output.suffix}`] = canonical;
      results[d.id]![output.suffix] = { rows: canonical.length, sha256: createHash("sha256").update(text).digest("hex"), first: canonical[0] ?? null };
    }
  }
  return { results, rows };
}

async function load(writer: DestinationWriter): Promise<void> {
  const meetings = generateMeetings({ sourceId: SOURCE, company: "Acme Rockets", from: new Date(UNTIL.getTime() - DAYS * 86_400_000), to: UNTIL, meetingsPerDay: PER_DAY });
  try {
    await writeRecords([{ name: "warehouse", writer }], meetings, batchMaker(datagenPlugin, { platform: "zoom", sourceId: SOURCE }));
  } finally {
    await writer.close();
  }
}

const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-results-"));
let target: PostgresTarget;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ target, drop } = await userPostgresDatabase(inject("pgAdminUrl"), "results"));
}, 60_000);

afterAll(async () => {
  await drop?.();
  rmSync(folder, { recursive: true, force: true });
});

describe("the transcript templates' results on the benchmark's 1× data", () => {
  it("are the same read from the local warehouse and from PostgreSQL, and are the ones recorded", async () => {
    await load(new LocalWriter(folder));
    await load(new PostgresWriter(target));
    const local = new LocalWarehouse(new LocalWriter(folder));
    const postgres = new PostgresWarehouse(async () => target);
    let fromLocal, fromPostgres;
    try {
      fromLocal = await resultsFrom(local);
      fromPostgres = await resultsFrom(postgres);
    } finally {
      await local.close();
      await postgres.close();
    }
    expect(Object.keys(fromLocal.results)).toEqual(["topic_modeling", "sentiment_over_time", "action_items", "speaker_metrics", "keyword_tracker", "deal_risk"]);
    for (const [table, rows] of Object.entries(fromLocal.rows)) expect(fromPostgres.rows[table], table).toEqual(rows);
    if (process.env.UPDATE_TRANSCRIPT_RESULTS === "1") writeFileSync(RECORDED, `${JSON.stringify(fromLocal.results, null, 2)}\n`);
    const recorded = JSON.parse(readFileSync(RECORDED, "utf8")) as Results;
    expect(fromLocal.results).toEqual(recorded);
    // Not a run over nothing: every template gave rows.
    for (const [template, outputs] of Object.entries(recorded)) for (const [suffix, o] of Object.entries(outputs)) expect(o.rows, `${template}.${suffix}`).toBeGreaterThan(0);
  }, 120_000);
});
