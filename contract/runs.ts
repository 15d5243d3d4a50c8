import prettyBytes from "pretty-bytes";
import { z } from "zod";
import { syncRunSchema } from "./connectors.js";
import { transformRunSchema } from "./transforms.js";

/**
 * What a run's details page shows beyond its history row (issue 27): each attempt, where a sync's data landed, and
 * the run's own log. GET /connectors/:id/runs/:runId and /transforms/:id/runs/:runId answer `{ run }`; their `/log`
 * answers the log as text (runLogText).
 */

/** One attempt of a run: `outcome` is running while it runs, then succeeded, failed or retrying. */
export const runAttemptSchema = z.object({
  attempt: z.number().int(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  outcome: z.string(),
  error: z.string().nullable(),
});
export type RunAttempt = z.infer<typeof runAttemptSchema>;

/** Where one destination's data landed in a sync: its records and bytes, and a place a person can look it up. */
export const landedSchema = z.object({
  name: z.string(),
  /** The destination's type (its integration name: local, gcs, bigquery…). */
  type: z.string(),
  records: z.number().int(),
  bytes: z.number(),
  location: z.string(),
});
export type Landed = z.infer<typeof landedSchema>;

export const RUN_LOG_LEVELS = ["info", "warn", "error"] as const;
export const runLogLineSchema = z.object({ at: z.string(), level: z.enum(RUN_LOG_LEVELS), message: z.string() });
export type RunLogLine = z.infer<typeof runLogLineSchema>;

const details = {
  attempts: z.array(runAttemptSchema),
  log: z.array(runLogLineSchema),
  /** Set when the run's log was deleted for its age: the days logs are kept (RUN_LOG_DAYS). */
  log_kept_days: z.number().int().nullable(),
};

/** What a run's page says of a log deleted for its age. */
export const logRemovedMessage = (days: number) => `This run's log was deleted: logs are kept for ${days} days.`;

export const syncRunDetailsSchema = syncRunSchema.extend({ ...details, connector_name: z.string(), landed: z.array(landedSchema) });
export type SyncRunDetails = z.infer<typeof syncRunDetailsSchema>;

export const transformRunDetailsSchema = transformRunSchema.extend({ ...details, transform_name: z.string() });
export type TransformRunDetails = z.infer<typeof transformRunDetailsSchema>;

/**
 * A connector or transform whose latest finished run failed: the failures in a row since its last success, the first
 * of them (since when it fails) and the latest (its error). Null in the runs list's answer when it is not failing.
 */
export const runFailureSchema = z.object({
  failures: z.number().int(),
  since: z.string(),
  first_run_id: z.string(),
  last_run_id: z.string(),
  last_error: z.string().nullable(),
});
export type RunFailure = z.infer<typeof runFailureSchema>;

/** GET /{connectors|transforms}/{id}/runs: a page of the history (newest first), whether older runs remain, the failures in a row. */
export function runsPageSchema<R extends z.ZodTypeAny>(run: R) {
  return z.object({ status: z.literal("success"), runs: z.array(run), failing: runFailureSchema.nullable(), has_more: z.boolean(), message: z.string() });
}

/** GET /{connectors|transforms}/{id}/runs/{runId}: one run with its details. */
export function runAnswerSchema<R extends z.ZodTypeAny>(run: R) {
  return z.object({ status: z.literal("success"), run, message: z.string() });
}

/** GET /runs/version: the caller's data version (an opaque word that changes with every write of theirs). */
export const runsVersionSchema = z.object({ version: z.string() });

export const RUN_MESSAGES = {
  badPage: "That page of the run history does not exist.",
  notFound: "Run not found",
  loadFailed: "Failed to fetch the run",
} as const;

/** The log as a text file: one line each, "<ISO time> <LEVEL> <message>". */
export function runLogText(lines: readonly RunLogLine[]): string {
  return lines.map((l) => `${l.at} ${l.level.toUpperCase().padEnd(5)} ${l.message}\n`).join("");
}

/** The download's file name: tributary-<kind>-run-<run id>.log. */
export const runLogFileName = (kind: "sync" | "transform", runId: string) => `tributary-${kind}-run-${runId.replace(/[^0-9a-f-]/gi, "")}.log`;

/** A byte count as people read it: "512 B", "12.3 kB", "4.5 MB", "1.2 GB". */
export const formatBytes = (n: number): string => prettyBytes(n, { maximumFractionDigits: 1 });
