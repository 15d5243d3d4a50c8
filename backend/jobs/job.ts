import type { z } from "zod";
import type { Logger } from "../lib/log.js";

/** How pg-boss keeps a queue. */
export interface JobOptions {
  /** pg-boss queue policy: "stately" / "singleton" keep one run at a time per singletonKey. */
  policy?: "standard" | "short" | "singleton" | "stately";
  /** Cron expression (UTC) when the job runs on a fixed schedule (pg-boss makes a job of it, at most once a minute). */
  cron?: string;
  /**
   * Instead of a queue: every process that works this job runs it itself, this many seconds after its last pass ended
   * (startPasses). For work that must come oftener than a cron can, and that is safe with any number of processes
   * doing it side by side.
   */
  everySeconds?: number;
  retryLimit?: number;
  /** How many jobs of this queue one worker process runs at once (default 1). */
  concurrency?: number;
  /** Seconds between fetches of one worker loop (pg-boss waits this long even after a job; min 0.5, default 2). */
  pollingIntervalSeconds?: number;
  /** Seconds before the first retry (doubled each time, with jitter: pg-boss's backoff). */
  retryDelay?: number;
  /** A job active longer than this (e.g. its worker died) is failed and retried. */
  expireInSeconds?: number;
  /**
   * The worker working a job of this queue says it is alive this often (pg-boss does it); a job whose worker stops
   * saying so (a killed process) is failed and retried at pg-boss's next monitor pass. At least 10.
   */
  heartbeatSeconds?: number;
  /** Work a worker process does every few seconds besides the queue (startSweeps): finding runs whose worker died. */
  sweep?: (log: Logger) => Promise<void>;
}

export interface JobContext {
  log: Logger;
}

/** One kind of background work: a queue name, its options, and `run`, which checks a job's data and handles it. */
export interface Job extends JobOptions {
  name: string;
  run(data: unknown, context: JobContext): Promise<void>;
}

/** A job as defined: its payload's type is inferred from its zod schema. */
export interface JobDefinition<Shape extends z.ZodRawShape> extends JobOptions {
  name: string;
  schema: z.ZodObject<Shape>;
  handler(payload: z.infer<z.ZodObject<Shape>>, context: JobContext): Promise<void>;
}

/**
 * Defines a job (as Documenso's job definitions do): a name, the zod schema of its payload, and a handler that gets
 * the parsed payload, typed from the schema. A payload that does not parse fails the job with zod's message.
 */
export function defineJob<Shape extends z.ZodRawShape>(definition: JobDefinition<Shape>): Job & JobDefinition<Shape> {
  return { ...definition, run: (data, context) => definition.handler(definition.schema.parse(data), context) };
}
