import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, type DatabaseHandle } from "../../backend/db/client.js";
import { LocalWriter, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import { api, APP_URL, cloneTemplateDatabase, createUserSession, waitFor } from "../support/backend.js";
import { filesUnder } from "../support/files.js";
import { freePort } from "../support/ports.js";
import { localDestination, seedDatagenConnector, type DatagenConnector } from "../support/seed.js";
import { tableRows, webSessionCookie } from "../support/web.js";
import { WorkerProcesses } from "../support/workers.js";
import { statusText } from "../../app/components/ui/status-badge.js";

/**
 * Issue 36, item 5: many processes on one real Postgres server (Debian's `postgresql`, which `.ci/run` installs: this
 * file is among vitest.config.ts's DEBIAN_FILES). Two API processes, each with a web server (scripts/serve-app.ts on
 * the build) in front of it, and three workers; 200 data-generator connectors of 5 users, each with its own local
 * folder; Sync now on every one, through either API process; one worker SIGKILLed midway. Every connector ends with
 * exactly one successful run for that press, every record lands once, no run is left queued or running, and each
 * user's lists are the same whichever API process answers, and their pages whichever web server renders them.
 */

const USERS = 5;
const PER_USER = 40;
const MEETINGS_PER_DAY = 3;
const COMPANY = "Acme Rockets";

const secretKey = randomBytes(32).toString("base64url");
let handle: DatabaseHandle;
let dataDir: string;
let processes: WorkerProcesses;
const apis: { url: string }[] = [];
/** The web servers: the first in front of the first API process, the second of the second. */
const webs: { url: string }[] = [];
const users: { userId: string; cookie: string; name: string; email: string }[] = [];
const connectors: (DatagenConnector & { cookie: string })[] = [];

beforeAll(async () => {
  const databaseUrl = await cloneTemplateDatabase();
  handle = connectDatabase(databaseUrl, 4);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-multi-"));
  processes = new WorkerProcesses(
    {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      TRIBUTARY_SECRET_KEY: secretKey,
      APP_URL,
      DATA_DIR: dataDir,
      LOCAL_IDP_PORT: "0",
      LOG_LEVEL: "info",
      RUN_HEARTBEAT_SECONDS: "1",
      RUN_HEARTBEAT_TIMEOUT_SECONDS: "3",
      RUN_HEARTBEAT_SWEEP_SECONDS: "1",
      RUN_RETRY_DELAY_SECONDS: "1",
      JOBS_MAINTENANCE_INTERVAL_SECONDS: "1",
      RUN_JOB_HEARTBEAT_SECONDS: "10",
      SYNC_CONCURRENCY: "2",
    },
    400,
  );
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    processes.start("api", { BACKEND_PORT: String(port) });
    apis.push({ url: `http://127.0.0.1:${port}` });
    const webPort = await freePort();
    processes.startWeb({ BACKEND_URL: apis[i]!.url, PORT: String(webPort) });
    webs.push({ url: `http://127.0.0.1:${webPort}` });
  }
  // A web server's /readyz asks its API process's.
  for (const server of [...apis, ...webs]) {
    await waitFor(`the process at ${server.url} ready`, async () => (await fetch(`${server.url}/readyz`).catch(() => null))?.status === 200, { timeoutMs: 60_000, explain: () => processes.output.join("\n") });
  }
  for (let u = 0; u < USERS; u++) {
    const [email, name] = [`user${u}@example.com`, `User ${u}`];
    users.push({ ...(await createUserSession({ handle }, email, name)), name, email });
  }
  // Made through both API processes, each user's connectors one after another, the users side by side.
  await Promise.all(
    users.map(async (user, u) => {
      for (let i = 0; i < PER_USER; i++) {
        const made = await seedDatagenConnector({ url: apis[i % 2]!.url, handle }, user.cookie, { name: `U${u} connector ${i}`, meetingsPerDay: MEETINGS_PER_DAY, lookbackDays: 1, company: COMPANY });
        connectors.push({ ...made, cookie: user.cookie });
      }
    }),
  );
}, 240_000);

