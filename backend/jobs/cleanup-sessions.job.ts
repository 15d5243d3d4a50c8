import { z } from "zod";
import type { Database } from "../db/client.js";
import { deleteExpiredSessions } from "../auth/sessions.js";
import type { JobDefinition } from "./job.js";

/** Expired sessions are useless and only grow the table: drop them every hour. */
export function cleanupSessionsJob(db: Database): JobDefinition<z.ZodTypeAny> {
  return {
    name: "cleanup-sessions",
    payload: z.object({}).passthrough(),
    policy: "singleton",
    cron: "17 * * * *",
    async handle(_payload, { log }) {
      const removed = await deleteExpiredSessions(db);
      if (removed > 0) log.info({ removed }, "expired sessions removed");
    },
  };
}
