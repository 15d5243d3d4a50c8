import { randomUUID } from "node:crypto";
import pg from "pg";
import { latestSlot } from "../../backend/sync/index.js";

/** A small deterministic PRNG (mulberry32), so every run seeds the same shape of data. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

/** When the id's latest scheduled slot (latestSlot) began; null when it was created after it (the scheduler skips that slot). */
function lastSlot(id: string, frequency: string, createdAt: Date, now: number): number | null {
  const slot = latestSlot(id, frequency, new Date(now)).getTime();
  return slot >= createdAt.getTime() ? slot : null;
}

/** One multi-row INSERT: rows of equal width become ($1,$2,…),($n,…). */
async function insertRows(client: pg.ClientBase, table: string, columns: string[], rows: unknown[][], batch = 500) {
  for (let start = 0; start < rows.length; start += batch) {
    const chunk = rows.slice(start, start + batch);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => {
      const marks = row.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      return `(${marks.join(",")})`;
    });
    await client.query(`INSERT INTO ${table} (${columns.join(",")}) VALUES ${tuples.join(",")}`, params);
  }
}

const SOURCES = [
  { name: "Zoom · Sales team", description: "Cloud recordings and transcripts of the sales team's Zoom calls.", integration: "zoom", label: "Zoom" },
  { name: "Zoom · Customer success", description: "Onboarding and QBR calls recorded in Zoom.", integration: "zoom", label: "Zoom" },
  { name: "Teams · Support desk", description: "Microsoft Teams meetings of the support desk, with transcripts.", integration: "teams", label: "Microsoft Teams" },
  { name: "Gmail · Founders inbox", description: "Customer threads from the founders' shared inbox.", integration: "gmail", label: "Gmail" },
  { name: "Data generator · Demo", description: "Synthetic meetings and e-mails for demos and load tests.", integration: "datagen", label: "Data generator" },
] as const;

const DESTINATIONS = [
  { name: "Analytics warehouse", description: "BigQuery dataset the analysts query.", integration: "bigquery", label: "BigQuery", category: "WAREHOUSE", config: { project_id: "acme-analytics", dataset_name: "meetings" } },
  { name: "Raw transcripts bucket", description: "Cloud Storage bucket holding every raw file.", integration: "gcs", label: "Google Cloud Storage", category: "STORAGE", config: { project_id: "acme-analytics", bucket_name: "acme-raw-transcripts" } },
  { name: "Finance Snowflake", description: "Snowflake warehouse of the finance team.", integration: "snowflake", label: "Snowflake", category: "WAREHOUSE", config: { account: "acme-eu1", warehouse: "COMPUTE_WH", database: "RAW", schema: "MEETINGS" } },
  { name: "Snowflake stage", description: "External stage in front of the finance warehouse.", integration: "snowflake", label: "Snowflake", category: "STORAGE", config: { account: "acme-eu1", database: "RAW", schema: "STAGE" } },
  { name: "Local archive", description: "Files on this machine, for trying things out.", integration: "local", label: "Local files", category: "STORAGE", config: {} },
  { name: "EU compliance bucket", description: "Retention copy in the EU region.", integration: "gcs", label: "Google Cloud Storage", category: "STORAGE", config: { project_id: "acme-eu", bucket_name: "acme-eu-retention" } },
] as const;

const TEAMS = ["Sales", "Support", "Customer success", "Marketing", "Product", "Engineering", "Finance", "Recruiting", "Partnerships", "Leadership"];
const WHAT = ["calls", "stand-ups", "demos", "interviews", "QBRs", "inbox", "webinars", "1:1s", "escalations", "renewals"];
const REGIONS = ["EMEA", "NA", "APAC", "LATAM", "DACH", "Nordics", "UK&I", "ANZ"];
const PURPOSES = [
  "Feeds the weekly pipeline review dashboard",
  "Transcripts for coaching and call scoring",
  "Keeps a searchable archive for compliance",
  "Sentiment and topic signals for the product team",
  "Backs the churn-risk model with fresh conversations",
  "Raw material for the quarterly customer insights report",
  "Used by the enablement team to find good examples",
  "Loaded nightly for the finance forecast",
];

export interface SeedCounts {
  userId: string;
  sources: number;
  destinations: number;
  connectors: number;
  links: number;
  transforms: number;
}

/**
 * Gives the signed-in user (found by e-mail) a realistic account: a few sources
 * and destinations, `connectorCount` connectors created over the past year, each
 * linked to one or two destinations, and a few transforms. Multi-row inserts,
 * one transaction, then ANALYZE so the planner sees the real table sizes (as
 * autovacuum would shortly after such a load).
 *
 * Each connector and transform also gets the run of its latest scheduled slot (latestSlot), as an account
 * whose schedules have been running has: succeeded at its last sync, failed for one never synced. Without
 * them the scheduler's first pass found every one of the ~950 active connectors due and queued them all at
 * once; those runs failed (the seeded sources have no credentials) while the pages were measured, costing
 * CPU and changing the user's data version, so the page cache rendered again. Where in the measurements
 * that pass landed depended on the minute: p95 of /connectors measured 100–121 ms in the runs it hit and
 * 4–12 ms otherwise. Now only the connectors whose slot comes during the benchmark run, as they would.
 */
