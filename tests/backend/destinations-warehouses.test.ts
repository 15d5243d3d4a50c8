import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connectDatabase, type DatabaseHandle } from "../../backend/db/client.js";
import { SecretBox } from "../../backend/lib/crypto.js";
import type { DestinationCall } from "../../backend/integrations/destinations/plugin.js";
import { bigqueryPlugin } from "../../backend/integrations/destinations/bigquery/plugin.js";
import { BigQueryWriter } from "../../backend/integrations/destinations/bigquery/writer.js";
import { snowflakeWarehousePlugin } from "../../backend/integrations/destinations/snowflake/plugin.js";
import { SnowflakeWriter } from "../../backend/integrations/destinations/snowflake/writer.js";
import type { ScanQuery, Warehouse } from "../../backend/integrations/destinations/warehouse.js";
import type { DestinationWriter } from "../../backend/integrations/destinations/writer.js";
import { LINE_COLUMNS, MEETING_COLUMNS, meetingsWithLines, type MeetingWithLines } from "../../backend/transforms/read.js";
import type { PluginDestination } from "../../backend/integrations/destinations/plugin.js";
import { FakeBigQuery } from "../fakes/bigquery.js";
import { FakeSnowflake } from "../fakes/snowflake.js";
import { cloneTemplateDatabase } from "../support/backend.js";

/**
 * What transforms read from the cloud warehouses (countRows, scan), through the official SDKs against the local
 * fakes: rows the real writers wrote, counted and scanned back; the SQL each plug-in sends, pinned; a scan read in
 * pages from the warehouse (BigQuery: jobs.getQueryResults with maxResults and pageToken; Snowflake: a streamed
 * result whose chunks the SDK downloads as it reads), in batches of at most batchRows.
 */
const bigquery = new FakeBigQuery();
const snowflake = new FakeSnowflake();
const PROJECT = "demo-project";
const PASSWORD = "pw";
const secrets = new SecretBox(randomBytes(32).toString("base64url"));
const saved = Object.fromEntries(["BIGQUERY_API_ENDPOINT", "SNOWFLAKE_HOST_OVERRIDE", "GOOGLE_SERVICE_ACCOUNT_KEY", "GOOGLE_SERVICE_ACCOUNT_KEY_FILE"].map((name) => [name, process.env[name]]));
let handle: DatabaseHandle;
let appDatabase: string;
let call: DestinationCall;

beforeAll(async () => {
  await Promise.all([bigquery.start(), snowflake.start()]);
  process.env.BIGQUERY_API_ENDPOINT = bigquery.url;
  process.env.SNOWFLAKE_HOST_OVERRIDE = snowflake.url;
  // With an endpoint override the key is never used to sign: only its shape is checked.
  process.env.GOOGLE_SERVICE_ACCOUNT_KEY = JSON.stringify({ type: "service_account", client_email: "platform@test.iam.gserviceaccount.com", private_key: "unused" });
  delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE;
  // The app's own database (the Snowflake password is a stored credential); no backend: the plug-ins are called as the routers call them.
  const appUrl = await cloneTemplateDatabase();
  appDatabase = new URL(appUrl).pathname.slice(1);
  handle = connectDatabase(appUrl, 2);
  const { rows } = await handle.pool.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', 'wh@example.com', 'wh@example.com', 'W') RETURNING id");
  call = { ownerId: rows[0]!.id, services: { db: handle.db, secrets, config: { DATA_DIR: "/nonexistent" } } };
});

