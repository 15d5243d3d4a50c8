import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { StreamManifest } from "../../contract/integrations/streams.js";
import { BigQueryWriter } from "../../backend/integrations/destinations/bigquery/writer.js";
import { BULK_ROWS, LocalWriter } from "../../backend/integrations/destinations/local/index.js";
import { PostgresWriter } from "../../backend/integrations/destinations/postgres/writer.js";
import type { PostgresTarget } from "../../backend/integrations/destinations/postgres/connect.js";
import { SnowflakeWriter } from "../../backend/integrations/destinations/snowflake/writer.js";
import type { ColumnKind, DestinationWriter, Row } from "../../backend/integrations/destinations/writer.js";
import { sourcePlugin, type SourcePlugin } from "../../backend/integrations/sources/index.js";
import { batchMaker, writeRecords } from "../../backend/sync/index.js";
import { FakeBigQuery } from "../fakes/bigquery.js";
import { FakeSnowflake } from "../fakes/snowflake.js";
import { warehouse as duckdb } from "../support/reading.js";
import { userPostgresDatabase } from "../support/user-postgres.js";

/**
 * Issue 53: a stream's table at every warehouse is what its manifest declares (contract/integrations/streams.ts), not
 * what the first values look like. A sync (the engine's batchMaker and writeRecords, one record per batch) whose first
 * batch holds NULL in declared number, timestamp and json columns makes each warehouse's table with exactly the declared
 * columns, of the declared types mapped to the warehouse's own; a table that exists gains the declared columns it lacks;
 * a column the rows hold that the stream does not declare is kept, of the type of its values (no value is dropped).
 */

const SOURCE = "5e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b";
const PROJECT = "declared-project";
const DATASET = "declared";
const bigquery = new FakeBigQuery();
const snowflake = new FakeSnowflake();
const saved = Object.fromEntries(["BIGQUERY_API_ENDPOINT", "SNOWFLAKE_HOST_OVERRIDE"].map((name) => [name, process.env[name]]));
let postgres: Awaited<ReturnType<typeof userPostgresDatabase>>;
let localRoot: string;

beforeAll(async () => {
  await Promise.all([bigquery.start(), snowflake.start()]);
  process.env.BIGQUERY_API_ENDPOINT = bigquery.url;
  process.env.SNOWFLAKE_HOST_OVERRIDE = snowflake.url;
  bigquery.createDataset(PROJECT, DATASET);
  snowflake.addUser("LOADER", { password: "pw", warehouses: ["WH"], databases: ["RAW"], schemas: ["RAW.DECLARED"], createTableIn: ["RAW.DECLARED"] });
  postgres = await userPostgresDatabase(inject("pgAdminUrl"), "declared");
  localRoot = mkdtempSync(path.join(os.tmpdir(), "tributary-declared-"));
});

afterAll(async () => {
  await postgres?.drop();
  await Promise.all([bigquery.stop(), snowflake.stop()]);
  if (localRoot) rmSync(localRoot, { recursive: true, force: true });
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A query on the user's PostgreSQL database. */
async function postgresQuery(target: PostgresTarget, sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ ...target });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

const lower = (row: Record<string, unknown>): Row => Object.fromEntries(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v as Row[string]]));

/** A warehouse as the sync writes it (the writer a sync of it gets) and as its owner looks at a table. */
interface WarehouseUnderTest {
  name: string;
  /** Each declared kind as the warehouse names the type of its column. */
  types: Record<ColumnKind, string>;
  open(): DestinationWriter;
  /** The table's columns in their order: [lower-case name, type]. */
  columns(table: string): Promise<[string, string][]>;
  /** The table's rows, column names lower-cased. */
  rows(table: string): Promise<Row[]>;
}

