import type PgBoss from "pg-boss";
import type { Job } from "./job.js";
import { cleanupSessionsJob } from "./cleanup-sessions.job.js";
import { syncConnectorJob } from "./sync-connector.job.js";
import { syncSchedulerJob } from "./sync-scheduler.job.js";
import { runTransformJob } from "./run-transform.job.js";
import { transformSchedulerJob } from "./transform-scheduler.job.js";
import type { WarehouseServices } from "../transforms/warehouse.js";
import type { SyncServices } from "../sync/index.js";

/** Every job of the backend. `boss`: the queue the schedulers send through, once started. */
export function backendJobs(services: SyncServices & WarehouseServices, boss: () => PgBoss): Job[] {
  return [
    cleanupSessionsJob(services.db),
    syncConnectorJob(services),
    syncSchedulerJob(services.db, boss),
    runTransformJob(services),
    transformSchedulerJob(services.db, boss),
  ];
}
