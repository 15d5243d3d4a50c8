import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createLogger } from "../../backend/lib/log.js";
import type { SyncRun } from "../../contract/connectors.js";
import { startEchoingPostgres } from "../fakes/echoing-postgres.js";
import { createUserSession, startTestBackend, waitFor, type TestBackend } from "../support/backend.js";
import { queueRowsText } from "../support/queue.js";

/**
 * Issue #35 F2: a destination's server that quotes the password in its error. The exact password, in clear and in
 * its encodings, appears nowhere: not in the HTTP answer of a connection test, not in the backend's log, not in the
 * stored run or its log lines (which alert e-mails and webhooks quote). (tests/fakes/echoing-postgres.ts is that server.)
 */
const suffix = randomBytes(4).toString("hex");
const NAME = `echo_${suffix}`;
const PASSWORD = `S3cr/et pa+ss=${suffix}`;
/** Every shape the password could take in a text. */
const SHAPES = [PASSWORD, encodeURIComponent(PASSWORD), encodeURIComponent(PASSWORD).replace(/%20/g, "+"), Buffer.from(PASSWORD).toString("base64").replace(/=+$/, ""), Buffer.from(PASSWORD).toString("base64url")];

let t: TestBackend;
let echo: Awaited<ReturnType<typeof startEchoingPostgres>>;
const logLines: string[] = [];
let cookie: string;
const saved = process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS;

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: inject("pgAdminUrl") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function call(method: string, route: string, body?: unknown) {
  const response = await fetch(`${t.url}${route}`, { method, headers: { cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : null };
}

function expectNoPassword(where: string, text: string) {
  for (const shape of SHAPES) expect(text, `${where} holds the password as ${shape}`).not.toContain(shape);
}

beforeAll(async () => {
  process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS = "true";
  echo = await startEchoingPostgres();
  await adminQuery(`CREATE DATABASE ${NAME}`);
  await adminQuery(`CREATE ROLE ${NAME} LOGIN PASSWORD '${PASSWORD}'`);
  await adminQuery(`GRANT CONNECT, CREATE ON DATABASE ${NAME} TO ${NAME}`);
  const log = createLogger("debug", "backend", { write: (line: string) => void logLines.push(line) });
  t = await startTestBackend({ role: "all", log, env: { NODE_ENV: "test", TRIBUTARY_ALLOW_PRIVATE_HOSTS: "true" } });
  ({ cookie } = await createUserSession(t, `echo-${suffix}@example.com`));
}, 60_000);

afterAll(async () => {
  await t?.stop();
  await echo?.close();
  if (saved === undefined) delete process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS;
  else process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS = saved;
});

const fields = (port: number | string) => ({ integration_name: "postgres", host: "127.0.0.1", port: String(port), database: NAME, schema: "echo", user: NAME });

describe("a server that quotes the password in its error", () => {
  it("a connection test's answer and the backend's log never hold it", async () => {
    const answer = await call("POST", "/externalauth/postgres/test_connection", { ...fields(echo.port), password: PASSWORD });
    expect(echo.passwords).toContain(PASSWORD);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(600);
    expect(answer.body.message).toContain("[redacted]");
    expectNoPassword("the answer", answer.text);
    expectNoPassword("the log", logLines.join(""));
  });

  it("a sync's stored run, its log lines, the runs list, the job queue's rows and the backend's log never hold it", { timeout: 150_000 }, async () => {
    const pgPort = new URL(inject("pgAdminUrl")).port;
    const tested = await call("POST", "/externalauth/postgres/test_connection", { ...fields(pgPort), password: PASSWORD });
    expect(tested.body.status).toBe("success");
    const destination = await call("POST", "/destinations/create", { name: "Echo", description: "", ...fields(pgPort), credential_id: tested.body.credential_id, validation_token: tested.body.validation_token });
    expect(destination.status).toBe(201);
    const destinationId = destination.body.destination.id as string;
    // The destination's server now quotes the password it is sent (the stored, encrypted one).
    await t.db.query("UPDATE destinations SET config = config || jsonb_build_object('port', $2::int) WHERE id = $1", [destinationId, echo.port]);
    const credential = await call("POST", "/externalauth/datagen/callback", {});
    const source = await call("POST", "/sources/create", { name: "Echo source", credentialId: credential.body.credential_id, integration_name: "datagen", integration_label: "Data Generator", source_metadata: { company: "Acme", format: "zoom" } });
    // A few meetings a day, three days back: the window always holds all of yesterday's (08:00–18:00 UTC), whatever the
    // hour. (One a day over one day held none about one run in three: the sync then succeeded without writing.)
    await t.db.query("UPDATE sources SET metadata = metadata || jsonb_build_object('meetings_per_day', 4) WHERE id = $1", [source.body.id]);
    const connector = await call("POST", "/connectors/create", { first_sync: false, name: "Echo sync", frequency: "daily", source_id: source.body.id, destination_ids: [destinationId], lookback_days: 3 });
    expect(connector.status).toBe(201);
    const before = echo.passwords.length;
    const started = await call("POST", `/connectors/${connector.body.id}/sync`);
    expect(started.status).toBe(202);
    const runId = started.body.run.id as string;
    // The first attempt's failure is stored with the run (it is retried after a back-off).
    let run: SyncRun | undefined;
    for (const end = Date.now() + 90_000; !run?.error && run?.status !== "succeeded" && Date.now() < end; ) {
      run = ((await call("GET", `/connectors/${connector.body.id}/runs`)).body.runs as SyncRun[]).find((r) => r.id === runId);
      if (!run?.error) await new Promise((r) => setTimeout(r, 300));
    }
    expect(run?.status, "the sync wrote nothing, so never met the server").not.toBe("succeeded");
    expect(run?.error).toMatch(/^Attempt 1 failed, retrying: Writing to destination "Echo" failed: role refused: the password "\[redacted\]"/);
    expect(echo.passwords.slice(before)).toContain(PASSWORD);
    const stored = await t.db.query("SELECT row_to_json(r)::text AS row FROM sync_runs r WHERE id = $1", [runId]);
    expectNoPassword("the stored run", stored.rows[0].row);
    const lines = await t.db.query<{ message: string }>("SELECT message FROM run_log_lines WHERE sync_run_id = $1", [runId]);
    expect(lines.rows.length).toBeGreaterThan(0);
    expectNoPassword("the run's log", lines.rows.map((l) => l.message).join("\n"));
    expectNoPassword("the run's page", (await call("GET", `/connectors/${connector.body.id}/runs`)).text);
    expectNoPassword("the log", logLines.join(""));
    // The failed attempt went back to the job queue for its retry, with its error (issue 50 item 5): scrubbed there too.
    const job = await waitFor("the job queue recording the failed attempt", async () => (await t.db.query<{ output: unknown }>("SELECT output FROM pgboss.job WHERE data->>'runId' = $1 AND output IS NOT NULL", [runId])).rows[0]);
    expect(JSON.stringify(job.output)).toContain("[redacted]");
    expectNoPassword("the job queue", await queueRowsText(t.db));
    // Its retries are not needed: Cancel ends the queued run at once.
    expect((await call("POST", `/connectors/${connector.body.id}/cancel`)).status).toBeLessThan(300);
  });
});
