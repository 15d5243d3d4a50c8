import { z } from "zod";
import type { Database } from "../db/client.js";
import { pruneHistory, type Retention } from "../db/history.js";
import { defineJob } from "./job.js";

/**
 * Run history (with its alerts) and run logs are kept for a configurable time (RUN_HISTORY_DAYS, RUN_LOG_DAYS): every hour, what has
 * outlived it is deleted (backend/db/history.ts says what is always kept). The job queue prunes its own ended jobs
 * (JOB_HISTORY_DAYS, set on each queue at start).
 */
export const pruneHistoryJob = (db: Database, retention: Retention) =>
  defineJob({
    name: "prune-history",
    schema: z.object({}),
    policy: "singleton",
    cron: "41 * * * *",
    retryLimit: 0,
    async handler(_payload, { log }) {
      const pruned = await pruneHistory(db, retention);
      if (pruned.syncRuns + pruned.transformRuns + pruned.logLines + pruned.alertDeliveries > 0) log.info(pruned, "run history pruned");
    },
  });
