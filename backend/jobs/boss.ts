import pg from "pg";
import { PgBoss } from "pg-boss";
import type { Logger } from "../lib/log.js";
import type { Job } from "./job.js";

/** Arbitrary constant: one process at a time looks at the job queue's schema before pg-boss starts. */
const QUEUE_SCHEMA_LOCK = 727_100_002;

/**
 * pg-boss 12 migrates its schema from pg-boss 11's (version 25) on, not from pg-boss 10's (version 24), which it refuses
 * to start on. Such a schema is dropped before pg-boss starts and installs its own: its jobs only point at runs, and
 * the runs tables are the record. Every run they hold as queued or running gets a new job at the next scheduler pass
 * (the runs engine's recovery); schedules are made again at every start. Answers whether it dropped one.
 */
export async function retirePgBoss10Schema(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [QUEUE_SCHEMA_LOCK]);
    const present = (await client.query<{ present: boolean }>("SELECT to_regclass('pgboss.version') IS NOT NULL AS present")).rows[0]!.present;
    const version = present ? (await client.query<{ version: number | null }>("SELECT max(version) AS version FROM pgboss.version")).rows[0]!.version : null;
    const old = version !== null && version < 25;
    if (old) await client.query("DROP SCHEMA pgboss CASCADE");
    await client.query("COMMIT");
    return old;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * pg-boss on the same Postgres. Queues are created once here at start-up (not
 * by each worker), schedules are upserted (idempotent across processes), and
 * then this process works the queues: run as many worker processes as you like.
 */
export async function startJobs(options: {
  databaseUrl: string;
  log: Logger;
  jobs: Job[];
  /** The jobs whose queues this process works (none: it only sends jobs). */
  works: (job: Job) => boolean;
  /** Whether this process makes the timed jobs of the cron schedules (pg-boss's timekeeper). */
  schedules: boolean;
  /** Days an ended job is kept before pg-boss's daily maintenance deletes it (JOB_HISTORY_DAYS). */
  keepEndedJobsDays: number;
}): Promise<PgBoss> {
  if (await retirePgBoss10Schema(options.databaseUrl)) {
    options.log.warn("job queue: pg-boss 10's schema was replaced by pg-boss 12's; queued and running runs get new jobs at the next scheduler pass");
  }
  // How often a worker looks for expired jobs (a dead worker's job is retried after its expiry plus up to this):
  // pg-boss's supervisor (one process at a time per queue) fails the jobs active past their expiry, at most this often.
  const superviseSeconds = Math.max(1, Number(process.env.JOBS_MAINTENANCE_INTERVAL_SECONDS) || 120);
  const boss = new PgBoss({
    connectionString: options.databaseUrl, schema: "pgboss", max: 4, supervise: options.jobs.some(options.works), schedule: options.schedules,
    superviseIntervalSeconds: superviseSeconds, monitorIntervalSeconds: superviseSeconds,
  });
  boss.on("error", (error: Error) => {
    // 57P01: Postgres itself is shutting down (Ctrl-C reaches it too); expected while we stop, not a fault.
    if ((error as { code?: string }).code === "57P01") return options.log.warn("job queue: the database is shutting down");
    options.log.error({ err: error }, "job queue error");
  });
  // pg-boss's own notices (a slow query, a queue past its size warning, the database's clock drifting from ours).
  boss.on("warning", (warning: { message: string; data?: object }) => options.log.warn({ detail: warning.data }, `job queue: ${warning.message}`));
  await boss.start();
  for (const job of options.jobs) {
    if (job.everySeconds) {
      // Its processes run it themselves (startPasses); a cron of an earlier version would still make jobs nobody works.
      if (options.schedules) await boss.unschedule(job.name);
      continue;
    }
    const settings = { retryLimit: job.retryLimit ?? 3, retryBackoff: true, deleteAfterSeconds: options.keepEndedJobsDays * 86_400,
      ...(job.retryDelay !== undefined ? { retryDelay: job.retryDelay } : {}),
      ...(job.expireInSeconds !== undefined ? { expireInSeconds: job.expireInSeconds } : {}),
      ...(job.heartbeatSeconds !== undefined ? { heartbeatSeconds: job.heartbeatSeconds } : {}),
    };
    await boss.createQueue(job.name, { policy: job.policy ?? "standard", ...settings });
    // createQueue leaves a queue that exists as it was made: the settings of this start (retry delay, expiry) apply.
    await boss.updateQueue(job.name, settings);
    if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: "UTC" });
  }
  for (const job of options.jobs.filter((job) => !job.everySeconds && options.works(job))) {
    const polling = job.pollingIntervalSeconds ? { pollingIntervalSeconds: job.pollingIntervalSeconds } : {};
    await boss.work(job.name, { batchSize: 1, localConcurrency: Math.max(1, job.concurrency ?? 1), ...polling }, async ([raw]) => {
      await job.run(raw!.data, { log: options.log.child({ job: job.name, jobId: raw!.id }) });
    });
  }
  return boss;
}

/**
 * Runs every job's sweep every `everySeconds` in this (worker) process, one pass at a time; answers the stop. Holds no
 * state: any number of worker processes sweep side by side.
 */
export function startSweeps(jobs: Job[], log: Logger, everySeconds: number): () => Promise<void> {
  const sweeps = jobs.filter((job) => job.sweep);
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = (async () => {
      for (const job of sweeps) {
        await job.sweep!(log.child({ job: job.name, sweep: true })).catch((error: unknown) => log.error({ err: error, job: job.name }, "sweep failed"));
      }
    })().finally(() => {
      running = undefined;
    });
  }, everySeconds * 1000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Runs each job that has `everySeconds` in this process: at once, then that many seconds after each pass ends (a
 * pass that fails is logged, and the next comes as usual); answers the stop, which waits for a pass in flight.
 */
export function startPasses(jobs: Job[], log: Logger): () => Promise<void> {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  for (const job of jobs.filter((job) => job.everySeconds)) {
    const pass = () => {
      if (stopped) return;
      const passLog = log.child({ job: job.name });
      const done = job
        .run({}, { log: passLog })
        .catch((error: unknown) => passLog.error({ err: error }, "pass failed"))
        .finally(() => {
          running.delete(done);
          if (stopped) return;
          const timer = setTimeout(() => {
            timers.delete(timer);
            pass();
          }, job.everySeconds! * 1000);
          timer.unref();
          timers.add(timer);
        });
      running.add(done);
    };
    pass();
  }
  return async () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    await Promise.all(running);
  };
}
