import { z } from "zod";
import { storableName } from "./text.js";

/**
 * Keys of the public API (issue 38): made, listed and revoked by their signed-in owner from the settings page. A key's
 * token is shown once, when it is made; the server keeps only its hash. One schema serves the create form's name and
 * scope and the API body; the form gives a day for the expiry, the API an instant (`expires_at`).
 */

export const API_KEY_SCOPES = ["read", "read_write"] as const;
export type ApiKeyScopeValue = (typeof API_KEY_SCOPES)[number];
export const API_KEY_STATUSES = ["active", "expired", "revoked"] as const;
export const API_KEY_NAME_MAX = 100;
/** Live keys (neither revoked nor expired) one user may hold; a 26th is refused until one is revoked. */
export const API_KEYS_PER_USER_MAX = 25;

export const API_KEY_MESSAGES = {
  nameRequired: "Please enter a name for the key",
  nameTooLong: `The name must be ${API_KEY_NAME_MAX} characters or fewer`,
  scopeRequired: "Please choose what the key may do: read only, or read and write",
  expiryInvalid: "Please enter the expiry as a date, such as 2030-12-31",
  expiryPast: "The expiry date must be in the future",
  notFound: "API key not found",
  fetchFailed: "Failed to fetch API keys",
  createFailed: "Failed to create the API key.",
  revokeFailed: "Failed to revoke the API key.",
  created: "API key created",
  revoked: "API key revoked",
  shownOnce: "Copy this key now and keep it somewhere safe: it will not be shown again.",
  tooMany: `You have ${API_KEYS_PER_USER_MAX} active API keys, the most one account may hold. Revoke one you no longer use, then make the new one.`,
} as const;
const M = API_KEY_MESSAGES;

const nameSchema = storableName(
  z.string({ required_error: M.nameRequired, invalid_type_error: M.nameRequired }).trim().min(1, M.nameRequired).max(API_KEY_NAME_MAX, M.nameTooLong),
  "The name",
);
const scopeSchema = z.enum(API_KEY_SCOPES, { errorMap: () => ({ message: M.scopeRequired }) });

/** POST /api-keys: a name, a scope, and when the key stops working (an instant in the future), or none: it never expires. */
export const createApiKeyBodySchema = z.object({
  name: nameSchema,
  scope: scopeSchema,
  expires_at: z
    .string({ invalid_type_error: M.expiryInvalid })
    .datetime({ offset: true, message: M.expiryInvalid })
    .refine((v) => new Date(v).getTime() > Date.now(), { message: M.expiryPast })
    .nullable()
    .optional(),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar day written YYYY-MM-DD (what a date input sends). */
export function isCalendarDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCFullYear() === Number(m[1]) && date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]) && Number(m[1]) >= 1970;
}

/** The create form: name and scope as the API takes them, the expiry a day (empty: never). */
export const apiKeyFormSchema = z.object({
  intent: z.literal("create").optional(),
  name: nameSchema,
  scope: scopeSchema,
  expires_on: z
    .string()
    .trim()
    .refine(isCalendarDay, { message: M.expiryInvalid })
    .optional(),
});

/** Minutes `zone` is ahead of UTC at `at`. */
function offsetMinutes(zone: string, at: number): number {
  const parts: Record<string, number> = {};
  const format = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
  for (const p of format.formatToParts(new Date(at))) if (p.type !== "literal") parts[p.type] = Number(p.value);
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((local - Math.floor(at / 1000) * 1000) / 60000);
}

/**
 * A key that expires "on" a day works through that whole day where its owner is: it stops at the day's last
 * millisecond in `zone` (shown as 11:59:59 PM that day, not as the next day's midnight).
 */
export function endOfDayIn(day: string, zone: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const midnight = Date.UTC(y, m - 1, d + 1);
  let at = midnight - offsetMinutes(zone, midnight) * 60000;
  // Once more at the instant found: the offset there is the one that counts (a change of offset near midnight).
  at = midnight - offsetMinutes(zone, at) * 60000;
  return new Date(at - 1);
}

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  /** The token's first characters, to tell keys apart; never enough to use it. */
  prefix: z.string(),
  status: z.enum(API_KEY_STATUSES),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  /** The member who made it (a key acts for the workspace while they belong to it), by name. */
  created_by: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** GET /api-keys: the caller's keys, newest first. */
export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });

/** POST /api-keys (201): the key, and its token: in this answer only, never again. */
export const createdApiKeySchema = z.object({ key: apiKeySchema, token: z.string(), message: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** POST /api-keys/:id/revoke: done (revoking a revoked key again is done too). */
export const revokedApiKeySchema = z.object({ message: z.string() });
