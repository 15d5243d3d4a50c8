import PgBoss from "pg-boss";
import type { Logger } from "../lib/log.js";
import type { JobDefinition } from "./job.js";

/**
 * pg-boss on the same Postgres. Queues are created once here at start-up (not
 * by each worker), schedules are upserted (idempotent across processes), and
 * then this process works the queues: run as many worker processes as you like.
 */
export async function startJobs(options: {
  databaseUrl: string;
  log: Logger;
  jobs: JobDefinition<any>[];
  work: boolean;
}): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: options.databaseUrl, schema: "pgboss", max: 4, supervise: options.work, schedule: options.work });
  boss.on("error", (error) => options.log.error({ err: error }, "job queue error"));
  await boss.start();
  for (const job of options.jobs) {
    await boss.createQueue(job.name, { name: job.name, policy: job.policy ?? "standard", retryLimit: job.retryLimit ?? 3, retryBackoff: true });
    if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: "UTC" });
  }
  if (options.work) {
    for (const job of options.jobs) {
      await boss.work(job.name, { batchSize: 1 }, async ([raw]) => {
        const payload = job.payload.parse(raw!.data);
        await job.handle(payload, { log: options.log.child({ job: job.name, jobId: raw!.id }) });
      });
    }
  }
  return boss;
}
