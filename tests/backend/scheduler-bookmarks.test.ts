import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PgBoss } from "pg-boss";
import * as schema from "../../backend/db/schema.js";
import { enqueueDueRuns, SYNC_QUEUE } from "../../backend/sync/index.js";
import { SYNC_RUNS } from "../../backend/sync/runs.js";
import type { JobQueue } from "../../backend/jobs/queue.js";
import { cloneTemplateDatabase } from "../support/backend.js";
import { startTestQueue } from "../support/queue.js";

/**
 * Issue 36, item 2: the scheduler reads only the connectors whose bookmark (next_due_at) has come, in batches that it
 * leases in the statement that reads them, so that schedulers passing at once never queue a slot twice.
 */

/** More than one batch of a pass (500). */
const CONNECTORS = 600;
const now = new Date();
const hourLater = new Date(now.getTime() + 3_600_000);

let pool: pg.Pool;
let other: pg.Pool;
let boss: PgBoss;
let queue: JobQueue;
let db: ReturnType<typeof drizzle<typeof schema>>;
let otherDb: ReturnType<typeof drizzle<typeof schema>>;
let owner: string;
let sourceId: string;

const queuedPer = async (ids?: string[]) =>
  (
    await pool.query<{ connector_id: string; n: number }>(
      `SELECT connector_id, count(*)::int AS n FROM sync_runs WHERE status = 'queued' ${ids ? "AND connector_id = ANY($1)" : ""} GROUP BY connector_id`,
      ids ? [ids] : [],
    )
  ).rows;

/** Hourly connectors made three hours before `now`, each with a run at `now`: none is due before its next slot. */
async function connectors(count: number, prefix: string): Promise<string[]> {
  const made = await pool.query<{ id: string }>(
    `INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days, created_at)
     SELECT $1, $2 || n, $3, 'hourly', 1, $4::timestamptz - interval '3 hours' FROM generate_series(1, ${count}) n RETURNING id`,
    [owner, prefix, sourceId, now],
  );
  const ids = made.rows.map((r) => r.id);
  await pool.query("INSERT INTO sync_runs (connector_id, owner_id, status, trigger, created_at) SELECT id, owner_id, 'succeeded', 'schedule', $2 FROM connectors WHERE id = ANY($1)", [ids, now]);
  return ids;
}

beforeAll(async () => {
  const databaseUrl = await cloneTemplateDatabase();
  pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  other = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  db = drizzle(pool, { schema });
  otherDb = drizzle(other, { schema });
  const { rows: users } = await pool.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', 'marks', 'm@example.com', 'Marks') RETURNING id");
  owner = users[0]!.id;
  const { rows: sources } = await pool.query<{ id: string }>(
    "INSERT INTO sources (owner_id, name, integration_name, integration_label, metadata) VALUES ($1, 'Gen', 'datagen', 'Data generator', '{\"format\":\"zoom\"}') RETURNING id",
    [owner],
  );
  sourceId = sources[0]!.id;
  ({ boss, queue } = await startTestQueue(databaseUrl));
  await boss.createQueue(SYNC_QUEUE, { policy: "stately" });
}, 60_000);

afterAll(async () => {
  await boss?.stop({ graceful: false });
  await pool?.end();
  await other?.end();
});