const WAREHOUSES: WarehouseUnderTest[] = [
  {
    name: "PostgreSQL",
    types: { string: "text", number: "double precision", boolean: "boolean", timestamp: "timestamp with time zone", json: "jsonb" },
    open: () => new PostgresWriter(postgres.target),
    async columns(table) {
      const found = await postgresQuery(postgres.target, "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position", [
        postgres.target.schema,
        table,
      ]);
      return found.map((r) => [String(r.column_name), String(r.data_type)]);
    },
    rows: async (table) => (await postgresQuery(postgres.target, `SELECT * FROM "${postgres.target.schema}"."${table}"`)).map(lower),
  },
  {
    name: "Snowflake",
    types: { string: "VARCHAR", number: "FLOAT", boolean: "BOOLEAN", timestamp: "TIMESTAMP_TZ", json: "VARIANT" },
    open: () => new SnowflakeWriter({ account: "org-acct", user: "loader", password: "pw", warehouse: "WH", database: "RAW", schema: "DECLARED" }, "snowflake"),
    columns: async (table) => (snowflake.columns.get(`RAW.DECLARED.${table.toUpperCase()}`) ?? []).map((c) => [c.name.toLowerCase(), c.type]),
    rows: async (table) => [...(snowflake.tables.get(`RAW.DECLARED.${table.toUpperCase()}`)?.values() ?? [])].map(lower),
  },
  {
    name: "BigQuery",
    types: { string: "STRING", number: "FLOAT", boolean: "BOOLEAN", timestamp: "TIMESTAMP", json: "JSON" },
    open: () => new BigQueryWriter({ client_email: "platform@test.iam.gserviceaccount.com", private_key: "unused" }, PROJECT, DATASET),
    columns: async (table) => (bigquery.schema(PROJECT, DATASET, table) ?? []).map((f) => [f.name.toLowerCase(), f.type.toUpperCase()]),
    rows: async (table) => bigquery.rows(PROJECT, DATASET, table).map((r) => lower(r as Record<string, unknown>)),
  },
  {
    name: "local DuckDB",
    types: { string: "VARCHAR", number: "DOUBLE", boolean: "BOOLEAN", timestamp: "TIMESTAMP WITH TIME ZONE", json: "JSON" },
    // The writer a sync gets (bulk: it holds rows until flush).
    open: () => new LocalWriter(localRoot, { holdRows: BULK_ROWS }),
    async columns(table) {
      const found = await duckdb<Row>(localRoot, `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`);
      return found.map((r) => [String(r.column_name), String(r.data_type)]);
    },
    rows: async (table) => (await duckdb<Row>(localRoot, `SELECT * FROM "${table}"`)).map(lower),
  },
];

/** A record of this test's source: the rows it writes, by stream. */
type Emitted = [stream: string, row: Row][];

/** A real source plug-in's manifest (its streams), with an emit that writes the record's rows as given. */
function source(name: "datagen" | "gmail"): Pick<SourcePlugin<Emitted>, "manifest" | "emit"> {
  return {
    manifest: sourcePlugin(name)!.manifest,
    emit: (record, _at, out) => {
      for (const [stream, row] of record) out.row(stream, row);
    },
  };
}

function stream(name: "datagen" | "gmail", table: string): StreamManifest {
  return sourcePlugin(name)!.manifest.streams.find((s) => s.name === table)!;
}

/** A sync of `records` through the engine to one warehouse: one record per batch, then flush and close. */
async function sync(warehouse: WarehouseUnderTest, name: "datagen" | "gmail", platform: string, records: Emitted[]): Promise<void> {
  const writer = warehouse.open();
  try {
    const result = await writeRecords([{ name: warehouse.name, writer }], records, batchMaker(source(name), { platform, sourceId: SOURCE }), 1);
    expect(result.records).toBe(records.length);
  } finally {
    await writer.close();
  }
}

/** The declared columns of a stream as the warehouse types them, in their order. */
const declared = (warehouse: WarehouseUnderTest, s: StreamManifest): [string, string][] => s.columns.map((c) => [c.name, warehouse.types[c.type]]);

/** A value as text the way every warehouse shows it (30 and 30.0 alike); NULL and a missing column alike. */
const shown = (v: unknown) => (v === null || v === undefined ? null : typeof v === "number" || (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v)) ? String(Number(v)) : String(v));
const byId = (rows: Row[], id: string) => rows.filter((r) => Object.values(r).includes(id));

const at = new Date("2026-11-21T10:00:00.000Z");

