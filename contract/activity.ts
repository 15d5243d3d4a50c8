import { z } from "zod";

/**
 * Who did what in a workspace (issue 51 item 4): an entry per write and per manual sync, backfill, cancel or run, by a
 * member or an API key, on which record, when. GET /activity answers a page of the log (filtered by who and by record
 * type); GET /activity/record answers who created a record and who last changed it. Words for the stored values are in
 * contract/labels.ts (activityActionLabel, activityRecordTypeLabel).
 */

/** What was done, as stored. */
export const ACTIVITY_ACTIONS = [
  "created",
  "updated",
  "deleted",
  "synced",
  "backfilled",
  "cancelled",
  "ran",
  "paused",
  "resumed",
  "schedule_changed",
  "stream_turned_off",
  "stream_turned_on",
  "stream_resynced",
  "email_confirmation_resent",
  "signing_secret_rolled",
  "revoked",
  "invited",
  "invitation_resent",
  "joined",
  "removed",
  "left",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** What it was done to, as stored. (Members, invitations and workspaces are written by their own use cases.) */
export const ACTIVITY_RECORD_TYPES = ["source", "destination", "connector", "transform", "alert_settings", "api_key", "member", "invitation", "workspace"] as const;
export type ActivityRecordType = (typeof ACTIVITY_RECORD_TYPES)[number];

/** The record types the log page offers as a filter, in its order. */
export const ACTIVITY_FILTER_TYPES = ["source", "destination", "connector", "transform", "alert_settings", "api_key", "member"] as const satisfies readonly ActivityRecordType[];

/** The actions that count as a record's change on its details page ("Updated by Ben"). */
export const UPDATE_ACTIONS = ["updated", "paused", "resumed", "schedule_changed", "stream_turned_off", "stream_turned_on"] as const satisfies readonly ActivityAction[];

export const ACTIVITY_KINDS = ["member", "key"] as const;

/** Entries in one page of the log. */
export const ACTIVITY_PAGE_SIZE = 50;

export const ACTIVITY_MESSAGES = {
  fetchFailed: "Failed to fetch the activity log",
  badFilter: "That filter of the activity log does not exist.",
  empty: "Nothing has been done in this workspace yet. Every change to a source, destination, connector, transform, alert setting or API key, and every sync started by hand, will be listed here.",
  emptyFiltered: "No activity matches these filters.",
} as const;

/** A filter's "who": `member:<user id>` or `key:<key id>`. */
export const actorFilterValue = (kind: "member" | "key", id: string) => `${kind}:${id}`;
const ACTOR_FILTER = /^(member|key):([0-9a-f-]{36})$/i;
export function readActorFilter(value: string): { kind: "member"; userId: string } | { kind: "key"; keyId: string } | null {
  const m = ACTOR_FILTER.exec(value);
  if (!m) return null;
  return m[1]!.toLowerCase() === "member" ? { kind: "member", userId: m[2]!.toLowerCase() } : { kind: "key", keyId: m[2]!.toLowerCase() };
}

/** GET /activity's query: ?actor=member:<id>|key:<id>, ?type=<record type>, ?before=<entry id> (the next page). Empty: no filter. */
export const activityQuerySchema = z.object({
  actor: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || readActorFilter(v) !== null, { message: ACTIVITY_MESSAGES.badFilter }),
  type: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || (ACTIVITY_RECORD_TYPES as readonly string[]).includes(v), { message: ACTIVITY_MESSAGES.badFilter }),
  before: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^[1-9]\d{0,17}$/.test(v), { message: ACTIVITY_MESSAGES.badFilter }),
});
export type ActivityQuery = z.input<typeof activityQuerySchema>;

/** Who did something: a member (by their name then) or an API key (its name). */
export const activityActorSchema = z.object({ kind: z.enum(ACTIVITY_KINDS), name: z.string() });
export type ActivityActor = z.infer<typeof activityActorSchema>;

export const activityEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: activityActorSchema,
  action: z.string(),
  record: z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** GET /activity: a page of entries (newest first), `next_before` for the page after it (null: the last), and who appears in the log (the filter's choices). */
export const activityPageSchema = z.object({
  entries: z.array(activityEntrySchema),
  next_before: z.string().nullable(),
  actors: z.array(z.object({ value: z.string(), kind: z.enum(ACTIVITY_KINDS), name: z.string() })),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;

/** GET /activity/record?type=&id=: who created the record and who changed it last (null: not in the log, or pruned). */
export const recordAuthorSchema = activityActorSchema.extend({ at: z.string() });
export type RecordAuthor = z.infer<typeof recordAuthorSchema>;
export const recordAuthorsSchema = z.object({ created: recordAuthorSchema.nullable(), updated: recordAuthorSchema.nullable() });
export type RecordAuthors = z.infer<typeof recordAuthorsSchema>;

export const recordAuthorsQuerySchema = z.object({
  type: z.enum(ACTIVITY_RECORD_TYPES, { errorMap: () => ({ message: ACTIVITY_MESSAGES.badFilter }) }),
  id: z.string().min(1, ACTIVITY_MESSAGES.badFilter).max(100, ACTIVITY_MESSAGES.badFilter),
});

/** What a run's answer adds for the app: who asked for it (a name) and how they acted (null: nobody did: the schedule, creation). */
export const runTriggeredByFields = {
  triggered_by: z.string().nullable().default(null),
  triggered_via: z.enum(ACTIVITY_KINDS).nullable().default(null),
};
export type RunTriggeredBy = { triggered_by: string | null; triggered_via: (typeof ACTIVITY_KINDS)[number] | null };
