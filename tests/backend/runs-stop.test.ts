import { randomUUID } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSlowRelay, type SlowRelay } from "../support/slow-relay.js";
import { LocalWriter, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { createLogger } from "../../backend/lib/log.js";
import * as schema from "../../backend/db/schema.js";
import { createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { callApi, datagenConnector, localDestination, runFinished, waitForRun, type ApiUser } from "../support/runs.js";

/**
 * Runs that stop when told (issue 39), on a real backend working its queue (one sync at a time, so that a run holding
 * its slot would keep every other waiting) and a real Postgres; datagen sources write to local destinations.
 */
const logged: string[] = [];
let t: TestBackend;
let user: ApiUser;

const saved = { SYNC_CONCURRENCY: process.env.SYNC_CONCURRENCY, RUN_STOP_WAIT_SECONDS: process.env.RUN_STOP_WAIT_SECONDS, TRIBUTARY_ALLOW_PRIVATE_HOSTS: process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS };
let relay: SlowRelay | undefined;

beforeAll(async () => {
  const log = createLogger("info", "backend", { write: (line: string) => void logged.push(line) });
  // Read from the environment by the jobs and the delete routes of the backend running in this process.
  Object.assign(process.env, { SYNC_CONCURRENCY: "1", RUN_STOP_WAIT_SECONDS: "60", TRIBUTARY_ALLOW_PRIVATE_HOSTS: "true" });
  t = await startTestBackend({ role: "all", log, env: { NODE_ENV: "test", TRIBUTARY_ALLOW_PRIVATE_HOSTS: "true" } });
  const session = await createUserSession(t, "stopper@example.com", "Stopper");
  user = { url: t.url, cookie: session.cookie };
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await relay?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}, 120_000);

function fileCount(root: string): number {
  let n = 0;
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else n++;
    }
  };
  walk(root);
  return n;
}

async function warehouseCount(folder: string, table: string): Promise<number> {
  const reader = new LocalWriter(resolveLocalRoot(t.dataDir, folder));
  try {
    const [row] = await reader.query(`SELECT count(*)::INT AS n FROM ${table}`);
    return Number(row!.n);
  } finally {
    await reader.close();
  }
}

/** A large sync started and seen writing (its first batch counted). */
async function runningSync(folderName: string) {
  const disk = await localDestination(user, folderName);
  const { connectorId } = await datagenConnector(user, { meetingsPerDay: 1000, lookbackDays: 30, destinationIds: [disk.id], name: folderName });
  const started = await callApi(user, "POST", `/connectors/${connectorId}/sync`);
  expect(started.status).toBe(202);
  const runId = started.body.run.id as string;
  await waitForRun(user, connectorId, runId, (r) => r.status === "running" && r.records > 0);
  return { connectorId, runId, folder: disk.folder };
}

const activeJobs = async (key: string) =>
  Number((await t.db.query<{ n: string }>("SELECT count(*) AS n FROM pgboss.job WHERE singleton_key = $1 AND state = 'active'", [key])).rows[0]!.n);

/** Every "params:" in the captured log is followed by the redaction, and no parameter value shows. */
function expectNoParams(values: string[]) {
  for (const line of logged) {
    expect(line).not.toMatch(/params:(?! \[redacted\])/);
    for (const value of values) expect(line).not.toContain(value);
  }
}

