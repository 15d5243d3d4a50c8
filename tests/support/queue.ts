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
