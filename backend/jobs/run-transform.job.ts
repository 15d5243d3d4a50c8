import { z } from "zod";
import type PgBoss from "pg-boss";
import type { Database } from "../db/client.js";
import type { JobDefinition } from "./job.js";
import { enqueueDueTransformRuns, performTransformRun, recoverDeadTransformRuns, recoverLostTransformRuns, TRANSFORM_QUEUE, TRANSFORM_RETRY_LIMIT, TRANSFORM_SCHEDULER_QUEUE } from "../transforms/runner.js";
import type { WarehouseServices } from "../transforms/warehouse.js";

/**
 * The transform jobs: one run (queue "run-transform", stately, singletonKey =
 * transform id) and the every-minute scheduler that queues due runs. The
 * pipeline itself lives in backend/transforms/runner.ts.
 */

/* ---- the queue handle the API sends through (one per database: tests run several backends) ---- */

const queues = new Map<string, PgBoss>();
export function registerTransformQueue(databaseUrl: string, boss: PgBoss): () => void {
  queues.set(databaseUrl, boss);
  return () => {
    if (queues.get(databaseUrl) === boss) queues.delete(databaseUrl);
  };
}
export function transformQueue(databaseUrl: string): PgBoss | undefined {
  return queues.get(databaseUrl);
}

export function runTransformJob(services: WarehouseServices): JobDefinition<z.ZodTypeAny> {
  return {
    name: TRANSFORM_QUEUE,
    payload: z.object({ runId: z.string().uuid() }),
    policy: "stately",
    retryLimit: TRANSFORM_RETRY_LIMIT,
    retryDelay: 5,
    // A dead worker's run is found by its heartbeat; the expiry is a backstop for a run that hangs while its worker lives.
    expireInSeconds: Number(process.env.TRANSFORM_JOB_EXPIRE_SECONDS ?? 10_800),
    // Runs of different transforms proceed side by side (one per transform at most: stately + singletonKey).
    concurrency: Math.max(1, Number(process.env.TRANSFORM_CONCURRENCY) || 2),
    pollingIntervalSeconds: 0.5,
    handle: ({ runId }, { log }) => performTransformRun(services, runId, log),
  };
}

export function transformSchedulerJob(db: Database, boss: () => PgBoss): JobDefinition<z.ZodTypeAny> {
  return {
    name: TRANSFORM_SCHEDULER_QUEUE,
    payload: z.object({}).passthrough(),
    policy: "singleton",
    cron: "* * * * *",
    retryLimit: 0,
    // As the sync scheduler's sweep: dead runs are looked for every few seconds, not only once a minute.
    sweep: async (log) => {
      const dead = await recoverDeadTransformRuns(db, boss());
      if (dead) log.warn({ dead }, "transform runs whose worker stopped (no heartbeat): retried or failed");
    },
    async handle(_payload, { log }) {
      const dead = await recoverDeadTransformRuns(db, boss());
      if (dead) log.warn({ dead }, "transform runs whose worker stopped (no heartbeat): retried or failed");
      const recovered = await recoverLostTransformRuns(db, boss());
      if (recovered) log.warn({ recovered }, "transform runs whose job had ended without them: queued again or failed");
      const queued = await enqueueDueTransformRuns(db, boss());
      if (queued) log.info({ queued }, "scheduled transform runs queued");
    },
  };
}
