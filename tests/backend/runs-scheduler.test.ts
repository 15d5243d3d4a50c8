import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../backend/db/schema.js";
import { enqueueDueRuns, SYNC_QUEUE } from "../../backend/sync/index.js";
import { enqueueDueTransformRuns, TRANSFORM_QUEUE } from "../../backend/transforms/runs.js";
import { cloneTemplateDatabase } from "../support/backend.js";
import { startTestQueue } from "../support/queue.js";
import type { JobQueue } from "../../backend/jobs/queue.js";
import type { PgBoss } from "pg-boss";

/**
 * The schedulers find what is due with one query per pass, however many connectors and transforms there are (only
 * the keys whose bookmark has come are read); the due ones, and only those, get a run. Real Postgres; the queries are
 * counted by drizzle's own logger.
 */

const CONNECTORS = 40;
/** The moment every pass of this file runs at. */
const now = new Date();

let databaseUrl: string;
let pool: pg.Pool;
let boss: PgBoss;
let queue: JobQueue;
let queries: string[] = [];
let connectorIds: string[] = [];
let transformIds: string[] = [];
let db: ReturnType<typeof drizzle<typeof schema>>;

beforeAll(async () => {
  databaseUrl = await cloneTemplateDatabase();
  pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  db = drizzle(pool, { schema, logger: { logQuery: (query) => queries.push(query) } });
  const { rows: users } = await pool.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', 'sched', 's@example.com', 'Sched') RETURNING id");
  const owner = users[0]!.id;
  const { rows: sources } = await pool.query<{ id: string }>(
    "INSERT INTO sources (owner_id, name, integration_name, integration_label, metadata) VALUES ($1, 'Gen', 'datagen', 'Data generator', '{\"format\":\"zoom\"}') RETURNING id",
    [owner],
  );
  const made = await pool.query<{ id: string }>(
    `INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days, created_at)
     SELECT $1, 'C' || n, $2, 'hourly', 1, now() - interval '3 hours' FROM generate_series(1, ${CONNECTORS}) n RETURNING id`,
    [owner, sources[0]!.id],
  );
  connectorIds = made.rows.map((r) => r.id);
  const transforms = await pool.query<{ id: string }>(
    `INSERT INTO transforms (owner_id, name, transform_type, template_id, connector_id, frequency, created_at)
     SELECT $1, 'T' || c.name, 'topic_modeling', 'topic-modeling', c.id, 'hourly', now() - interval '3 hours' FROM connectors c RETURNING id`,
    [owner],
  );
  transformIds = transforms.rows.map((r) => r.id);
  // Every one ran at the moment of the passes below: nothing is due until its next slot.
  await pool.query("INSERT INTO sync_runs (connector_id, owner_id, status, trigger, created_at) SELECT id, owner_id, 'succeeded', 'schedule', $1 FROM connectors", [now]);
  await pool.query("INSERT INTO transform_runs (transform_id, owner_id, status, trigger, created_at) SELECT id, owner_id, 'succeeded', 'schedule', $1 FROM transforms", [now]);
  ({ boss, queue } = await startTestQueue(databaseUrl));
  await boss.createQueue(SYNC_QUEUE, { policy: "stately" });
  await boss.createQueue(TRANSFORM_QUEUE, { policy: "stately" });
}, 60_000);

afterAll(async () => {
  await boss?.stop({ graceful: false });
  await pool?.end();
});

describe("the schedulers", () => {
  it("look at every connector and transform once, then with one query per pass when nothing is due", async () => {
    // None has a bookmark yet: the first pass looks at all of them, one statement to take them, one to set them.
    for (const pass of [enqueueDueRuns, enqueueDueTransformRuns]) {
      queries = [];
      expect(await pass(db, queue, now)).toBe(0);
      expect(queries).toHaveLength(2);
      queries = [];
      expect(await pass(db, queue, now)).toBe(0);
      expect(queries).toHaveLength(1);
    }
    const unset = await pool.query("SELECT count(*)::int AS n FROM connectors WHERE next_due_at IS NULL OR next_due_at <= $1", [now]);
    expect(unset.rows[0].n).toBe(0);
  });

  it("queue a run for the due ones only, once per slot, and none for a paused connector", async () => {
    // Three connectors (and their transforms) made three hours ago that never ran: their slot has come. One is paused.
    const { rows: owners } = await pool.query<{ owner_id: string; source_id: string }>("SELECT owner_id, source_id FROM connectors LIMIT 1");
    const made = await pool.query<{ id: string }>(
      `INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days, created_at, paused)
       SELECT $1, 'New ' || n, $2, 'hourly', 1, $3::timestamptz - interval '3 hours', n = 3 FROM generate_series(1, 3) n RETURNING id`,
      [owners[0]!.owner_id, owners[0]!.source_id, now],
    );
    const due = made.rows.map((r) => r.id);
    await pool.query(
      `INSERT INTO transforms (owner_id, name, transform_type, template_id, connector_id, frequency, created_at)
       SELECT owner_id, 'T' || name, 'topic_modeling', 'topic-modeling', id, 'hourly', created_at FROM connectors WHERE id = ANY($1)`,
      [due],
    );
    expect(await enqueueDueRuns(db, queue, now)).toBe(2);
    expect(await enqueueDueRuns(db, queue, now)).toBe(0);
    expect(await enqueueDueTransformRuns(db, queue, now)).toBe(2);
    expect(await enqueueDueTransformRuns(db, queue, now)).toBe(0);
    const { rows } = await pool.query<{ connector_id: string }>("SELECT connector_id FROM sync_runs WHERE status = 'queued' ORDER BY connector_id");
    expect(rows.map((r) => r.connector_id)).toEqual([...due.slice(0, 2)].sort());
    const transforms = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM transform_runs WHERE status = 'queued'");
    expect(transforms.rows[0]!.n).toBe(2);
    expect(transformIds).toHaveLength(CONNECTORS);
    // Unpaused, the third is looked at again (its bookmark was cleared) and queued at once: its slot has come.
    await pool.query("UPDATE connectors SET paused = false WHERE id = $1", [due[2]]);
    expect(await enqueueDueRuns(db, queue, now)).toBe(1);
    expect(await enqueueDueRuns(db, queue, now)).toBe(0);
    await pool.query("DELETE FROM transform_runs WHERE status = 'queued'");
    await pool.query("DELETE FROM sync_runs WHERE status = 'queued'");
    await pool.query("DELETE FROM transforms WHERE connector_id = ANY($1)", [due]);
    await pool.query("DELETE FROM connectors WHERE id = ANY($1)", [due]);
  });
});

