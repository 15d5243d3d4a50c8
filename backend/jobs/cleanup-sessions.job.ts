import { z } from "zod";
import type { Database } from "../db/client.js";
import { deleteExpiredSessions } from "../db/sessions.js";
import { defineJob } from "./job.js";

/** Expired sessions are useless and only grow the table: drop them every hour. */
export const cleanupSessionsJob = (db: Database) =>
  defineJob({
    name: "cleanup-sessions",
    schema: z.object({}),
    policy: "singleton",
    cron: "17 * * * *",
    async handler(_payload, { log }) {
      const removed = await deleteExpiredSessions(db);
      if (removed > 0) log.info({ removed }, "expired sessions removed");
    },
  });