afterAll(async () => {
  await handle?.close();
  const admin = new pg.Client({ connectionString: inject("pgAdminUrl") });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${appDatabase} WITH (FORCE)`).catch(() => {});
  await admin.end();
  await Promise.all([bigquery.stop(), snowflake.stop()]);
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const SOURCE = "7a0c4f1e-2b3d-4c5e-8f90-1a2b3c4d5e6f";
const OTHER = "00000000-0000-4000-8000-000000000000";
const start = new Date("2026-11-21T10:00:00.000Z");
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

const MEETINGS = [
  { meeting_id: "a", source_id: SOURCE, platform: "zoom", title: "A", account: "Acme", started_at: start },
  { meeting_id: "b", source_id: SOURCE, platform: "gmail", title: "B", account: null, started_at: start },
  { meeting_id: "c", source_id: OTHER, platform: "zoom", title: "C", account: null, started_at: start },
];
/** A line of meeting a (or of another source's meeting c), `seconds` into it. */
const line = (id: string, seconds: number, speaker: "Ann" | "Bob", text: string, meeting = "a", source = SOURCE) => ({
  utterance_id: id,
  meeting_id: meeting,
  source_id: source,
  speaker_id: speaker === "Ann" ? "s1" : "s2",
  speaker_name: speaker,
  affiliation: speaker === "Ann" ? "Internal" : null,
  spoken_at: at(seconds),
  start_ms: seconds * 1000,
  end_ms: seconds * 1000 + 1000,
  text,
});
/** Written out of order: a scan orders them. */
const LINES = [
  line("a-0003", 30, "Ann", "fourth"),
  line("a-0001", 5, "Ann", "second"),
  line("c-0000", 0, "Bob", "elsewhere", "c", OTHER),
  line("a-0000", 0, "Bob", "first"),
  line("a-0004", 40, "Bob", "fifth"),
  line("a-0002", 20, "Bob", "third"),
];
/** The source's lines as a scan of LINE_COLUMNS answers them, in (meeting_id, start_ms, utterance_id) order. */
const SCANNED = ["a-0000", "a-0001", "a-0002", "a-0003", "a-0004"].map((id) => {
  const { source_id: _source, ...rest } = LINES.find((l) => l.utterance_id === id)!;
  return rest;
});

const linesQuery = (batchRows: number): ScanQuery => ({ table: "transcript_utterances", sourceId: SOURCE, columns: LINE_COLUMNS, orderBy: ["meeting_id", "start_ms", "utterance_id"], batchRows });

async function write(writer: DestinationWriter) {
  try {
    await writer.upsertRows("meetings", MEETINGS, ["meeting_id"]);
    await writer.upsertRows("transcript_utterances", LINES, ["utterance_id"]);
  } finally {
    await writer.close();
  }
}
async function all(warehouse: Warehouse, query: ScanQuery) {
  const batches: Record<string, unknown>[][] = [];
  for await (const batch of warehouse.scan(query)) batches.push(batch);
  return batches;
}
async function readMeetings(warehouse: Warehouse, platforms: string[]) {
  const out: MeetingWithLines[] = [];
  for await (const item of meetingsWithLines(warehouse, SOURCE, platforms)) out.push(item);
  return out;
}

/** What both warehouses must answer over the same rows (the PostgreSQL destination's test asks the same). */
async function readsBack(warehouse: Warehouse) {
  expect(await warehouse.countRows("meetings", SOURCE, ["zoom", "teams"])).toBe(1);
  expect(await warehouse.countRows("meetings", SOURCE, [])).toBe(0);
  expect(await warehouse.countRows("meetings", SOURCE)).toBe(2);
  expect(await warehouse.countRows("transcript_utterances", SOURCE)).toBe(5);
  expect(await warehouse.countRows("no_such_table", SOURCE)).toBe(0);
  expect(await warehouse.countRows("no_such_table", SOURCE, ["zoom"])).toBe(0);
  expect(await all(warehouse, { table: "no_such_table", sourceId: SOURCE, columns: [{ name: "x", type: "string" }], orderBy: ["x"], batchRows: 10 })).toEqual([]);
  expect(await all(warehouse, { table: "meetings", sourceId: SOURCE, platforms: ["zoom"], columns: MEETING_COLUMNS, orderBy: ["meeting_id"], batchRows: 10 })).toEqual([
    [{ meeting_id: "a", title: "A", account: "Acme", started_at: start }],
  ]);
  expect(await all(warehouse, { table: "meetings", sourceId: SOURCE, platforms: [], columns: MEETING_COLUMNS, orderBy: ["meeting_id"], batchRows: 10 })).toEqual([]);
  const meetings = await readMeetings(warehouse, ["zoom"]);
  expect(meetings.map((m) => m.meeting)).toEqual([{ meeting_id: "a", title: "A", started_at: start, account: "Acme" }]);
  expect(meetings[0]!.lines.map((l) => [l.utterance_id, l.speaker_name, l.affiliation, l.spoken_at.toISOString(), l.start_ms, l.text])).toEqual([
    ["a-0000", "Bob", null, "2026-11-21T10:00:00.000Z", 0, "first"],
    ["a-0001", "Ann", "Internal", "2026-11-21T10:00:05.000Z", 5_000, "second"],
    ["a-0002", "Bob", null, "2026-11-21T10:00:20.000Z", 20_000, "third"],
    ["a-0003", "Ann", "Internal", "2026-11-21T10:00:30.000Z", 30_000, "fourth"],
    ["a-0004", "Bob", null, "2026-11-21T10:00:40.000Z", 40_000, "fifth"],
  ]);
}

/** A scan's batches: each of at most `batchRows`, together every row in order, timestamps as dates. */
function expectBatches(batches: Record<string, unknown>[][], sizes: number[]) {
  expect(batches.map((b) => b.length)).toEqual(sizes);
  expect(batches.flat()).toEqual(SCANNED);
  expect(batches.flat().every((r) => r.spoken_at instanceof Date && typeof r.start_ms === "number")).toBe(true);
}

function destination(integration: "bigquery" | "snowflake", config: Record<string, unknown>, credentialId: string | null = null): PluginDestination {
  return { id: "00000000-0000-4000-8000-000000000002", name: "Warehouse", integrationName: integration, config, credentialId };
}

describe("BigQuery warehouse", () => {
  const table = (name: string) => `\`${PROJECT}.analytics.${name}\``;
  const queryResults = () => bigquery.requests.filter((r) => r.method === "GET" && /\/projects\/[^/]+\/queries\/[^/]+$/.test(r.path));

  beforeAll(async () => {
    bigquery.reset();
    bigquery.createDataset(PROJECT, "analytics");
    await write(new BigQueryWriter({ client_email: "platform@test.iam.gserviceaccount.com", private_key: "unused" }, PROJECT, "analytics"));
  });
  const warehouse = () => bigqueryPlugin.warehouse!(destination("bigquery", { project_id: PROJECT, dataset_name: "analytics" }), call);

  it("counts and scans what the writer wrote, as the other warehouses do", async () => {
    const wh = warehouse();
    try {
      await readsBack(wh);
    } finally {
      await wh.close();
    }
  });

  it("counts with @source and, when given, @platforms bound", async () => {
    const wh = warehouse();
    bigquery.queries.length = 0;
    bigquery.requests.length = 0;
    expect(await wh.countRows("meetings", SOURCE, ["zoom", "teams", "fax"])).toBe(1);
    expect(await wh.countRows("meetings", SOURCE)).toBe(2);
    expect(bigquery.queries).toEqual([
      `SELECT COUNT(*) AS n FROM ${table("meetings")} WHERE source_id = @source AND platform IN UNNEST(@platforms)`,
      `SELECT COUNT(*) AS n FROM ${table("meetings")} WHERE source_id = @source`,
    ]);
    const parameters = bigquery.requests.filter((r) => r.method === "POST" && r.path.endsWith("/queries")).map((r) => JSON.parse(r.body.toString()).queryParameters);
    expect(parameters).toEqual([
      [
        { name: "source", parameterType: { type: "STRING" }, parameterValue: { value: SOURCE } },
        { name: "platforms", parameterType: { type: "ARRAY", arrayType: { type: "STRING" } }, parameterValue: { arrayValues: [{ value: "zoom" }, { value: "teams" }] } },
      ],
      [{ name: "source", parameterType: { type: "STRING" }, parameterValue: { value: SOURCE } }],
    ]);
  });

  it("scans with one query job, read a page of batchRows rows at a time by its pageToken", async () => {
    const wh = warehouse();
    bigquery.queries.length = 0;
    bigquery.jobs.length = 0;
    bigquery.requests.length = 0;
    expectBatches(await all(wh, linesQuery(2)), [2, 2, 1]);
    expect(bigquery.queries).toEqual([
      "SELECT `meeting_id`, `utterance_id`, `speaker_id`, `speaker_name`, `affiliation`, UNIX_MILLIS(`spoken_at`) AS `spoken_at`, `start_ms`, `end_ms`, `text` " +
        `FROM ${table("transcript_utterances")} WHERE source_id = @source ORDER BY \`meeting_id\`, \`start_ms\`, \`utterance_id\``,
    ]);
    expect(bigquery.jobs).toMatchObject([{ query: { useLegacySql: false, parameterMode: "named", queryParameters: [{ name: "source", parameterValue: { value: SOURCE } }] } }]);
    // Three pages of at most two rows: the first without a token, each next one with the token the page before gave.
    const pages = queryResults();
    expect(pages.map((r) => r.query.maxResults)).toEqual(["2", "2", "2"]);
    expect(pages[0]!.query.pageToken).toBeUndefined();
    expect(new Set(pages.slice(1).map((r) => r.query.pageToken)).size).toBe(2);
    expect(pages.slice(1).every((r) => typeof r.query.pageToken === "string")).toBe(true);

    // One batch when batchRows covers the result; the platforms filter bound as an array, empty or not.
    bigquery.queries.length = 0;
    bigquery.requests.length = 0;
    expectBatches(await all(wh, linesQuery(100)), [5]);
    expect(queryResults()).toHaveLength(1);
    await all(wh, { table: "meetings", sourceId: SOURCE, platforms: ["zoom"], columns: MEETING_COLUMNS, orderBy: ["started_at", "meeting_id"], batchRows: 10 });
    expect(bigquery.queries.at(-1)).toBe(
      `SELECT \`meeting_id\`, \`title\`, \`account\`, UNIX_MILLIS(\`started_at\`) AS \`started_at\` FROM ${table("meetings")} WHERE source_id = @source AND platform IN UNNEST(@platforms) ORDER BY \`started_at\`, \`meeting_id\``,
    );
    // A table that does not exist: no query at all.
    bigquery.queries.length = 0;
    expect(await all(wh, { ...linesQuery(2), table: "no_such_table" })).toEqual([]);
    expect(bigquery.queries).toEqual([]);
  });
});

