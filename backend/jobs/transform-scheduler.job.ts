import type { JobQueue } from "./queue.js";
import type { Database } from "../db/client.js";
import type { OutcomeListener } from "../runs/engine.js";
import { schedulerJob } from "../runs/jobs.js";
import { TRANSFORM_RUNS, TRANSFORM_SCHEDULER_QUEUE } from "../transforms/runs.js";

/** Every minute: settles dead and lost transform runs, and queues the transform runs whose slot has come. */
export const transformSchedulerJob = (db: Database, jobs: () => JobQueue, onOutcome?: OutcomeListener) => schedulerJob(TRANSFORM_SCHEDULER_QUEUE, TRANSFORM_RUNS, db, jobs, onOutcome);
