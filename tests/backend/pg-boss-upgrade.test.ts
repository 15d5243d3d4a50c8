import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PgBoss } from "pg-boss";
import { connectDatabase, type DatabaseHandle } from "../../backend/db/client.js";
import { startJobs } from "../../backend/jobs/boss.js";
import { dropPgBoss10Schema } from "../../backend/jobs/boss-upgrade.js";
import { createLogger } from "../../backend/lib/log.js";
import { recoverLostSyncRuns, SYNC_QUEUE } from "../../backend/sync/index.js";
import { cloneTemplateDatabase } from "./harness.js";

/**
 * A database an earlier `npm start` left on pg-boss 10 (schema version 24): pg-boss 12 cannot migrate it, so the start
 * drops it and pg-boss installs its own; a run that was queued under a job of the old schema is queued again by the
 * runs engine's recovery. Real Postgres; the old schema is laid out as far as the upgrade reads it (its version table)
 * with the queued run's job in its job table.
 */

const log = createLogger("silent");
let databaseUrl: string;
let handle: DatabaseHandle;
let boss: PgBoss | undefined;

beforeAll(async () => {
  databaseUrl = await cloneTemplateDatabase();
  handle = connectDatabase(databaseUrl, 3);
}, 60_000);

afterAll(async () => {
  await boss?.stop({ graceful: false });
  await handle?.close();
});

async function seedPgBoss10(oldJobId: string) {
  await handle.pool.query(`
    CREATE SCHEMA pgboss;
    CREATE TABLE pgboss.version (version int PRIMARY KEY, maintained_on timestamptz, cron_on timestamptz, monitored_on timestamptz);
    INSERT INTO pgboss.version VALUES (24, now(), now(), now());
    CREATE TABLE pgboss.job (id uuid PRIMARY KEY, name text NOT NULL, data jsonb, state text NOT NULL, singleton_key text)`);
  await handle.pool.query("INSERT INTO pgboss.job (id, name, state) VALUES ($1, $2, 'created')", [oldJobId, SYNC_QUEUE]);
}

describe("starting the job queue on a database left on pg-boss 10", () => {
  it("replaces pg-boss 10's schema with pg-boss 12's, and a run queued under an old job is queued again", async () => {
    const oldJobId = randomUUID();
    await seedPgBoss10(oldJobId);
    const { rows: users } = await handle.pool.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', 'upgrade', 'u@example.com', 'Upgrade') RETURNING id");
    const owner = users[0]!.id;
    const { rows: sources } = await handle.pool.query<{ id: string }>(
      "INSERT INTO sources (owner_id, name, integration_name, integration_label, metadata) VALUES ($1, 'Gen', 'datagen', 'Data generator', '{\"format\":\"zoom\"}') RETURNING id",
      [owner],
    );
    const { rows: connectors } = await handle.pool.query<{ id: string }>(
      "INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days) VALUES ($1, 'Old', $2, 'hourly', 1) RETURNING id",
      [owner, sources[0]!.id],
    );
    const { rows: runs } = await handle.pool.query<{ id: string }>(
      "INSERT INTO sync_runs (connector_id, owner_id, status, trigger, job_id) VALUES ($1, $2, 'queued', 'manual', $3) RETURNING id",
      [connectors[0]!.id, owner, oldJobId],
    );

    boss = await startJobs({ databaseUrl, log, work: false, jobs: [{ name: SYNC_QUEUE, policy: "stately", run: async () => {} }] });

    const { rows: version } = await handle.pool.query<{ version: number }>("SELECT version FROM pgboss.version");
    expect(Number(version[0]!.version)).toBeGreaterThan(24);
    expect(await boss.getJobById(SYNC_QUEUE, oldJobId)).toBeNull();
    expect(await recoverLostSyncRuns(handle.db, boss)).toBe(1);
    const { rows } = await handle.pool.query<{ status: string; job_id: string }>("SELECT status, job_id FROM sync_runs WHERE id = $1", [runs[0]!.id]);
    expect(rows[0]!.status).toBe("queued");
    expect(rows[0]!.job_id).not.toBe(oldJobId);
    const job = await boss.getJobById(SYNC_QUEUE, rows[0]!.job_id);
    expect(job).toMatchObject({ state: "created", singletonKey: connectors[0]!.id, data: { runId: runs[0]!.id } });
  });

  it("leaves pg-boss 12's own schema alone, however many processes start at once", async () => {
    const results = await Promise.all([dropPgBoss10Schema(databaseUrl, "pgboss"), dropPgBoss10Schema(databaseUrl, "pgboss")]);
    expect(results).toEqual([false, false]);
    const { rows } = await handle.pool.query<{ n: string }>("SELECT count(*) AS n FROM pgboss.queue WHERE name = $1", [SYNC_QUEUE]);
    expect(Number(rows[0]!.n)).toBe(1);
    expect(await dropPgBoss10Schema(databaseUrl, "no_such_schema")).toBe(false);
  });

  it("drops pg-boss 10's schema once when processes start side by side", async () => {
    const url = await cloneTemplateDatabase();
    const other = connectDatabase(url, 1);
    try {
      await other.pool.query("CREATE SCHEMA pgboss; CREATE TABLE pgboss.version (version int PRIMARY KEY); INSERT INTO pgboss.version VALUES (24)");
      const results = await Promise.all([dropPgBoss10Schema(url, "pgboss"), dropPgBoss10Schema(url, "pgboss")]);
      expect(results.sort()).toEqual([false, true]);
      const { rows } = await other.pool.query("SELECT 1 FROM pg_namespace WHERE nspname = 'pgboss'");
      expect(rows).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});
