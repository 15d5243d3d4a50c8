import type { OutcomeListener } from "../runs/engine.js";
import { runJob } from "../runs/jobs.js";
import { runTransform } from "../transforms/runner.js";
import { TRANSFORM_RUNS } from "../transforms/runs.js";
import type { WarehouseServices } from "../transforms/warehouse.js";

/** A transform run's job: one attempt runs the template's pipeline on the connector's warehouse (backend/transforms/runner.ts). */
export const runTransformJob = (services: WarehouseServices, onOutcome?: OutcomeListener) =>
  runJob(TRANSFORM_RUNS, services.db, { concurrency: process.env.TRANSFORM_CONCURRENCY, defaultConcurrency: 2, expireInSeconds: process.env.TRANSFORM_JOB_EXPIRE_SECONDS }, async (run) => {
    const result = await runTransform(services, run.key, { id: run.id, at: run.startedAt, signal: run.signal }, run.log);
    return { records: result.records, outputs: result.outputs };
  }, onOutcome);
