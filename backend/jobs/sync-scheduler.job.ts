import type { JobQueue } from "./queue.js";
import type { Database } from "../db/client.js";
import type { OutcomeListener } from "../runs/engine.js";
import { schedulerJob } from "../runs/jobs.js";
import { SCHEDULER_QUEUE, SYNC_RUNS } from "../sync/index.js";

/** Every minute: settles dead and lost sync runs, and queues the syncs whose slot has come. */
export const syncSchedulerJob = (db: Database, jobs: () => JobQueue, onOutcome?: OutcomeListener) => schedulerJob(SCHEDULER_QUEUE, SYNC_RUNS, db, jobs, onOutcome);
