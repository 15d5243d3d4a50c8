import { randomBytes } from "node:crypto";
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connectDatabase, type DatabaseHandle } from "../../backend/db/client.js";
import { SecretBox } from "../../backend/lib/crypto.js";
import { ConnectionTestError, type DestinationCall } from "../../backend/integrations/destinations/plugin.js";
import { postgresPlugin } from "../../backend/integrations/destinations/postgres/plugin.js";
import { postgresInstructions } from "../../backend/integrations/destinations/postgres/instructions.js";
import { upsertStatement } from "../../backend/integrations/destinations/postgres/writer.js";
import { postgresSettingsSchema, type PostgresSettings } from "../../contract/integrations/postgres.js";
import { sqlWithPassword, type Destination } from "../../contract/destinations.js";
import type { PluginDestination } from "../../backend/integrations/destinations/plugin.js";
import type { ScanQuery, Warehouse } from "../../backend/integrations/destinations/warehouse.js";
import { meetingsWithLines, type MeetingWithLines } from "../../backend/transforms/read.js";
import { cloneTemplateDatabase } from "../support/backend.js";

/**
 * The PostgreSQL destination against a real Postgres: the tests' embedded server, with a database of this file's own
 * standing in for a user's, and a login role made by the very setup SQL the instructions show. The server is on
 * loopback, which only TRIBUTARY_ALLOW_PRIVATE_HOSTS=true permits.
 */
const suffix = randomBytes(4).toString("hex");
const DATABASE = `pgdest_${suffix}`;
const ROLE = `tributary_${suffix}`;
const PASSWORD = `pa'ss\\wo"rd-${suffix}`;
let server: URL;
let superuser: pg.Client;
let handle: DatabaseHandle;
let call: DestinationCall;
let ownerId: string;
let appDatabase: string;
const secrets = new SecretBox(randomBytes(32).toString("base64url"));
const saved = Object.fromEntries(["TRIBUTARY_ALLOW_PRIVATE_HOSTS", "CONNECTION_TEST_TIMEOUT_SECONDS"].map((name) => [name, process.env[name]]));

const settings = (over: Partial<PostgresSettings> = {}): PostgresSettings =>
  postgresSettingsSchema.parse({ host: "127.0.0.1", port: server.port, database: DATABASE, schema: "tributary", user: ROLE, password: PASSWORD, ...over });

/** The server's own view of the destination database, as its owner. */
async function asOwner<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${server.protocol}//${server.username}:${server.password}@${server.host}/${DATABASE}` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function failure(work: Promise<unknown>): Promise<ConnectionTestError> {
  const error = await work.then(() => null, (e: unknown) => e); // prettier-ignore
  expect(error).toBeInstanceOf(ConnectionTestError);
  return error as ConnectionTestError;
}

/** A loopback TCP server of the test's own (what a user's host could be). */
async function listening(onSocket: (socket: net.Socket) => void) {
  const listener = net.createServer(onSocket);
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  return { port: (listener.address() as net.AddressInfo).port, close: () => new Promise((resolve) => listener.close(resolve)) };
}

/** A destination row as the routers would store it after a successful test. */
async function destination(schema = "tributary"): Promise<PluginDestination> {
  const [tested, config] = [await postgresPlugin.test!(settings({ schema }), call, {}), await postgresPlugin.config(settings({ schema }), { ...call, destinationId: "x", credential: null })];
  return { id: "00000000-0000-4000-8000-000000000001", name: "Analytics", integrationName: "postgres", config, credentialId: tested.credentialId };
}

