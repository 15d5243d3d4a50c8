import type { z } from "zod";
import type { Logger } from "../lib/log.js";

/** One kind of background work: a queue name, the schema of its payload, and what to do. */
export interface JobDefinition<P extends z.ZodTypeAny> {
  name: string;
  payload: P;
  /** pg-boss queue policy: "stately" / "singleton" keep one run at a time per singletonKey. */
  policy?: "standard" | "short" | "singleton" | "stately";
  /** Cron expression (UTC) when the job runs on a fixed schedule. */
  cron?: string;
  retryLimit?: number;
  /** How many jobs of this queue one worker process runs at once (default 1). */
  concurrency?: number;
  /** Seconds between fetches of one worker loop (pg-boss waits this long even after a job; min 0.5, default 2). */
  pollingIntervalSeconds?: number;
  /** Seconds before the first retry (doubled each time, with jitter: pg-boss's backoff). */
  retryDelay?: number;
  /** A job active longer than this (e.g. its worker died) is failed and retried. */
  expireInSeconds?: number;
  /** Work a worker process does every few seconds besides the queue (startSweeps): finding runs whose worker died. */
  sweep?: (log: Logger) => Promise<void>;
  handle(payload: z.infer<P>, context: { log: Logger }): Promise<void>;
}
