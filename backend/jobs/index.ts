import type { JobQueue } from "./queue.js";
import type { Job } from "./job.js";
import { cleanupSessionsJob } from "./cleanup-sessions.job.js";
import { pruneHistoryJob } from "./prune-history.job.js";
import { syncConnectorJob } from "./sync-connector.job.js";
import { syncSchedulerJob } from "./sync-scheduler.job.js";
import { runTransformJob } from "./run-transform.job.js";
import { transformSchedulerJob } from "./transform-scheduler.job.js";
import type { WarehouseServices } from "../transforms/warehouse.js";
import type { SyncServices } from "../sync/index.js";
import type { OutcomeListener } from "../runs/engine.js";
import type { Config } from "../config.js";

/**
 * Every job of the backend. `jobs`: the queue the schedulers send through, once started. `onOutcome`: told each
 * run's final outcome once it is stored (the alerts, backend/alerts/).
 */
export function backendJobs(services: SyncServices & WarehouseServices & { config: Pick<Config, "RUN_HISTORY_DAYS" | "RUN_LOG_DAYS"> }, jobs: () => JobQueue, onOutcome?: OutcomeListener): Job[] {
  return [
    cleanupSessionsJob(services.db),
    pruneHistoryJob(services.db, { runDays: services.config.RUN_HISTORY_DAYS, logDays: services.config.RUN_LOG_DAYS }),
    syncConnectorJob(services, onOutcome),
    syncSchedulerJob(services.db, jobs, onOutcome),
    runTransformJob(services, onOutcome),
    transformSchedulerJob(services.db, jobs, onOutcome),
  ];
}