describe("delete stops the run", () => {
  it("deleting a connector during its sync: nothing lands after the delete is confirmed, and another connector's Sync now starts at once", async () => {
    const { connectorId, folder } = await runningSync("Deleted");
    const deleted = await callApi(user, "DELETE", `/connectors/delete/${connectorId}`);
    expect(deleted).toEqual({ status: 200, body: { message: "Connector deleted" } });
    // The worker let go before the answer: its job is no longer active, and what it wrote is all there is.
    expect(await activeJobs(connectorId)).toBe(0);
    const root = path.join(resolveLocalRoot(t.dataDir, folder), "files");
    const files = fileCount(root);
    expect(files).toBeGreaterThan(0);
    // The slot is free: with one sync at a time, another connector's sync runs now.
    const disk = await localDestination(user, "Next");
    const next = await datagenConnector(user, { meetingsPerDay: 2, destinationIds: [disk.id], name: "Next" });
    const queued = await callApi(user, "POST", `/connectors/${next.connectorId}/sync`);
    expect(queued.status).toBe(202);
    const done = await waitForRun(user, next.connectorId, queued.body.run.id, runFinished, 30_000);
    expect(done.status).toBe("succeeded");
    // Still nothing more landed for the deleted connector.
    expect(fileCount(root)).toBe(files);
    expect(await warehouseCount(folder, "meetings")).toBe(files / 2);
  }, 180_000);

  it("deleting a transform whose run is queued cancels the run with its job", async () => {
    const disk = await localDestination(user, "Transformed");
    const { connectorId } = await datagenConnector(user, { meetingsPerDay: 2, destinationIds: [disk.id], name: "Transformed" });
    const { rows } = await t.db.query<{ id: string }>(
      "INSERT INTO transforms (owner_id, name, description, transform_type, connector_id) VALUES ((SELECT id FROM users WHERE email = 'stopper@example.com'), 'Topics', '', 'topic_modeling', $1) RETURNING id",
      [connectorId],
    );
    const transformId = rows[0]!.id;
    await callApi(user, "POST", `/transforms/${transformId}/run`);
    expect(await callApi(user, "DELETE", `/transforms/delete/${transformId}`)).toMatchObject({ status: 200 });
    expect(await activeJobs(transformId)).toBe(0);
    expect((await t.db.query("SELECT 1 FROM transform_runs WHERE transform_id = $1", [transformId])).rowCount).toBe(0);
  }, 120_000);
});

describe("cancel tells the truth", () => {
  it("a cancelled run's total, its destination's records and its log's last lines equal what landed", async () => {
    const { connectorId, runId, folder } = await runningSync("Cancelled");
    expect((await callApi(user, "POST", `/connectors/${connectorId}/cancel`)).status).toBe(202);
    const run = await waitForRun(user, connectorId, runId, runFinished, 60_000);
    expect(run.status).toBe("cancelled");
    const landed = await warehouseCount(folder, "meetings");
    expect(run.records).toBe(landed);
    const details = (await callApi(user, "GET", `/connectors/${connectorId}/runs/${runId}`)).body.run;
    expect(details.landed).toEqual([expect.objectContaining({ name: "Cancelled", records: landed })]);
    expect(details.bytes).toBe(details.landed[0].bytes);
    const lines = (details.log as { message: string }[]).map((l) => l.message);
    const records = landed.toLocaleString("en-US");
    expect(lines.at(-1)).toBe(`Cancelled after ${records} records: the run stopped at a batch boundary; what it wrote before is complete.`);
    expect(lines.at(-2)).toMatch(new RegExp(`^Destination "Cancelled" written: ${records} records, `));
  }, 180_000);
});