export async function seedConnectors(databaseUrl: string, email: string, connectorCount: number, seed = 20261122): Promise<SeedCounts> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const found = await client.query<{ id: string }>("SELECT id FROM users WHERE lower(email) = lower($1) ORDER BY created_at DESC LIMIT 1", [email]);
    const userId = found.rows[0]?.id;
    if (!userId) throw new Error(`No user with e-mail ${email} in the database: did sign-in reach the backend?`);
    const rnd = prng(seed);
    const now = Date.now();
    const day = 86_400_000;

    await client.query("BEGIN");
    for (const table of ["transforms", "connectors", "sources", "destinations"]) {
      await client.query(`DELETE FROM ${table} WHERE owner_id = $1`, [userId]);
    }

    const sourceIds = SOURCES.map(() => randomUUID());
    await insertRows(
      client,
      "sources",
      ["id", "owner_id", "name", "description", "integration_name", "integration_label", "status", "created_at"],
      SOURCES.map((s, i) => [sourceIds[i], userId, s.name, s.description, s.integration, s.label, "ACTIVE", new Date(now - (400 - i) * day)]),
    );
    const destinationIds = DESTINATIONS.map(() => randomUUID());
    await insertRows(
      client,
      "destinations",
      ["id", "owner_id", "name", "description", "integration_name", "integration_label", "category", "status", "config", "created_at"],
      DESTINATIONS.map((d, i) => [destinationIds[i], userId, d.name, d.description, d.integration, d.label, d.category, "ACTIVE", JSON.stringify(d.config), new Date(now - (395 - i) * day)]),
    );

    const connectorRows: unknown[][] = [];
    const linkRows: unknown[][] = [];
    const runRows: unknown[][] = [];
    for (let n = 1; n <= connectorCount; n++) {
      const id = randomUUID();
      const sourceIndex = rnd.int(0, SOURCES.length - 1);
      const team = rnd.pick(TEAMS);
      const what = rnd.pick(WHAT);
      const region = rnd.pick(REGIONS);
      const createdAt = new Date(now - rnd.next() * 365 * day);
      const neverSynced = rnd.next() < 0.15;
      const frequency = rnd.next() < 0.6 ? "daily" : "hourly";
      // The run of its latest slot, and the sync it made.
      const lastRun = lastSlot(id, frequency, createdAt, now);
      const finished = lastRun === null ? now : Math.min(lastRun + rnd.int(2_000, 90_000), now);
      const lastSynced = neverSynced || lastRun === null ? null : new Date(finished);
      if (lastRun !== null) {
        runRows.push([
          randomUUID(),
          id,
          userId,
          neverSynced ? "failed" : "succeeded",
          "schedule",
          1,
          neverSynced ? 0 : rnd.int(20, 400),
          neverSynced ? 0 : rnd.int(50_000, 5_000_000),
          neverSynced ? "The source has no credential any more. Create the source again to authenticate." : null,
          new Date(lastRun),
          new Date(lastRun),
          new Date(finished),
        ]);
      }
      connectorRows.push([
        id,
        userId,
        `${team} ${what} · ${region} #${String(n).padStart(4, "0")}`,
        `${rnd.pick(PURPOSES)}. ${team} (${region}), ${frequency} sync of the last ${rnd.int(1, 30)} days from ${SOURCES[sourceIndex]!.label}.`,
        sourceIds[sourceIndex],
        SOURCES[sourceIndex]!.integration === "zoom" ? "zoom_cloud" : null,
        frequency,
        rnd.int(1, 30),
        rnd.next() < 0.05,
        lastSynced,
        createdAt,
        rnd.next() < 0.3 ? new Date(createdAt.getTime() + rnd.next() * (now - createdAt.getTime())) : null,
      ]);
      const first = rnd.int(0, DESTINATIONS.length - 1);
      linkRows.push([id, destinationIds[first]]);
      if (rnd.next() < 0.45) linkRows.push([id, destinationIds[(first + rnd.int(1, DESTINATIONS.length - 1)) % DESTINATIONS.length]]);
    }
    await insertRows(
      client,
      "connectors",
      ["id", "owner_id", "name", "description", "source_id", "platform", "frequency", "lookback_days", "paused", "last_synced_at", "created_at", "updated_at"],
      connectorRows,
    );
    await insertRows(client, "connector_destinations", ["connector_id", "destination_id"], linkRows, 1000);
    await insertRows(
      client,
      "sync_runs",
      ["id", "connector_id", "owner_id", "status", "trigger", "attempts", "records", "bytes", "error", "created_at", "started_at", "finished_at"],
      runRows,
    );

    const transformRows = connectorRows.slice(0, 12).map((c, i) => [
      randomUUID(),
      userId,
      `${String(c[2]).split(" · ")[0]} signals ${i + 1}`,
      "Topic, sentiment and next steps extracted from each conversation.",
      i % 3 === 0 ? "template" : "pipeline",
      "conversation-signals",
      c[0],
      new Date(now - (12 - i) * day),
    ]);
    await insertRows(client, "transforms", ["id", "owner_id", "name", "description", "transform_type", "template_id", "connector_id", "created_at"], transformRows);
    // Transforms run daily (the column's default), each at its latest slot too.
    const transformRunRows = transformRows.flatMap(([id, , , , , , , createdAt]) => {
      const slot = lastSlot(id as string, "daily", createdAt as Date, now);
      if (slot === null) return [];
      return [[randomUUID(), id, userId, "succeeded", "schedule", 1, rnd.int(20, 400), new Date(slot), new Date(slot), new Date(Math.min(slot + rnd.int(2_000, 30_000), now))]];
    });
    await insertRows(client, "transform_runs", ["id", "transform_id", "owner_id", "status", "trigger", "attempts", "records", "created_at", "started_at", "finished_at"], transformRunRows);
    await client.query("COMMIT");
    await client.query("ANALYZE users, sessions, sources, destinations, connectors, connector_destinations, transforms, sync_runs, transform_runs");
    return {
      userId,
      sources: SOURCES.length,
      destinations: DESTINATIONS.length,
      connectors: connectorRows.length,
      links: linkRows.length,
      transforms: transformRows.length,
    };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