afterAll(async () => {
  await processes?.stopAll("SIGKILL");
  await handle?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** What the data generator makes for a source over the day before `until` (a run's window). */
function expected(sourceId: string, until: Date, meetingsPerDay = MEETINGS_PER_DAY) {
  const meetings = [...generateMeetings({ sourceId, company: COMPANY, from: new Date(until.getTime() - 86_400_000), to: until, meetingsPerDay })];
  return { meetings: meetings.length, ids: new Set(meetings.map((m) => m.id)) };
}

/** The meeting files a local destination holds (temporary files of an interrupted write aside), by meeting id. */
function transcriptFiles(folder: string): string[] {
  return filesUnder(path.join(resolveLocalRoot(dataDir, folder), "files"))
    .filter((file) => file.endsWith(".vtt"))
    .map((file) => path.basename(file, ".vtt"));
}

describe("many processes on one Debian Postgres server", () => {
  // Over 30 s: 200 real syncs through real processes (two API processes, three workers, two web servers) are the
  // point of the test: it is the one place the whole deployment runs under load.
  it(`${USERS * PER_USER} connectors of ${USERS} users, Sync now on all, a worker SIGKILLed midway: one successful run each, every record once, none stuck, the same lists from either API process`, { timeout: 400_000 }, async () => {
    expect(connectors).toHaveLength(USERS * PER_USER);
    const workers = [processes.start("worker"), processes.start("worker"), processes.start("worker")];
    const pressed = await Promise.all(connectors.map((c, i) => api(apis[i % 2]!, c.cookie, "POST", `/connectors/${c.connectorId}/sync`, {})));
    expect(pressed.map((p) => p.status)).toEqual(connectors.map(() => 202));
    const count = async (where: string) => (await handle.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM sync_runs WHERE ${where}`)).rows[0]!.n;
    const stuck = async () => {
      const { rows } = await handle.pool.query("SELECT status, count(*)::int AS n FROM sync_runs GROUP BY status");
      return `runs by status: ${JSON.stringify(rows)}\n${processes.output.slice(-60).join("\n")}`;
    };
    // Midway: a fifth of the runs done, others running; one worker dies at once.
    await waitFor("a fifth of the runs succeeding", async () => (await count("status = 'succeeded'")) >= connectors.length / 5, { timeoutMs: 180_000, explain: stuck });
    await processes.stop(workers[0]!, "SIGKILL");
    await waitFor("every run finishing", async () => (await count("status IN ('queued', 'running')")) === 0, { timeoutMs: 240_000, intervalMs: 250, explain: stuck });

    const { rows: runs } = await handle.pool.query<{ connector_id: string; n: number; succeeded: number; started_at: Date; records: number }>(
      `SELECT connector_id, count(*)::int AS n, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded, max(started_at) AS started_at, max(records)::int AS records
       FROM sync_runs GROUP BY connector_id`,
    );
    expect(runs).toHaveLength(connectors.length);
    expect(runs.filter((r) => r.n !== 1 || r.succeeded !== 1)).toEqual([]);
    const byConnector = new Map(runs.map((r) => [r.connector_id, r]));
    // Every record of each run's window landed, none twice: the files, the warehouse, the run's own count.
    for (const c of connectors) {
      const run = byConnector.get(c.connectorId)!;
      const want = expected(c.sourceId, run.started_at);
      expect(run.records, c.connectorId).toBe(want.meetings);
      const names = transcriptFiles(c.folder);
      expect(new Set(names).size).toBe(names.length);
      expect(names.sort()).toEqual([...want.ids].sort());
    }
    // A window with no meeting writes no table: the warehouses of the runs that wrote something.
    for (const c of connectors.filter((c, i) => i % 10 === 0 && byConnector.get(c.connectorId)!.records > 0)) {
      const reader = new LocalWriter(resolveLocalRoot(dataDir, c.folder));
      try {
        const [m] = await reader.query("SELECT count(*)::INT AS n, count(DISTINCT meeting_id)::INT AS d FROM meetings");
        expect(m!.n).toBe(m!.d);
        expect(m!.n).toBe(byConnector.get(c.connectorId)!.records);
      } finally {
        await reader.close();
      }
    }
    // Each user's lists, whichever API process answers.
    for (const user of users) {
      for (const list of ["/connectors/list?page_size=100", "/sources/list", "/destinations/list"]) {
        const [one, two] = await Promise.all(apis.map((a) => api(a, user.cookie, "GET", list)));
        expect(one!.status).toBe(200);
        expect(two!.body).toEqual(one!.body);
      }
    }
    // And their pages, whichever web server renders them: the same rows (name and status), the API's.
    for (const user of users) {
      const cookie = await webSessionCookie(secretKey, { id: user.userId, name: user.name, email: user.email }, user.cookie);
      for (const [page, list, status] of [["/connectors", "/connectors/list", "health"], ["/sources", "/sources/list", "status"], ["/destinations", "/destinations/list", "status"]] as const) {
        const [one, two] = await Promise.all(
          webs.map(async (server) => {
            const response = await fetch(`${server.url}${page}`, { headers: { cookie }, redirect: "manual" });
            expect(response.status, `${page} from ${server.url}`).toBe(200);
            return tableRows(await response.text()).map((row) => ({ id: row.id, name: row.cells.Name, status: row.cells.Status }));
          }),
        );
        expect(one).toHaveLength(PER_USER);
        expect(two).toEqual(one);
        const listed = (await api(apis[0]!, user.cookie, "GET", list)).body as Record<string, string>[];
        expect(one).toEqual(listed.map((row) => ({ id: row.id, name: row.name, status: statusText(row[status]!) })));
      }
    }
    for (const worker of workers) await processes.stop(worker, "SIGTERM");
  });

  it("connectors sharing one local destination, synced at once by three workers: each waits its turn for the warehouse, all succeed at their first attempt, every record once", { timeout: 300_000 }, async () => {
    const user = users[0]!;
    const shared = await localDestination(apis[0]!, user.cookie, "Shared disk");
    const sharing: DatagenConnector[] = [];
    const perDay = 40;
    for (let i = 0; i < 12; i++) {
      sharing.push(await seedDatagenConnector({ url: apis[i % 2]!.url, handle }, user.cookie, { name: `Sharing ${i}`, meetingsPerDay: perDay, lookbackDays: 1, company: COMPANY, destination: shared }));
    }
    const workers = [processes.start("worker"), processes.start("worker"), processes.start("worker")];
    const runIds: string[] = [];
    for (const [i, c] of sharing.entries()) {
      const pressed = await api(apis[i % 2]!, user.cookie, "POST", `/connectors/${c.connectorId}/sync`, {});
      expect(pressed.status).toBe(202);
      runIds.push(pressed.body.run.id);
    }
    const open = async () => (await handle.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM sync_runs WHERE id = ANY($1) AND status IN ('queued', 'running')", [runIds])).rows[0]!.n;
    await waitFor("every sharing run finishing", async () => (await open()) === 0, { timeoutMs: 240_000, intervalMs: 250, explain: () => processes.output.slice(-40).join("\n") });
    const { rows } = await handle.pool.query<{ connector_id: string; status: string; attempts: number; started_at: Date; records: number }>(
      "SELECT connector_id, status, attempts, started_at, records FROM sync_runs WHERE id = ANY($1)",
      [runIds],
    );
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(rows.map(() => ["succeeded", 1]));
    let total = 0;
    for (const c of sharing) {
      const run = rows.find((r) => r.connector_id === c.connectorId)!;
      const want = expected(c.sourceId, run.started_at, perDay);
      expect(run.records).toBe(want.meetings);
      total += want.meetings;
    }
    const reader = new LocalWriter(resolveLocalRoot(dataDir, shared.folder));
    try {
      const [m] = await reader.query("SELECT count(*)::INT AS n, count(DISTINCT meeting_id)::INT AS d FROM meetings");
      expect(m).toEqual({ n: total, d: total });
    } finally {
      await reader.close();
    }
    for (const worker of workers) await processes.stop(worker, "SIGTERM");
  });
});