describe("a slow link (a relay that delays every packet) in front of a PostgreSQL destination", () => {
  /** A query on the destination's database, as the tests' Postgres administrator. */
  async function onDestination(database: string, text: string): Promise<number> {
    const url = new URL(inject("pgAdminUrl"));
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.href });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>(text)).rows[0]?.n ?? 0);
    } finally {
      await client.end();
    }
  }

  it("cancel: at most the batch in flight lands after the click, and the run's totals equal the destination's rows", async () => {
    const admin = new URL(inject("pgAdminUrl"));
    relay = await startSlowRelay({ host: "127.0.0.1", port: Number(admin.port) }, 15);
    const name = `slow_${randomUUID().slice(0, 8)}`;
    const adminClient = new pg.Client({ connectionString: admin.href });
    await adminClient.connect();
    await adminClient.query(`CREATE DATABASE ${name}`);
    await adminClient.query(`CREATE ROLE ${name} LOGIN PASSWORD 'slow-link'`);
    await adminClient.query(`GRANT CONNECT, CREATE ON DATABASE ${name} TO ${name}`);
    await adminClient.end();
    const fields = { host: "127.0.0.1", port: String(relay.port), database: name, schema: "slow", user: name };
    const tested = await callApi(user, "POST", "/externalauth/postgres/test_connection", { ...fields, password: "slow-link" });
    expect(tested.body.status).toBe("success");
    const created = await callApi(user, "POST", "/destinations/create", { name: "Slow warehouse", description: "", integration_name: "postgres", ...fields, credential_id: tested.body.credential_id, validation_token: tested.body.validation_token });
    expect(created.status).toBe(201);
    const { connectorId } = await datagenConnector(user, { meetingsPerDay: 1000, lookbackDays: 3, destinationIds: [created.body.destination.id], name: "Slow" });
    const started = await callApi(user, "POST", `/connectors/${connectorId}/sync`);
    const runId = started.body.run.id as string;
    await waitForRun(user, connectorId, runId, (r) => r.status === "running" && r.records > 0);
    expect((await callApi(user, "POST", `/connectors/${connectorId}/cancel`)).status).toBe(202);
    const atClick = await onDestination(name, "SELECT count(*) AS n FROM slow.meetings");
    const run = await waitForRun(user, connectorId, runId, runFinished, 120_000);
    expect(run.status).toBe("cancelled");
    const landed = await onDestination(name, "SELECT count(*) AS n FROM slow.meetings");
    expect(landed - atClick).toBeLessThanOrEqual(200);
    expect(run.records).toBe(landed);
    const details = (await callApi(user, "GET", `/connectors/${connectorId}/runs/${runId}`)).body.run;
    expect(details.landed).toEqual([expect.objectContaining({ name: "Slow warehouse", records: landed })]);
    const lines = (details.log as { message: string }[]).map((l) => l.message);
    expect(lines.at(-1)).toBe(`Cancelled after ${landed.toLocaleString("en-US")} records: the run stopped at a batch boundary; what it wrote before is complete.`);
  }, 240_000);
});

describe("no query parameter reaches the log", () => {
  it("a run whose rows are deleted under it (its log's insert violates a foreign key): the failure is logged without parameters", async () => {
    const { connectorId, runId } = await runningSync("Orphaned");
    await t.db.query("DELETE FROM connectors WHERE id = $1", [connectorId]);
    // The worker stops (its run's row is gone) and its closing log lines fail on the foreign key.
    const deadline = Date.now() + 60_000;
    while (!logged.some((l) => l.includes("sync run log write failed") && l.includes(runId)) || (await activeJobs(connectorId)) > 0) {
      if (Date.now() > deadline) throw new Error("the orphaned run's log failure was never logged");
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(logged.some((l) => l.includes("params: [redacted]"))).toBe(true);
    expectNoParams(["the run stopped at a batch boundary"]);
  }, 180_000);

  it("a foreign-key violation and a lost connection, logged every way the code logs an error, show no parameter", async () => {
    const db = drizzle(t.db, { schema });
    const fk = await db
      .insert(schema.runLogLines)
      .values({ syncRunId: randomUUID(), level: "info", message: "FK-PARAM-VALUE" })
      .then(() => null, (e: unknown) => e as Error);
    expect(fk?.message).toContain("FK-PARAM-VALUE");

    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    client.on("error", () => {});
    const sleeping = drizzle(client, { schema })
      .execute(sql`SELECT pg_sleep(30), ${"LOST-PARAM-VALUE"}::text AS v`)
      .then(() => null, (e: unknown) => e as Error);
    const admin = new pg.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    for (let i = 0; i < 100; i++) {
      const killed = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(30)%' AND pid <> pg_backend_pid()");
      if (killed.rowCount) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await admin.end();
    const lost = await sleeping;
    await client.end().catch(() => {});
    expect(lost?.message).toContain("LOST-PARAM-VALUE");

    const log = createLogger("info", "backend", { write: (line: string) => void logged.push(line) });
    for (const error of [fk!, lost!]) {
      log.warn({ err: error }, "as an error");
      log.warn({ err: error.message }, "as its message");
      log.error(error.message);
      log.error({ err: new Error(`Writing to destination "Disk" failed: ${error.message}`, { cause: error }) }, "wrapped");
      log.warn({ detail: { nested: [error.message] } }, "nested");
    }
    expect(logged.filter((l) => l.includes("params: [redacted]")).length).toBeGreaterThanOrEqual(8);
    expectNoParams(["FK-PARAM-VALUE", "LOST-PARAM-VALUE"]);
  }, 60_000);
});
