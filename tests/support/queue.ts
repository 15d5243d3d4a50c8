import { PgBoss } from "pg-boss";
import { pgBossQueue, type JobQueue } from "../../backend/jobs/queue.js";

/**
 * A test that plays the runs engine's workers or scheduler: its own pg-boss client on a backend's database (it works
 * no queue and keeps no schedule), and the product's job queue over it. `expireEverySecond`: the client also runs
 * pg-boss's expiry every second, as a worker process does every JOBS_MAINTENANCE_INTERVAL_SECONDS.
 */
export async function startTestQueue(databaseUrl: string, options: { expireEverySecond?: boolean } = {}): Promise<{ boss: PgBoss; queue: JobQueue }> {
  const expiry = options.expireEverySecond ? { supervise: true, superviseIntervalSeconds: 1, monitorIntervalSeconds: 1 } : { supervise: false };
  const boss = new PgBoss({ connectionString: databaseUrl, schema: "pgboss", max: 2, schedule: false, ...expiry });
  await boss.start();
  return { boss, queue: pgBossQueue(boss) };
}

/**
 * Every row of every table of the job queue's schema (pg-boss's jobs, their archive, queues, schedules…) as JSON text,
 * one row a line: for a test that proves something (a secret) never reached the queue.
 */
export async function queueRowsText(db: { query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }> }): Promise<string> {
  const tables = (await db.query("SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables WHERE table_schema = 'pgboss' AND table_type = 'BASE TABLE'")).rows;
  const lines: string[] = [];
  for (const { name } of tables) lines.push(...(await db.query(`SELECT row_to_json(r)::text AS row FROM ${name as string} AS r`)).rows.map((r) => r.row as string));
  return lines.join("\n");
}