beforeAll(async () => {
  process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS = "true";
  server = new URL(inject("pgAdminUrl"));
  superuser = new pg.Client({ connectionString: server.href });
  await superuser.connect();
  await superuser.query(`CREATE DATABASE ${DATABASE}`);
  // The user's DBA runs the setup SQL of the instructions, as shown (the copy button puts the password in).
  const { steps } = postgresInstructions({ database: DATABASE, schema: "tributary", user: ROLE });
  await superuser.query(sqlWithPassword(steps[0]!.sql!, PASSWORD));
  await superuser.query(steps[1]!.sql!);
  await asOwner((client) => client.query(steps[2]!.sql!));
  // The app's own database (credentials), cloned from the migrated template; no backend needed: the plug-in is called as the routers call it.
  const appUrl = await cloneTemplateDatabase();
  appDatabase = new URL(appUrl).pathname.slice(1);
  handle = connectDatabase(appUrl, 2);
  const { rows } = await handle.pool.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', 'pg@example.com', 'pg@example.com', 'P') RETURNING id");
  ownerId = rows[0]!.id;
  call = { ownerId, services: { db: handle.db, secrets, config: { DATA_DIR: "/nonexistent" } } };
});

afterAll(async () => {
  await handle?.close();
  for (const name of [DATABASE, appDatabase]) await superuser?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  await superuser?.query(`DROP ROLE IF EXISTS ${ROLE}`).catch(() => {});
  await superuser?.end();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("instructions", () => {
  it("show the role, database and schema grants as SQL steps, the password as the placeholder", async () => {
    const answer = await postgresPlugin.instructions!({ database: DATABASE, schema: "tributary", user: ROLE }, call);
    expect(answer.title).toBe("Set up PostgreSQL for Tributary");
    expect(answer.steps.map((s) => s.sql).filter(Boolean)).toEqual([
      `CREATE ROLE "${ROLE}" LOGIN PASSWORD E'<YOUR_PASSWORD>';`,
      `GRANT CONNECT, CREATE ON DATABASE "${DATABASE}" TO "${ROLE}";`,
      `CREATE SCHEMA IF NOT EXISTS "tributary";\nGRANT USAGE, CREATE ON SCHEMA "tributary" TO "${ROLE}";`,
    ]);
    expect(answer.sql).toContain("-- Create the user\n");
    expect((await postgresPlugin.instructions!({}, call)).sql).toContain(`GRANT CONNECT, CREATE ON DATABASE <DATABASE> TO "tributary";`);
  });
});

describe("transform wizard", () => {
  it("asks for a results schema (the destination's by default) and shows the grants to write there", () => {
    const target = { id: "d", name: "Analytics", integration_name: "postgres", category: "WAREHOUSE", config: { database: DATABASE, schema: "tributary", user: ROLE } };
    const setup = postgresPlugin.transformSetup!;
    expect(setup.resultsLocation!(target)).toMatchObject({ key: "results_schema", default: "tributary", required: true });
    expect(setup.writeGrants(target).sql).toBe(`CREATE SCHEMA IF NOT EXISTS <RESULTS_SCHEMA>;\nGRANT USAGE, CREATE ON SCHEMA <RESULTS_SCHEMA> TO "${ROLE}";`);
    expect(setup.readGrants(target).sql).toContain(`GRANT SELECT ON ALL TABLES IN SCHEMA "tributary" TO "${ROLE}";`);
  });
});

describe("test_connection", () => {
  it("signs in, creates the schema and keeps the password sealed in a credential", async () => {
    const tested = await postgresPlugin.test!(settings({ schema: "fresh_schema" }), call, {});
    expect(tested.message).toBe("Connection successful");
    const { rows } = await handle.pool.query<{ secret: string; integration_name: string; metadata: Record<string, unknown> }>(
      "SELECT secret, integration_name, metadata FROM credentials WHERE id = $1 AND owner_id = $2",
      [tested.credentialId, ownerId],
    );
    expect(rows[0]!.integration_name).toBe("postgres");
    expect(rows[0]!.secret).not.toContain(PASSWORD);
    expect(secrets.open(rows[0]!.secret)).toEqual({ password: PASSWORD });
    expect(JSON.stringify(rows[0]!.metadata)).not.toContain(PASSWORD);
    // The schema is there; the test's table was rolled back.
    const left = await asOwner((c) => c.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'fresh_schema'"));
    expect(left.rows).toEqual([]);
    expect((await asOwner((c) => c.query("SELECT 1 FROM pg_namespace WHERE nspname = 'fresh_schema'"))).rowCount).toBe(1);
  });

  it("answers the plain credentials message for a wrong password", async () => {
    const error = await failure(postgresPlugin.test!(settings({ password: "wrong" }), call, {}));
    expect([error.status, error.message]).toEqual([422, "Connection failed. Please check your credentials."]);
  });

  it("names the grant missing when the user may not create the schema", async () => {
    const other = `${ROLE}_nocreate`;
    await superuser.query(`CREATE ROLE ${other} LOGIN PASSWORD 'x-${suffix}'`);
    try {
      await superuser.query(`GRANT CONNECT ON DATABASE ${DATABASE} TO ${other}`);
      const error = await failure(postgresPlugin.test!(settings({ user: other, password: `x-${suffix}`, schema: "not_yet" }), call, {}));
      expect(error.status).toBe(422);
      expect(error.message).toMatch(/^Connection test failed: user \S+ cannot create schema not_yet in database \S+: create it and grant USAGE, CREATE on it to the user, or grant CREATE on the database \(/);
    } finally {
      await asOwner((c) => c.query(`DROP OWNED BY ${other}`)).catch(() => {});
      await superuser.query(`DROP OWNED BY ${other}`).catch(() => {});
      await superuser.query(`DROP ROLE ${other}`);
    }
  });

  it("says which database does not exist", async () => {
    const error = await failure(postgresPlugin.test!(settings({ database: "no_such_db" }), call, {}));
    expect(error.status).toBe(422);
    expect(error.message).toBe(`Connection test failed: database no_such_db does not exist on PostgreSQL server 127.0.0.1:${server.port}.`);
  });

  it("gives up on a server that does not answer within the connection-test timeout", async () => {
    // Reads what the client sends (so it sees the client hang up) and never answers.
    const { port, close } = await listening((socket) => socket.resume());
    process.env.CONNECTION_TEST_TIMEOUT_SECONDS = "0.5";
    try {
      const started = Date.now();
      const error = await failure(postgresPlugin.test!(settings({ port }), call, {}));
      expect(error.status).toBe(504);
      const sentence = "Check the host and port, and that the server is reachable from this server.";
      expect(error.message).toBe(`Connection test failed: PostgreSQL server 127.0.0.1:${port} did not answer within 0.5 seconds. ${sentence}`);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      delete process.env.CONNECTION_TEST_TIMEOUT_SECONDS;
      await close();
    }
  });

  it("says when nothing listens on the port", async () => {
    const { port, close } = await listening(() => {});
    await close();
    const error = await failure(postgresPlugin.test!(settings({ port }), call, {}));
    expect(error.status).toBe(502);
    expect(error.message).toBe(`Connection test failed: PostgreSQL server 127.0.0.1:${port} refused the connection. Check the host and port.`);
  });

  it("refuses a loopback or private host without the setting, before connecting", async () => {
    let connections = 0;
    const { port, close } = await listening((socket) => socket.destroy(new Error(`connection ${++connections}`)));
    delete process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS;
    try {
      for (const host of ["127.0.0.1", "localhost"]) {
        const error = await failure(postgresPlugin.test!(settings({ host, port }), call, {}));
        expect(error.status).toBe(400);
        // The user is told the host is not public, never what the name resolves to.
        expect(error.message).toBe(`Connection test failed: ${host} is not a public address: Tributary connects only to hosts on the public internet.`);
      }
      expect((await failure(postgresPlugin.test!(settings({ host: "169.254.169.254", port }), call, {}))).status).toBe(400);
      expect(connections).toBe(0);
    } finally {
      process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS = "true";
      await close();
    }
  });

  it("checks the settings' formats with clear sentences", () => {
    const result = postgresSettingsSchema.safeParse({ host: "db example", port: "70000", database: "1db", schema: "a-b", user: "x y" });
    expect(Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]))).toEqual({
      host: "Host must be a host name (db.example.com) or an IP address",
      port: "Port must be a whole number from 1 to 65535",
      database: "Database may contain only letters, digits, _, $ and -, and must start with a letter or _",
      schema: "Schema may contain only letters, digits, _ and $, and must start with a letter or _",
      user: "Username may contain only letters, digits, _, $, ., @ and -, and must start with a letter or _",
    });
    expect(postgresSettingsSchema.parse({ host: " db.example.com ", port: "" })).toMatchObject({ host: "db.example.com", port: undefined });
  });

  it("binds the values a test proves (host without case, the default port)", () => {
    const given = { host: "DB.Example.com", database: "d", schema: "s", user: "u", password: "p" };
    expect(postgresPlugin.boundValues(given)).toEqual({ host: "db.example.com", port: "5432", database: "d", schema: "s", user: "u" });
  });
});

describe("writer", () => {
  it("pins the upsert it sends", () => {
    expect(upsertStatement(`"s"."t"`, [{ name: "k", type: "text" }, { name: "v", type: "jsonb" }], ["k"], ["gone"])).toBe(
      `INSERT INTO "s"."t" AS t ("k", "v") SELECT * FROM unnest($1::text[], $2::jsonb[]) ON CONFLICT ("k") DO UPDATE SET "v" = EXCLUDED."v", "gone" = NULL ` +
        `WHERE ROW(t."v", t."gone") IS DISTINCT FROM ROW(EXCLUDED."v", NULL)`,
    );
    expect(upsertStatement(`"s"."t"`, [{ name: "k", type: "text" }], ["k"], [])).toBe(`INSERT INTO "s"."t" AS t ("k") SELECT * FROM unnest($1::text[]) ON CONFLICT ("k") DO NOTHING`);
  });

  it("creates tables keyed on the record keys, upserts, adds new columns and keeps one row per key", async () => {
    const writer = await postgresPlugin.writer(await destination(), call);
    const at = new Date("2026-11-20T09:41:00.123Z");
    try {
      await writer.upsertRows("meetings", [
        { meeting_id: "m1", title: "Kick-off", started_at: at, duration_ms: 60_000, participants: [{ id: "p1" }], done: false },
        { meeting_id: "m2", title: "Review", started_at: at, duration_ms: 1_000, participants: [], done: true },
        { meeting_id: "m1", title: "Kick-off (later copy)", started_at: at, duration_ms: 60_000, participants: [{ id: "p1" }], done: false },
      ], ["meeting_id"]);
      // A re-run of the same window, then a changed record with a new column and without `done`.
      await writer.upsertRows("meetings", [{ meeting_id: "m2", title: "Review", started_at: at, duration_ms: 1_000, participants: [], done: true }], ["meeting_id"]);
      await writer.upsertRows("meetings", [{ meeting_id: "m2", title: "Review v2", started_at: at, duration_ms: 2_000, participants: [], agenda: "plan" }], ["meeting_id"]);
      await expect(writer.upsertRows("meetings", [{ meeting_id: null, title: "x" }], ["meeting_id"])).rejects.toThrow("Row without key column meeting_id");
      await expect(writer.upsertRows("meetings", [{ meeting_id: "m3", ["c".repeat(64)]: 1 }], ["meeting_id"])).rejects.toThrow("longer than PostgreSQL's 63 characters");
    } finally {
      await writer.close();
    }
    const rows = await asOwner((c) => c.query(`SELECT meeting_id, title, started_at, duration_ms, participants, done, agenda FROM tributary.meetings ORDER BY meeting_id`));
    expect(rows.rows).toEqual([
      { meeting_id: "m1", title: "Kick-off (later copy)", started_at: at, duration_ms: 60_000, participants: [{ id: "p1" }], done: false, agenda: null },
      { meeting_id: "m2", title: "Review v2", started_at: at, duration_ms: 2_000, participants: [], done: null, agenda: "plan" },
    ]);
    const types = await asOwner((c) => c.query(`SELECT column_name AS c, data_type AS t FROM information_schema.columns WHERE table_name = 'meetings' AND table_schema = 'tributary'`));
    expect(Object.fromEntries(types.rows.map((r) => [r.c, r.t]))).toEqual({
      ...{ meeting_id: "text", title: "text", started_at: "timestamp with time zone", duration_ms: "double precision" },
      ...{ participants: "jsonb", done: "boolean", agenda: "text" },
    });
    const key = await asOwner((c) => c.query(`SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'tributary.meetings'::regclass AND i.indisprimary`));
    expect(key.rows).toEqual([{ attname: "meeting_id" }]);
  });

  it("upserts into a table of the user's own that has no key yet (adds a unique index) and writes many rows", async () => {
    await asOwner((c) => c.query(`CREATE TABLE tributary.lines (utterance_id text, n integer); INSERT INTO tributary.lines VALUES ('u0', 0); ALTER TABLE tributary.lines OWNER TO ${ROLE}`));
    const writer = await postgresPlugin.writer(await destination(), call);
    try {
      const many = Array.from({ length: 12_000 }, (_, i) => ({ utterance_id: `u${i}`, n: i, text: `line ${i}` }));
      await writer.upsertRows("lines", many, ["utterance_id"]);
      await writer.upsertRows("lines", many.slice(0, 10), ["utterance_id"]);
    } finally {
      await writer.close();
    }
    const [count] = (await asOwner((c) => c.query("SELECT count(*)::int AS n, count(DISTINCT utterance_id)::int AS keys, max(n) AS top FROM tributary.lines"))).rows;
    expect(count).toEqual({ n: 12_000, keys: 12_000, top: 11_999 });
  });

  it("writes transcript files as rows of tributary_objects, one per path", async () => {
    const writer = await postgresPlugin.writer(await destination(), call);
    try {
      await writer.writeObjects([
        { path: "zoom/s/2026-11-20/m1.vtt", body: "WEBVTT\n\nold", contentType: "text/vtt" },
        { path: "zoom/s/2026-11-20/m1.txt", body: new TextEncoder().encode("Ünïcode text"), contentType: "text/plain" },
      ]);
      await writer.writeObjects([{ path: "zoom/s/2026-11-20/m1.vtt", body: "WEBVTT\n\nnew", contentType: "text/vtt" }]);
      await expect(writer.writeObjects([{ path: "../escape.txt", body: "x" }])).rejects.toThrow("Invalid object path");
      await expect(writer.writeObjects([{ path: "bin/file", body: new Uint8Array([0xff, 0xfe]) }])).rejects.toThrow("is not UTF-8 text");
    } finally {
      await writer.close();
    }
    const rows = await asOwner((c) => c.query("SELECT path, content_type, body, size, written_at IS NOT NULL AS written FROM tributary.tributary_objects ORDER BY path"));
    expect(rows.rows).toEqual([
      { path: "zoom/s/2026-11-20/m1.txt", content_type: "text/plain", body: "Ünïcode text", size: "14", written: true },
      { path: "zoom/s/2026-11-20/m1.vtt", content_type: "text/vtt", body: "WEBVTT\n\nnew", size: "11", written: true },
    ]);
  });

  it("follows the address rule on every connection, not only in the test", async () => {
    const target = await destination();
    delete process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS;
    try {
      const writer = await postgresPlugin.writer(target, call);
      await expect(writer.upsertRows("t", [{ k: "1" }], ["k"])).rejects.toThrow("127.0.0.1 is not a public address");
      await writer.close();
    } finally {
      process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS = "true";
    }
  });
});

/** Every batch of a scan. */
async function all(warehouse: Warehouse, query: ScanQuery) {
  const batches: Record<string, unknown>[][] = [];
  for await (const batch of warehouse.scan(query)) batches.push(batch);
  return batches;
}
/** The meetings with their lines, as transforms read them. */
async function readMeetings(warehouse: Warehouse, sourceId: string, platforms: string[]) {
  const out: MeetingWithLines[] = [];
  for await (const item of meetingsWithLines(warehouse, sourceId, platforms)) out.push(item);
  return out;
}

describe("warehouse for transforms", () => {
  const SOURCE = "7a0c4f1e-2b3d-4c5e-8f90-1a2b3c4d5e6f";
  it("reads the meetings and lines a sync wrote, writes, reads and prunes result tables", async () => {
    const target = await destination("wh");
    const [writer, start] = [await postgresPlugin.writer(target, call), new Date("2026-11-21T10:00:00.000Z")];
    try {
      await writer.upsertRows("meetings", [
        { meeting_id: "a", source_id: SOURCE, platform: "zoom", title: "A", account: "Acme", started_at: start },
        { meeting_id: "b", source_id: SOURCE, platform: "gmail", title: "B", account: null, started_at: start },
        { meeting_id: "c", source_id: "00000000-0000-4000-8000-000000000000", platform: "zoom", title: "C", account: null, started_at: start },
      ], ["meeting_id"]);
      await writer.upsertRows("transcript_utterances", [
        { utterance_id: "a-0001", meeting_id: "a", source_id: SOURCE, speaker_id: "s1", speaker_name: "Ann", affiliation: "Internal", spoken_at: new Date(start.getTime() + 5_000), start_ms: 5_000, end_ms: 6_000, text: "second" },
        { utterance_id: "a-0000", meeting_id: "a", source_id: SOURCE, speaker_id: "s2", speaker_name: "Bob", affiliation: null, spoken_at: start, start_ms: 0, end_ms: 1_000, text: "first" },
      ], ["utterance_id"]);
    } finally {
      await writer.close();
    }
    const warehouse = postgresPlugin.warehouse!(target, call);
    try {
      expect(await warehouse.countRows("meetings", SOURCE, ["zoom", "teams"])).toBe(1);
      expect(await warehouse.countRows("meetings", SOURCE, [])).toBe(0);
      expect(await warehouse.countRows("meetings", SOURCE)).toBe(2);
      expect(await warehouse.countRows("no_such_table", SOURCE)).toBe(0);
      expect(await all(warehouse, { table: "no_such_table", sourceId: SOURCE, columns: [{ name: "x", type: "string" }], orderBy: ["x"], batchRows: 10 })).toEqual([]);
      expect(await readMeetings(warehouse, SOURCE, ["zoom"])).toEqual([{ meeting: { meeting_id: "a", title: "A", started_at: start, account: "Acme" }, lines: expect.any(Array) }]);
      const [{ lines }] = await readMeetings(warehouse, SOURCE, ["zoom"]);
      expect(lines.map((l) => [l.utterance_id, l.speaker_name, l.affiliation, l.spoken_at.toISOString(), l.start_ms, l.text])).toEqual([
        ["a-0000", "Bob", null, "2026-11-21T10:00:00.000Z", 0, "first"],
        ["a-0001", "Ann", "Internal", "2026-11-21T10:00:05.000Z", 5_000, "second"],
      ]);
      // A scan comes in batches of at most batchRows, in order, timestamps as dates.
      const batches = await all(warehouse, {
        table: "transcript_utterances",
        sourceId: SOURCE,
        columns: [{ name: "utterance_id", type: "string" }, { name: "spoken_at", type: "timestamp" }, { name: "end_ms", type: "number" }],
        orderBy: ["utterance_id"],
        batchRows: 1,
      });
      expect(batches).toEqual([[{ utterance_id: "a-0000", spoken_at: start, end_ms: 1_000 }], [{ utterance_id: "a-0001", spoken_at: new Date(start.getTime() + 5_000), end_ms: 6_000 }]]);
      expect(await warehouse.readTable("topics", 10, "run-1")).toBeNull();
      for (const run of ["run-1", "run-2"]) {
        const results = await warehouse.resultsWriter({ schema: "wh_results" });
        await results.writer.upsertRows("topics", [{ run_id: run, topic: "pricing", score: 0.5, at: start }], ["run_id", "topic"]);
        await results.done();
      }
      const page = await warehouse.readTable("topics", 10, "run-2", { schema: "wh_results" });
      expect(page).toEqual({ columns: ["run_id", "topic", "score", "at"], rows: [{ run_id: "run-2", topic: "pricing", score: 0.5, at: "2026-11-21T10:00:00.000Z" }], total: 1 });
      await warehouse.prune("topics", "run-2", { schema: "wh_results" });
      expect((await asOwner((c) => c.query("SELECT run_id FROM wh_results.topics"))).rows).toEqual([{ run_id: "run-2" }]);
      await expect(warehouse.readTable("topics", 10, "run-2", { schema: "bad schema" })).rejects.toThrow("The results schema may contain only");
    } finally {
      await warehouse.close();
    }
  });
});

/* Through the HTTP API, once the registry lists the plug-in (backend/integrations/destinations/registry.ts). */
const registered = await import("../../backend/integrations/destinations/registry.js").then((m) => Boolean(m.destinationPlugin("postgres")));

describe.runIf(registered)("over HTTP", () => {
  let t: import("../support/backend.js").TestBackend;
  let cookie: string;
  const send = async (route: string, body?: unknown) => {
    const response = await fetch(`${t.url}${route}`, body === undefined ? { headers: { cookie } } : { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const form = (over: Record<string, string> = {}) => ({ host: "127.0.0.1", port: server.port, database: DATABASE, schema: "http_schema", user: ROLE, password: PASSWORD, ...over });

  beforeAll(async () => {
    const harness = await import("../support/backend.js");
    t = await harness.startTestBackend();
    cookie = (await harness.createUserSession(t, "pg-http@example.com")).cookie;
  });
  afterAll(() => t?.stop());

  it("lists PostgreSQL, shows its instructions, tests the connection and creates the destination", async () => {
    expect((await send("/integrations/destinations")).body.data.destinations).toContainEqual({ name: "postgres", label: "PostgreSQL" });
    const instructions = await send("/externalauth/postgres/get_instructions", { user: ROLE, database: "", schema: "" });
    expect(instructions).toMatchObject({ status: 200, body: { sql: expect.stringContaining(`GRANT CONNECT, CREATE ON DATABASE <DATABASE> TO "${ROLE}";`) } });
    const missing = await send("/externalauth/postgres/test_connection", form({ password: "" }));
    expect([missing.status, JSON.stringify(missing.body)]).toEqual([400, expect.stringContaining("Password is required")]);
    const wrong = await send("/externalauth/postgres/test_connection", form({ password: "wrong" }));
    expect(wrong).toEqual({ status: 422, body: { message: "Connection failed. Please check your credentials." } });
    const tested = await send("/externalauth/postgres/test_connection", form());
    expect(tested).toMatchObject({ status: 200, body: { message: "Connection successful" } });
    expect(JSON.stringify(tested.body)).not.toContain(PASSWORD);

    const { password: _password, ...fields } = form();
    const base = { name: "Analytics DB", integration_name: "postgres", credential_id: tested.body.credential_id, validation_token: tested.body.validation_token };
    const otherSchema = await send("/destinations/create", { ...base, ...fields, schema: "elsewhere" });
    expect([otherSchema.status, JSON.stringify(otherSchema.body)]).toEqual([400, expect.stringContaining("Please fill all required fields and test the connection successfully.")]);
    const created = await send("/destinations/create", { ...base, ...fields });
    expect(created.status).toBe(201);
    const destination = created.body.destination as Destination;
    expect(destination).toMatchObject({ integration_name: "postgres", integration_label: "PostgreSQL", category: "WAREHOUSE" });
    expect(destination.config).toEqual({ host: "127.0.0.1", port: Number(server.port), database: DATABASE, schema: "http_schema", user: ROLE });
    expect(JSON.stringify(destination)).not.toContain(PASSWORD);
  });
});