describe("the schedulers with schedules", () => {
  /** A schedule column's value, set three hours before the passes. */
  const stored = (schedule: object) => JSON.stringify({ ...schedule, since: new Date(now.getTime() - 3 * 3_600_000).toISOString() });
  const queuedFor = async (table: "sync_runs" | "transform_runs", column: string, ids: string[]) =>
    (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE status = 'queued' AND ${column} = ANY($1)`, [ids])).rows[0]!.n;

  it("queue a cron schedule's run once per slot, never a manual-only one, and still look with one query per pass", async () => {
    const [cron, manual, fresh] = connectorIds.slice(10, 13) as [string, string, string];
    // All three last ran two hours ago: a cron every quarter hour is due, manual only never is, and a daily cron set
    // just now is not due for a slot that came before it was set.
    await pool.query("UPDATE sync_runs SET created_at = $2::timestamptz - interval '2 hours' WHERE connector_id = ANY($1)", [[cron, manual, fresh], now]);
    await pool.query("UPDATE connectors SET schedule = $2 WHERE id = $1", [cron, stored({ kind: "cron", expression: "*/15 * * * *", time_zone: "America/New_York" })]);
    await pool.query("UPDATE connectors SET schedule = $2 WHERE id = $1", [manual, stored({ kind: "manual" })]);
    const earlier = new Date(now.getTime() - 60_000);
    await pool.query("UPDATE connectors SET schedule = $2 WHERE id = $1", [
      fresh,
      JSON.stringify({ kind: "daily", time: `${String(earlier.getUTCHours()).padStart(2, "0")}:${String(earlier.getUTCMinutes()).padStart(2, "0")}`, time_zone: "UTC", since: now.toISOString() }),
    ]);
    queries = [];
    expect(await enqueueDueRuns(db, queue, now)).toBe(1);
    expect(queries.filter((q) => /from "connectors"/i.test(q))).toHaveLength(1);
    expect(await queuedFor("sync_runs", "connector_id", [cron])).toBe(1);
    expect(await queuedFor("sync_runs", "connector_id", [manual, fresh])).toBe(0);
    // Once per slot: the next pass in the same quarter hour queues nothing, with one query.
    // The run finishes (its job too, so that the stately queue takes the connector's next one).
    const { rows: done } = await pool.query<{ job_id: string }>("UPDATE sync_runs SET status = 'succeeded' WHERE connector_id = $1 AND status = 'queued' RETURNING job_id", [cron]);
    await boss.deleteJob(SYNC_QUEUE, done[0]!.job_id);
    queries = [];
    expect(await enqueueDueRuns(db, queue, now)).toBe(0);
    expect(queries).toHaveLength(1);
    // The next quarter hour's slot is due again; manual only still never is, nor is the daily one until tomorrow.
    // (Other connectors' hourly slots may come in that quarter hour too: count this one's runs.)
    await enqueueDueRuns(db, queue, new Date(now.getTime() + 15 * 60_000));
    expect(await queuedFor("sync_runs", "connector_id", [cron])).toBe(1);
    expect(await queuedFor("sync_runs", "connector_id", [manual, fresh])).toBe(0);
    // The manual-only connector is left out by the query itself: it is never taken, and has no bookmark.
    const { rows: marks } = await pool.query<{ id: string; next_due_at: Date | null }>("SELECT id, next_due_at FROM connectors WHERE id = ANY($1)", [[cron, manual]]);
    expect(marks.find((m) => m.id === cron)!.next_due_at).not.toBeNull();
    expect(marks.find((m) => m.id === manual)!.next_due_at).toBeNull();
  });

  it("do the same for transforms", async () => {
    const [cron, manual] = transformIds.slice(20, 22) as [string, string];
    await pool.query("UPDATE transform_runs SET created_at = $2::timestamptz - interval '2 hours' WHERE transform_id = ANY($1)", [[cron, manual], now]);
    await pool.query("UPDATE transforms SET schedule = $2 WHERE id = $1", [cron, stored({ kind: "cron", expression: "0,30 * * * *", time_zone: "Europe/Berlin" })]);
    await pool.query("UPDATE transforms SET schedule = $2 WHERE id = $1", [manual, stored({ kind: "manual" })]);
    queries = [];
    expect(await enqueueDueTransformRuns(db, queue, now)).toBe(1);
    expect(queries.filter((q) => /from "transforms"/i.test(q))).toHaveLength(1);
    expect(await queuedFor("transform_runs", "transform_id", [cron])).toBe(1);
    expect(await queuedFor("transform_runs", "transform_id", [manual])).toBe(0);
    queries = [];
    expect(await enqueueDueTransformRuns(db, queue, now)).toBe(0);
    expect(queries).toHaveLength(1);
  });
});
