import { generateKeyPairSync, randomBytes } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import * as schema from "../../backend/db/schema.js";
import { SecretBox } from "../../backend/lib/crypto.js";
import { writerFor, type DestinationWriter, type Row } from "../../backend/integrations/destinations/index.js";
import type { Destination } from "../../contract/destinations.js";
import { findDestination } from "../../backend/db/destinations.js";
import { FakeGcs } from "../fakes/gcs.js";
import { FakeBigQuery } from "../fakes/bigquery.js";
import { FakeSnowflake } from "../fakes/snowflake.js";
import { destinationsConfigs, type ConformanceContext } from "../support/destinations/configs.js";
import { writeRecords } from "../../backend/sync/index.js";
import { RunCancelledError } from "../../backend/runs/cancel.js";

/**
 * One suite over every destination (dlt's destinations_configs() pattern): the writers a sync gets from
 * writerFor, for destinations created through the API, against the fakes (or the real local warehouse). Every
 * scenario ends with exactly one row per key, and one object per path, as a user querying the table or
 * listing the destination sees them.
 */
const SECRET_KEY = randomBytes(32).toString("base64url");
const SA_KEY = JSON.stringify({
  type: "service_account",
  client_email: "tributary-platform@tributary-test.iam.gserviceaccount.com",
  private_key: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }),
});
const fakes = { gcs: new FakeGcs(), bigquery: new FakeBigQuery(), snowflake: new FakeSnowflake(), snowflakeUrl: "" };
const saved = { ...process.env };
let t: TestBackend;
let ctx: ConformanceContext;
let ownerId: string;
let services: Parameters<typeof writerFor>[2];

