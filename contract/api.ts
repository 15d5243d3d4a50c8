import { z } from "zod";
import { scheduleSchema } from "./schedules.js";

/**
 * The public API's envelope (issue 38): its errors, pages, schedules and paths. Its own records and bodies (a source's and
 * a destination's, per integration) are in backend/api/schemas.ts; connectors, transforms and runs are the app's.
 */

/** Every failure of the public API: a stable code a program can branch on, and the sentence a person reads. */
export const API_ERROR_CODES = [
  "missing_api_key",
  "invalid_api_key",
  "read_only_key",
  "rate_limited",
  "invalid_request",
  "not_found",
  "conflict",
  "idempotency_key_reused",
  "idempotency_key_in_use",
  "payload_too_large",
  "unsupported_media_type",
  "upstream_error",
  "unavailable",
  "internal_error",
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export const apiErrorSchema = z.object({
  error: z.object({ code: z.enum(API_ERROR_CODES), message: z.string(), field: z.string().optional() }),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

export const API_MESSAGES = {
  /** Spec §8 "General". */
  notAuthenticated: "User not authenticated",
  badKey: "User not authenticated: the API key is unknown, revoked or expired.",
  readOnly: "This API key is read-only: it cannot create, change or delete anything.",
  rateLimited: (seconds: number) => `Too many requests for this API key. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
  userRateLimited: (seconds: number) => `Too many requests for this account's API keys together. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
  failedAuthLimited: (seconds: number) => `Too many requests with an unknown, revoked or expired API key from this address. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
  badCursor: "The cursor is not one this API gave. Start again without it.",
  idempotencyReused: "This Idempotency-Key was already used with another request. Use a new key for a new request.",
  idempotencyInUse: "A request with this Idempotency-Key is still being answered. Try again in a moment.",
  idempotencyKey: "The Idempotency-Key must be 1 to 255 visible characters.",
  noRoute: (method: string, path: string) => `No such endpoint: ${method} ${path}`,
  credentialRequired: "credential_id is required for this integration: authenticate it in the app first.",
} as const;

/** ?limit=&cursor= of every list of the public API. */
export const API_PAGE_MAX = 200;
export const cursorQuerySchema = z.object({
  limit: z.coerce
    .number({ invalid_type_error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be 1 or more")
    .max(API_PAGE_MAX, `limit must be ${API_PAGE_MAX} or less`)
    .default(50)
    .describe("Records in one page (1 to 200)."),
  cursor: z.string().max(200, API_MESSAGES.badCursor).optional().describe("The `next_cursor` of the page before; omitted for the first page."),
});

/** One page of a list: its records and the cursor of the next page (null: this was the last). */
export function pageSchema<T extends z.ZodTypeAny>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}

export const apiScheduleSchema = z.object({
  schedule: scheduleSchema.nullable().describe("The schedule, or null: the Daily or Hourly slot of its frequency."),
  next_run_at: z.string().nullable(),
});
export type ApiSchedule = z.infer<typeof apiScheduleSchema>;

export const idParamsSchema = z.object({ id: z.string().describe("The record's id.") });
export const runParamsSchema = idParamsSchema.extend({ runId: z.string().describe("The run's id.") });