/** The first meeting: its number, timestamp and json columns NULL (or absent), as is its line's. */
const bare: Emitted = [
  ["meetings", { meeting_id: "m1", source_id: SOURCE, platform: "zoom", title: "Kick-off", account: null, started_at: null, duration_ms: null, host_id: null, participants: null }],
  [
    "transcript_utterances",
    { utterance_id: "m1-0000", meeting_id: "m1", source_id: SOURCE, utterance_index: null, speaker_name: "Ann", affiliation: null, topic: null, spoken_at: null, start_ms: null, end_ms: null, text: "Hello" },
  ],
];
/** The second, whole. */
const whole: Emitted = [
  [
    "meetings",
    {
      meeting_id: "m2",
      source_id: SOURCE,
      platform: "zoom",
      title: "Review",
      account: "Acme",
      started_at: at,
      duration_ms: 1_800_000,
      host_id: "h1",
      participants: [{ id: "p1", name: "Ann", email: "ann@example.test", affiliation: "Internal" }],
      agenda: ["pricing"],
    },
  ],
  [
    "transcript_utterances",
    {
      utterance_id: "m2-0000",
      meeting_id: "m2",
      source_id: SOURCE,
      utterance_index: 0,
      speaker_id: "p1",
      speaker_name: "Ann",
      speaker_email: "ann@example.test",
      affiliation: "Internal",
      topic: "pricing",
      spoken_at: at,
      start_ms: 1_500,
      end_ms: 4_000,
      text: "Shall we?",
    },
  ],
];

/** E-mails whose first batch lacks its timestamp and json values, and whose rows hold a column the stream does not declare. */
const messages: Emitted[] = [
  [["email_messages", { message_id: "e1", source_id: SOURCE, thread_id: "t1", mailbox: "ann@example.test", from_address: "bo@example.test", to_addresses: null, subject: "Renewal", sent_at: null, snippet: null, body_text: "Hi", labels: null, importance: "high" }]],
  [
    [
      "email_messages",
      { message_id: "e2", source_id: SOURCE, thread_id: "t1", mailbox: "ann@example.test", from_address: "ann@example.test", to_addresses: ["bo@example.test"], cc_addresses: [], subject: "Re: Renewal", sent_at: at, snippet: "Yes", body_text: "Yes", labels: ["INBOX"], importance: "low" },
    ],
  ],
];

describe.each(WAREHOUSES)("$name: a stream's table is its declaration", (warehouse) => {
  it("a sync whose first batch has NULLs in declared number, timestamp and json columns makes the tables of exactly the declared columns and types", async () => {
    await sync(warehouse, "datagen", "zoom", [bare, whole]);
    for (const table of ["meetings", "transcript_utterances"]) {
      expect(await warehouse.columns(table), table).toEqual(declared(warehouse, stream("datagen", table)));
    }
    // The later batch's values went into the declared columns.
    const meetings = await warehouse.rows("meetings");
    expect(meetings).toHaveLength(2);
    expect(byId(meetings, "m1").map((r) => [shown(r.duration_ms), shown(r.host_id)])).toEqual([[null, null]]);
    expect(byId(meetings, "m2").map((r) => [shown(r.duration_ms), shown(r.host_id), shown(r.account)])).toEqual([["1800000", "h1", "Acme"]]);
    const lines = await warehouse.rows("transcript_utterances");
    expect(lines).toHaveLength(2);
    expect(byId(lines, "m2-0000").map((r) => [shown(r.start_ms), shown(r.end_ms), shown(r.text)])).toEqual([["1500", "4000", "Shall we?"]]);
  });

  it("a table made before (from values) gains the declared columns it lacks, of their types; a column not declared is kept, typed by its values", async () => {
    // An older table: a transform-like write without a declaration, from values.
    const old = warehouse.open();
    try {
      await old.upsertRows("email_messages", [{ message_id: "e0", subject: "Old" }], ["message_id"]);
      await old.flush?.();
    } finally {
      await old.close();
    }
    await sync(warehouse, "gmail", "gmail", messages);
    const columns = declared(warehouse, stream("gmail", "email_messages"));
    const first = columns.filter(([name]) => name === "message_id" || name === "subject");
    const added = columns.filter(([name]) => name !== "message_id" && name !== "subject");
    expect(await warehouse.columns("email_messages")).toEqual([...first, ...added, ["importance", warehouse.types.string]]);
    const rows = await warehouse.rows("email_messages");
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => [shown(r.message_id), shown(r.importance)]).sort()).toEqual([
      ["e0", null],
      ["e1", "high"],
      ["e2", "low"],
    ]);
  });
});
