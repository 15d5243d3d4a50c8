import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANGE_FEED_APPLICATION } from "../../backend/db/changes.js";
import { startBackend, type RunningBackend } from "../../backend/server.js";
import { createLogger } from "../../backend/lib/log.js";
import { SYNC_RUNS } from "../../backend/sync/runs.js";
import { createUserSession, get, startTestBackend, type TestBackend } from "../support/backend.js";
import { seedDatagenConnector } from "../support/seed.js";

/**
 * Issue 36, item 1: a write changes only its own records. Its owner's pages learn of it through NOTIFY on commit
 * (migration 0010, backend/db/changes.ts), not through a users row every write of that user updates and locks.
 */

let t: TestBackend;
let ada: { userId: string; cookie: string };
let bo: { userId: string; cookie: string };

beforeAll(async () => {
  t = await startTestBackend({ env: { NODE_ENV: "test", RUN_EVENTS_SESSION_CHECK_SECONDS: "0.5" } });
  ada = await createUserSession(t, "ada@example.com", "Ada");
  bo = await createUserSession(t, "bo@example.com", "Bo");
});
afterAll(() => t?.stop());

const version = async (cookie: string, url = t.url) => {
  const response = await fetch(`${url}/validate-session`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return response.headers.get("x-data-version")!;
};

/** A running sync of a new connector of the user's, as the runs engine leaves it once its worker has started it. */
async function runningSync(cookie: string, name: string, ownerId: string): Promise<string> {
  const { connectorId } = await seedDatagenConnector(t, cookie, { name });
  const run = await t.db.query("INSERT INTO sync_runs (connector_id, owner_id, status, started_at) VALUES ($1, $2, 'running', now()) RETURNING id", [connectorId, ownerId]);
  return run.rows[0].id;
}

describe("two running syncs of one user", () => {
  it("neither waits on the other's progress write: one's open transaction does not hold up the other's write", async () => {
    const first = await runningSync(ada.cookie, "First", ada.userId);
    const second = await runningSync(ada.cookie, "Second", ada.userId);
    const before = await version(ada.cookie);
    // The first run's progress write, its transaction still open (a slow commit, a long batch) until `commit`.
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const firstWritten = new Promise<void>((resolve) => (written = resolve));
    const holder = t.handle.db.transaction(async (tx) => {
      await SYNC_RUNS.runs.progress(tx, first, { records: 5, bytes: 50 });
      written();
      await committed;
    });
    let during: string;
    try {
      await firstWritten;
      // The second run's progress write goes through meanwhile; a lock wait would fail it (lock_timeout).
      const writer = await t.db.connect();
      try {
        await writer.query("SET lock_timeout = '3s'");
        const done = await writer.query("UPDATE sync_runs SET records = 7, bytes = 70 WHERE id = $1 AND status = 'running'", [second]);
        expect(done.rowCount).toBe(1);
      } finally {
        await writer.query("RESET lock_timeout");
        writer.release();
      }
      // Committed, the second write is seen at once; the first, still open, is not.
      expect(await version(ada.cookie)).not.toBe(before);
      const seen = await t.db.query("SELECT id, records FROM sync_runs WHERE id = ANY($1) ORDER BY records", [[first, second]]);
      expect(seen.rows).toEqual([
        { id: first, records: 0 },
        { id: second, records: 7 },
      ]);
      during = await version(ada.cookie);
    } finally {
      commit();
      await holder;
    }
    // The first write, committed now, moves it again.
    expect((await t.db.query("SELECT records FROM sync_runs WHERE id = $1", [first])).rows[0].records).toBe(5);
    expect(await version(ada.cookie)).not.toBe(during);
  });

  it("the product's progress writes of both runs, at once, both land", async () => {
    const first = await runningSync(ada.cookie, "Third", ada.userId);
    const second = await runningSync(ada.cookie, "Fourth", ada.userId);
    // Each run's writes one after another, as the engine's progress writer sends them; the two runs' at once.
    const writeAll = async (id: string) => {
      for (let i = 1; i <= 20; i++) await SYNC_RUNS.runs.progress(t.handle.db, id, { records: i, bytes: i });
    };
    await Promise.all([writeAll(first), writeAll(second)]);
    const seen = await t.db.query("SELECT records FROM sync_runs WHERE id = ANY($1)", [[first, second]]);
    expect(seen.rows.map((r) => r.records).sort()).toEqual([20, 20]);
  });
});

describe("the data version", () => {
  it("is not stored: the users table has no counter, and a run's write leaves its owner's users row alone", async () => {
    const columns = await t.db.query("SELECT column_name FROM information_schema.columns WHERE table_name = 'users'");
    expect(columns.rows.map((r) => r.column_name)).not.toContain("data_version");
    const run = await runningSync(ada.cookie, "Untouched", ada.userId);
    const row = async () => (await t.db.query("SELECT xmin::text AS x, updated_at FROM users WHERE id = $1", [ada.userId])).rows[0];
    const before = await row();
    await SYNC_RUNS.runs.progress(t.handle.db, run, { records: 3, bytes: 3 });
    expect(await row()).toEqual(before);
  });

  it("moves for the owner only, and a heartbeat moves nothing", async () => {
    const run = await runningSync(bo.cookie, "Bo's", bo.userId);
    const adas = await version(ada.cookie);
    const bos = await version(bo.cookie);
    await t.db.query("UPDATE sync_runs SET heartbeat_at = now() WHERE id = $1", [run]);
    expect(await version(bo.cookie)).toBe(bos);
    await SYNC_RUNS.runs.progress(t.handle.db, run, { records: 1, bytes: 1 });
    expect(await version(bo.cookie)).not.toBe(bos);
    expect(await version(ada.cookie)).toBe(adas);
  });

  it("is each backend process's own: another process on the same database answers another, and counts the same writes", async () => {
    const other: RunningBackend = await startBackend({ role: "api", log: createLogger("silent"), env: { ...t.env, LOCAL_IDP_PORT: "0" } });
    try {
      const otherUrl = `http://127.0.0.1:${other.port}`;
      const here = await version(ada.cookie);
      const there = await version(ada.cookie, otherUrl);
      expect(there).not.toBe(here);
      expect(await version(ada.cookie, otherUrl)).toBe(there);
      // A write made through this process is counted by the other at once, and the other way round.
      const created = await fetch(`${t.url}/destinations/create`, {
        method: "POST",
        headers: { cookie: ada.cookie, "content-type": "application/json" },
        body: JSON.stringify({ name: "Counted twice", integration_name: "local" }),
      });
      expect(created.status).toBe(201);
      expect(await version(ada.cookie, otherUrl)).not.toBe(there);
      expect(await version(ada.cookie)).not.toBe(here);
    } finally {
      await other.stop();
    }
  });

  it("after the listening connection is lost, no version given out before it matches, and writes are counted again", async () => {
    const before = await version(ada.cookie);
    const killed = await t.db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()", [CHANGE_FEED_APPLICATION]);
    expect(killed.rowCount).toBe(1);
    // Until it listens again, each answer matches nothing; then answers are steady again.
    await expect.poll(async () => (await version(ada.cookie)) === (await version(ada.cookie)), { timeout: 20_000 }).toBe(true);
    const after = await version(ada.cookie);
    expect(after).not.toBe(before);
    await t.db.query("UPDATE destinations SET description = 'moved' WHERE owner_id = $1", [ada.userId]);
    expect(await version(ada.cookie)).not.toBe(after);
    expect((await get(t, "/runs/version", ada.cookie)).status).toBe(200);
  });
});

describe("GET /runs/events", () => {
  /** Opens the user's stream; `next(pattern)` reads until what came so far matches. */
  async function stream(cookie: string) {
    const aborted = new AbortController();
    const response = await fetch(`${t.url}/runs/events`, { headers: { cookie }, signal: aborted.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    return {
      response,
      close: () => aborted.abort(),
      async next(pattern: RegExp): Promise<string> {
        while (!pattern.test(text)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the stream ended before ${pattern}: ${JSON.stringify(text)}`);
          text += decoder.decode(value, { stream: true });
        }
        const [match] = text.match(pattern)!;
        text = text.slice(text.indexOf(match) + match.length);
        return match;
      },
      async ended(): Promise<boolean> {
        for (;;) if ((await reader.read()).done) return true;
      },
    };
  }
  const runsEvent = /event: runs\ndata: ([^\n]+)\n\n/;
  const versionOf = (event: string) => event.match(runsEvent)![1]!;

  it("pushes the version at once, then again when one of the user's records is written", async () => {
    const s = await stream(ada.cookie);
    try {
      expect(s.response.status).toBe(200);
      expect(s.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const first = versionOf(await s.next(runsEvent));
      expect(first).toBe(await version(ada.cookie));
      await t.db.query("UPDATE destinations SET description = 'pushed' WHERE owner_id = $1", [ada.userId]);
      const second = versionOf(await s.next(runsEvent));
      expect(second).not.toBe(first);
      expect(second).toBe(await version(ada.cookie));
    } finally {
      s.close();
    }
  });

  it("is for a signed-in user only, and ends once the session does", async () => {
    expect((await fetch(`${t.url}/runs/events`)).status).toBe(401);
    const cy = await createUserSession(t, "cy@example.com", "Cy");
    const s = await stream(cy.cookie);
    await s.next(runsEvent);
    await t.db.query("DELETE FROM sessions WHERE user_id = $1", [cy.userId]);
    expect(await s.ended()).toBe(true);
  });
});