beforeAll(async () => {
  await Promise.all([fakes.gcs.start(), fakes.bigquery.start(), fakes.snowflake.start()]);
  fakes.snowflakeUrl = fakes.snowflake.url;
  Object.assign(process.env, { GCS_API_ENDPOINT: fakes.gcs.url, BIGQUERY_API_ENDPOINT: fakes.bigquery.url, SNOWFLAKE_HOST_OVERRIDE: fakes.snowflake.url, GOOGLE_SERVICE_ACCOUNT_KEY: SA_KEY });
  delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE;
  const backendEnv = Object.assign({}, ...destinationsConfigs().map((c) => c.backendEnv ?? {})) as Record<string, string>;
  // The backend runs in this process: settings its plug-ins read from the environment (not from its config) go there too.
  Object.assign(process.env, backendEnv);
  t = await startTestBackend({ env: { ...backendEnv, NODE_ENV: "test", TRIBUTARY_SECRET_KEY: SECRET_KEY } });
  const session = await createUserSession(t, "conformance@example.com");
  ownerId = session.userId;
  services = { db: drizzle(t.db, { schema }), secrets: new SecretBox(SECRET_KEY), config: { DATA_DIR: t.dataDir } };
  ctx = {
    dataDir: t.dataDir,
    pgAdminUrl: inject("pgAdminUrl"),
    fakes,
    async call(method, route, body) {
      const response = await fetch(`${t.url}${route}`, {
        method,
        headers: { cookie: session.cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
  };
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await Promise.all([fakes.gcs.stop(), fakes.bigquery.stop(), fakes.snowflake.stop()]);
  for (const name of ["GCS_API_ENDPOINT", "BIGQUERY_API_ENDPOINT", "SNOWFLAKE_HOST_OVERRIDE", "GOOGLE_SERVICE_ACCOUNT_KEY"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** A batch of a window: three meetings, each with its transcript file. */
const batch = (change: (row: Row) => Row = (row) => row): Row[] =>
  [
    { id: "m1", topic: "pricing", minutes: 30 },
    { id: "m2", topic: "roadmap", minutes: 45 },
    { id: "m3", topic: "hiring", minutes: 20 },
  ].map((row) => change({ ...row }));
const files = (prefix: string, rows: Row[]) => rows.map((row) => ({ path: `${prefix}/${String(row.id)}.vtt`, body: `WEBVTT\n\n${String(row.topic)}`, contentType: "text/vtt" }));

/** A value as text the way every warehouse shows it (30 and 30.0 alike); NULL and a missing column alike. */
const shown = (v: unknown) => (v === null || v === undefined ? null : typeof v === "number" || (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v)) ? String(Number(v)) : String(v));
const plain = (rows: Record<string, unknown>[], columns: string[]) => rows.map((row) => Object.fromEntries(columns.map((c) => [c, shown(row[c])]))).sort((a, b) => String(a.id).localeCompare(String(b.id)));

describe.each(destinationsConfigs())("destination $name", (config) => {
  let destination: Destination;
  /** The destination made through the API, as the sync engine reads it (its stored record). */
  const open = async () => writerFor((await findDestination(services.db, ownerId, destination.id))!, ownerId, services, { bulk: true });
  /** One sync's writes: the batch's files and rows, then flush and close, as the sync engine does. */
  async function sync(table: string, rows: Row[], writer?: DestinationWriter) {
    const w = writer ?? (await open());
    if (!config.objectsPending) await w.writeObjects(files(table, rows));
    await w.upsertRows(table, rows, ["id"]);
    await w.flush?.();
    if (!writer) await w.close();
  }
  /** One row per key with the expected values, one object per path with its latest body, and nothing left behind. */
  async function expectExactly(table: string, expected: Row[], columns = ["id", "topic", "minutes"]) {
    const rows = await config.rows(ctx, destination, table);
    expect(rows).toHaveLength(expected.length);
    expect(plain(rows, columns)).toEqual(plain(expected, columns));
    if (!config.objectsPending) {
      const objects = await config.objects(ctx, destination, `${table}/`);
      expect([...objects.keys()].sort()).toEqual(files(table, expected).map((f) => f.path).sort());
      for (const file of files(table, expected)) expect(objects.get(file.path)).toBe(file.body);
    }
    expect((await config.leftovers?.(ctx, destination)) ?? []).toEqual([]);
  }

  beforeAll(async () => {
    destination = await config.create(ctx);
  }, 60_000);

  it("first load: one row per key", async () => {
    await sync("first_load", batch());
    await expectExactly("first_load", batch());
  });

  it("a re-run of the same window leaves one row per key", async () => {
    await sync("rerun", batch());
    await sync("rerun", batch());
    await expectExactly("rerun", batch());
  });

  it("a changed record replaces its row", async () => {
    await sync("changed", batch());
    const changed = batch((row) => (row.id === "m2" ? { ...row, topic: "roadmap v2", minutes: 50 } : row));
    await sync("changed", changed);
    await expectExactly("changed", changed);
  });

  it("a new column is added, and rows without it show NULL there", async () => {
    await sync("new_column", batch());
    const wider = batch((row) => (row.id === "m1" ? { ...row, host: "ana" } : row));
    await sync("new_column", wider);
    await expectExactly("new_column", wider, ["id", "topic", "minutes", "host"]);
  });

  it("a retried batch (the same writer, then a new one) leaves one row per key", async () => {
    const writer = await open();
    await sync("retried", batch(), writer);
    await sync("retried", batch(), writer);
    await writer.close();
    await sync("retried", batch());
    await expectExactly("retried", batch());
  });

  it("a writer closed mid-batch, then the batch run again, leaves one row per key", async () => {
    const writer = await open();
    const writing = Promise.allSettled([config.objectsPending ? undefined : writer.writeObjects(files("closed", batch())), writer.upsertRows("closed", batch(), ["id"])]);
    await Promise.allSettled([writer.close()]);
    await writing;
    await sync("closed", batch());
    await expectExactly("closed", batch());
  });

  it("a sync cancelled mid-run: the batch in flight lands, nothing after it, and the counts are what the destination holds", async () => {
    const writer = await open();
    const rows = Array.from({ length: 12 }, (_, i) => ({ id: `c${String(i).padStart(2, "0")}`, topic: `topic ${i}`, minutes: i + 1 }));
    const batches: Row[][] = [];
    // Cancel is clicked while the second batch is being written: it lands, the third and fourth do not start.
    let clicked = false;
    const toBatch = (items: Row[]) => {
      batches.push(items);
      return { records: items.length, objects: config.objectsPending ? [] : files("cancelled", items), tables: [{ table: "cancelled", rows: items, key: ["id"] }] };
    };
    const watched = new Proxy(writer, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== "upsertRows" || typeof value !== "function") return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        return (table: string, batchRows: Row[], key: string[]) => {
          if (batchRows[0]?.id === rows[3]!.id) clicked = true;
          return (value as DestinationWriter["upsertRows"]).call(target, table, batchRows, key);
        };
      },
    });
    const stopped = await writeRecords([{ name: config.name, writer: watched }], rows, toBatch, 3, { stopRequested: async () => clicked }).catch((e: unknown) => e);
    await writer.close();
    expect(stopped).toBeInstanceOf(RunCancelledError);
    const values = (stopped as RunCancelledError).values as { records: number; destinations: { records: number }[] };
    expect(values.records).toBe(6);
    expect(values.destinations).toEqual([expect.objectContaining({ records: 6 })]);
    await expectExactly("cancelled", rows.slice(0, 6));
  });
});
