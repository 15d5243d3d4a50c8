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
  handle(payload: z.infer<P>, context: { log: Logger }): Promise<void>;
}