describe("Snowflake warehouse", () => {
  const settings = { account: "org-acct", user: "loader", password: PASSWORD, warehouse: "wh", database: "raw", schema: "meetings" };
  const chunkDownloads = () => snowflake.requests.filter((r) => r.method === "GET" && r.path.startsWith("/results/")).map((r) => r.path);
  let target: PluginDestination;

  beforeAll(async () => {
    snowflake.reset();
    snowflake.addUser("LOADER", { password: PASSWORD, warehouses: ["WH"], databases: ["RAW"], schemas: ["RAW.MEETINGS"], createTableIn: ["RAW.MEETINGS"] });
    await write(new SnowflakeWriter({ account: "org-acct", user: "loader", password: PASSWORD, warehouse: "WH", database: "RAW", schema: "MEETINGS" }, "snowflake"));
    const tested = await snowflakeWarehousePlugin.test!(settings, call, {});
    target = destination("snowflake", await snowflakeWarehousePlugin.config(settings, { ...call, destinationId: "x", credential: null }), tested.credentialId ?? null);
  });
  const warehouse = () => snowflakeWarehousePlugin.warehouse!(target, call);

  it("counts and scans what the writer wrote, as the other warehouses do", async () => {
    const wh = warehouse();
    try {
      await readsBack(wh);
    } finally {
      await wh.close();
    }
  });

  it("counts with every value bound, FALSE for no platforms", async () => {
    const wh = warehouse();
    try {
      snowflake.statements.length = 0;
      expect(await wh.countRows("meetings", SOURCE, ["zoom", "teams", "fax"])).toBe(1);
      expect(await wh.countRows("meetings", SOURCE, [])).toBe(0);
      expect(await wh.countRows("meetings", SOURCE)).toBe(2);
      const counts = snowflake.statements.filter((s) => s.sqlText.startsWith("SELECT COUNT(*) AS N FROM RAW.MEETINGS."));
      expect(counts.map((s) => s.sqlText)).toEqual([
        "SELECT COUNT(*) AS N FROM RAW.MEETINGS.MEETINGS WHERE SOURCE_ID = ? AND PLATFORM IN (?, ?)",
        "SELECT COUNT(*) AS N FROM RAW.MEETINGS.MEETINGS WHERE SOURCE_ID = ? AND FALSE",
        "SELECT COUNT(*) AS N FROM RAW.MEETINGS.MEETINGS WHERE SOURCE_ID = ?",
      ]);
      expect(counts.map((s) => Object.values(s.bindings as Record<string, { value: unknown }>).map((b) => b.value))).toEqual([[SOURCE, "zoom", "teams"], [SOURCE], [SOURCE]]);
    } finally {
      await wh.close();
    }
  });

  it("scans with one streamed statement, each chunk of its result downloaded once as the batches are read", async () => {
    const wh = warehouse();
    try {
      // Two rows in the answer, then chunks of two rows: the SDK downloads the chunks; batches of three cross them.
      snowflake.results.chunkRows = 2;
      snowflake.statements.length = 0;
      snowflake.requests.length = 0;
      expectBatches(await all(wh, linesQuery(3)), [3, 2]);
      const scans = snowflake.statements.filter((s) => s.sqlText.startsWith("SELECT MEETING_ID"));
      expect(scans.map((s) => s.sqlText)).toEqual([
        "SELECT MEETING_ID, UTTERANCE_ID, SPEAKER_ID, SPEAKER_NAME, AFFILIATION, DATE_PART(EPOCH_MILLISECOND, SPOKEN_AT) AS SPOKEN_AT, START_MS, END_MS, TEXT " +
          "FROM RAW.MEETINGS.TRANSCRIPT_UTTERANCES WHERE SOURCE_ID = ? ORDER BY MEETING_ID, START_MS, UTTERANCE_ID",
      ]);
      expect(scans[0]!.bindings).toEqual({ 1: { type: "TEXT", value: SOURCE } });
      const downloads = chunkDownloads();
      expect(downloads).toHaveLength(2);
      expect(new Set(downloads).size).toBe(2);

      // Batches of one and of two: the same rows, the chunks again downloaded once each.
      snowflake.requests.length = 0;
      expectBatches(await all(wh, linesQuery(1)), [1, 1, 1, 1, 1]);
      expect(chunkDownloads()).toHaveLength(2);
      snowflake.results.chunkRows = 1_000;
      expectBatches(await all(wh, linesQuery(2)), [2, 2, 1]);

      await all(wh, { table: "meetings", sourceId: SOURCE, platforms: ["zoom", "gmail"], columns: MEETING_COLUMNS, orderBy: ["started_at", "meeting_id"], batchRows: 10 });
      expect(snowflake.statements.at(-1)).toMatchObject({
        sqlText:
          "SELECT MEETING_ID, TITLE, ACCOUNT, DATE_PART(EPOCH_MILLISECOND, STARTED_AT) AS STARTED_AT FROM RAW.MEETINGS.MEETINGS " +
          "WHERE SOURCE_ID = ? AND PLATFORM IN (?, ?) ORDER BY STARTED_AT, MEETING_ID",
        bindings: { 1: { type: "TEXT", value: SOURCE }, 2: { type: "TEXT", value: "zoom" }, 3: { type: "TEXT", value: "gmail" } },
      });
      // A table that does not exist: only the look-up, no SELECT of it.
      snowflake.statements.length = 0;
      expect(await all(wh, { ...linesQuery(2), table: "no_such_table" })).toEqual([]);
      expect(snowflake.statements.map((s) => s.sqlText)).toEqual(["SELECT COUNT(*) AS N FROM RAW.INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"]);
    } finally {
      snowflake.results.chunkRows = 1_000;
      await wh.close();
    }
  });
});