describe("scheduler bookmarks", () => {
  it("two schedulers passing at once, when every connector's slot has come: each connector is queued exactly once", async () => {
    const ids = await connectors(CONNECTORS, "Many ");
    expect(await enqueueDueRuns(db, queue, now)).toBe(0);
    const [a, b] = await Promise.all([enqueueDueRuns(db, queue, hourLater), enqueueDueRuns(otherDb, queue, hourLater)]);
    expect(a + b).toBe(CONNECTORS);
    const queued = await queuedPer(ids);
    expect(queued).toHaveLength(CONNECTORS);
    expect(queued.every((q) => q.n === 1)).toBe(true);
    // And nothing more in that slot, whoever passes.
    expect(await enqueueDueRuns(otherDb, queue, hourLater)).toBe(0);
    await pool.query("UPDATE sync_runs SET status = 'succeeded' WHERE status = 'queued'");
    await pool.query("DELETE FROM pgboss.job WHERE name = $1", [SYNC_QUEUE]);
    expect(await enqueueDueRuns(db, queue, hourLater)).toBe(0);
  });

  it("a change of schedule, frequency or pause clears the bookmark; a new name or a run's status does not", async () => {
    const [id] = await connectors(1, "Marked ");
    await enqueueDueRuns(db, queue, now);
    const mark = async () => (await pool.query<{ next_due_at: Date | null }>("SELECT next_due_at FROM connectors WHERE id = $1", [id])).rows[0]!.next_due_at;
    const set = await mark();
    expect(set).not.toBeNull();
    await pool.query("UPDATE connectors SET name = 'Renamed', description = 'x', last_synced_at = now(), updated_at = now() WHERE id = $1", [id]);
    expect(await mark()).toEqual(set);
    for (const change of ["frequency = 'daily'", "schedule = '{\"kind\":\"interval\",\"every\":5,\"unit\":\"minutes\"}'", "paused = true"]) {
      await enqueueDueRuns(db, queue, now);
      expect(await mark(), change).not.toBeNull();
      await pool.query(`UPDATE connectors SET ${change} WHERE id = $1`, [id]);
      expect(await mark(), change).toBeNull();
    }
    // Paused, it is not looked at; unpaused, the next pass sets its bookmark again.
    await enqueueDueRuns(db, queue, now);
    expect(await mark()).toBeNull();
    await pool.query("UPDATE connectors SET paused = false WHERE id = $1", [id]);
    await enqueueDueRuns(db, queue, now);
    expect(await mark()).not.toBeNull();
  });

  it("a pass that stopped holding its lease: its connectors are not queued twice, and are taken again once the lease is over", async () => {
    const ids = await connectors(3, "Leased ");
    await pool.query("UPDATE connectors SET paused = true WHERE NOT (id = ANY($1))", [ids]);
    await enqueueDueRuns(db, queue, now);
    // A scheduler takes them at their next slot and dies before it queues anything.
    const later = new Date(hourLater.getTime() + 3_600_000);
    const leased = await SYNC_RUNS.takeDue(db, { now: later, lease: new Date(later.getTime() + 120_000), limit: 500 });
    expect(leased.map((k) => k.key).sort()).toEqual([...ids].sort());
    expect(await enqueueDueRuns(otherDb, queue, later)).toBe(0);
    expect(await queuedPer(ids)).toEqual([]);
    // Past the lease, the next pass queues each once.
    expect(await enqueueDueRuns(otherDb, queue, new Date(later.getTime() + 180_000))).toBe(3);
    expect((await queuedPer(ids)).map((q) => q.n)).toEqual([1, 1, 1]);
  });

  it("a due connector whose queue already holds a waiting job for it: no run is left without a job, and the next pass queues it", async () => {
    const [id] = await connectors(1, "Refused ");
    await pool.query("UPDATE connectors SET paused = true WHERE id <> $1", [id]);
    await enqueueDueRuns(db, queue, now);
    const later = new Date(hourLater.getTime() + 2 * 3_600_000);
    const stale = await queue.send(SYNC_QUEUE, { runId: "00000000-0000-4000-8000-000000000000" }, id!);
    expect(stale).not.toBeNull();
    expect(await enqueueDueRuns(db, queue, later)).toBe(0);
    expect(await queuedPer([id!])).toEqual([]);
    await boss.deleteJob(SYNC_QUEUE, stale!);
    expect(await enqueueDueRuns(db, queue, new Date(later.getTime() + 60_000))).toBe(1);
    const { rows } = await pool.query("SELECT job_id FROM sync_runs WHERE connector_id = $1 AND status = 'queued'", [id]);
    expect(rows).toHaveLength(1);
    expect(await queue.state(SYNC_QUEUE, rows[0].job_id)).toBe("created");
  });
});
