import { z } from "zod";

/**
 * Cancel and backfill (issue 27): what the API answers to a cancel, and the rules of a backfill's date range, shared
 * by the backend (POST /connectors/{id}/backfill) and the connector page's Backfill form.
 * See docs/decisions/2026-11-26-cancel-and-backfill.md.
 */

/* ---- cancel ------------------------------------------------------------------------------------------- */

/** What a cancel did: a queued run ended at once, a running one stops at its next batch (or step), or nothing was open. */
export const CANCEL_OUTCOMES = ["cancelled", "stopping", "already_stopping", "none"] as const;
export type CancelOutcome = (typeof CANCEL_OUTCOMES)[number];

/** The plain sentence of a cancel's outcome; `noun` is "sync" or "run" (a transform's), `unit` where it stops. */
export function cancelMessage(outcome: CancelOutcome, noun: "sync" | "run"): string {
  const unit = noun === "sync" ? "the batch it is writing" : "the step it is on";
  switch (outcome) {
    case "cancelled":
      return `The queued ${noun} was cancelled.`;
    case "stopping":
      return `The ${noun} is stopping: it ends after ${unit}.`;
    case "already_stopping":
      return `The ${noun} is already stopping.`;
    case "none":
      return `There is no ${noun} queued or running to cancel.`;
  }
}

/** POST /connectors/{id}/cancel and POST /transforms/{id}/cancel: 200 (done or nothing to do) or 202 (stopping). */
export const cancelResponseSchema = z.object({
  status: z.literal("success"),
  outcome: z.enum(CANCEL_OUTCOMES),
  run_id: z.string().nullable(),
  message: z.string(),
});
export type CancelResponse = z.infer<typeof cancelResponseSchema>;

/* ---- backfill ----------------------------------------------------------------------------------------- */

/** The longest backfill, in days (From and To included). */
export const BACKFILL_MAX_DAYS = 366;
const DAY_MS = 86_400_000;
/** A date-time may be this far ahead of the server's clock (the app's clock, a caller's) and count as now. */
const CLOCK_SKEW_MS = 60_000;

export const BACKFILL_MESSAGES = {
  fromRequired: "Please choose the first day to backfill.",
  toRequired: "Please choose the last day to backfill.",
  fromInvalid: "From must be a date such as 2026-10-01.",
  toInvalid: "To must be a date such as 2026-10-31.",
  order: "To must be on or after From.",
  future: "To cannot be in the future. Choose today or an earlier day.",
  fromFuture: "From cannot be in the future.",
  tooLong: `A backfill covers at most ${BACKFILL_MAX_DAYS} days. Choose a later From or an earlier To.`,
  timeZone: "The time zone is not one this server knows.",
  open: "A sync of this connector is already queued or running. Wait for it to finish, or cancel it, then start the backfill.",
  queued: "Backfill queued.",
  failed: "Failed to start the backfill",
} as const;
const M = BACKFILL_MESSAGES;


const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** A day (YYYY-MM-DD, a real calendar day) as its UTC midnight in ms, or null. */
function dayMs(value: string): number | null {
  const m = DAY.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? ms : null;
}

/** One end of a range as given: a whole day (in the range's time zone) or an exact instant (ISO date-time). */
type RangeEnd = { day: string; ms: number } | { at: Date };

function rangeEnd(value: string): RangeEnd | null {
  const ms = dayMs(value);
  if (ms !== null) return { day: value, ms };
  if (!DATE_TIME.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : { at };
}

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const partFormatters = new Map<string, Intl.DateTimeFormat>();
function parts(at: Date, timeZone: string): Record<string, number> {
  let f = partFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    partFormatters.set(timeZone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(at)) if (p.type !== "literal") out[p.type] = Number(p.value);
  return out;
}

/** How far the time zone's clock is ahead of UTC at this instant, in ms. */
function offsetMs(ms: number, timeZone: string): number {
  const p = parts(new Date(ms), timeZone);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000;
}

/** The instant a day (its UTC midnight in ms) starts in the time zone. */
function startOfDay(utcMidnight: number, timeZone: string): Date {
  const guess = utcMidnight - offsetMs(utcMidnight, timeZone);
  return new Date(utcMidnight - offsetMs(guess, timeZone));
}

/** Today in the time zone, as YYYY-MM-DD (what a date input's `max` takes). */
export function todayIn(timeZone: string, now = new Date()): string {
  const p = parts(now, timeZone);
  return `${String(p.year).padStart(4, "0")}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
}

export interface BackfillProblem {
  field: "from" | "to";
  message: string;
}

/**
 * A backfill's range [from, to) from what was given: a day is whole in `timeZone` (From from its start, To to its
 * end), a date-time is that instant. To may not be in the future (a range through today ends now); From is on or
 * before To; at most BACKFILL_MAX_DAYS days. Answers the range, or the problems at their fields.
 */
export function backfillRange(from: string, to: string, timeZone: string, now = new Date()): { range: { from: Date; to: Date } } | { problems: BackfillProblem[] } {
  const a = rangeEnd(from);
  const b = rangeEnd(to);
  const problems: BackfillProblem[] = [];
  if (!a) problems.push({ field: "from", message: M.fromInvalid });
  if (!b) problems.push({ field: "to", message: M.toInvalid });
  if (!a || !b) return { problems };
  const start = "day" in a ? startOfDay(a.ms, timeZone) : a.at;
  const end = "day" in b ? startOfDay(b.ms + DAY_MS, timeZone) : b.at;
  const future = "day" in b ? b.day > todayIn(timeZone, now) : end.getTime() > now.getTime() + CLOCK_SKEW_MS;
  const days = "day" in a && "day" in b ? (b.ms - a.ms) / DAY_MS + 1 : (end.getTime() - start.getTime()) / DAY_MS;
  if (future) problems.push({ field: "to", message: M.future });
  else if ("day" in a && "day" in b ? a.day > b.day : start.getTime() >= end.getTime()) problems.push({ field: "to", message: M.order });
  else if (days > BACKFILL_MAX_DAYS) problems.push({ field: "from", message: M.tooLong });
  else if (start.getTime() >= Math.min(end.getTime(), now.getTime())) problems.push({ field: "from", message: M.fromFuture });
  if (problems.length) return { problems };
  return { range: { from: start, to: new Date(Math.min(end.getTime(), now.getTime())) } };
}

const required = (message: string) =>
  z.preprocess((v) => (v === null ? undefined : typeof v === "string" ? v.trim() : v), z.string({ required_error: message, invalid_type_error: message }).min(1, message).max(40, message));

function addProblems(ctx: z.RefinementCtx, problems: BackfillProblem[]): void {
  for (const p of problems) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [p.field], message: p.message });
}

/**
 * The connector page's Backfill form: From and To, whole days in the reader's time zone (the page's `timeZone`). Its
 * value is what the form posts to the backend, with the time zone.
 */
export function backfillFormSchema(timeZone: string, now = () => new Date()) {
  return z
    .object({ from: required(M.fromRequired), to: required(M.toRequired) })
    .superRefine((v, ctx) => {
      const problems: BackfillProblem[] = [];
      if (dayMs(v.from) === null) problems.push({ field: "from", message: M.fromInvalid });
      if (dayMs(v.to) === null) problems.push({ field: "to", message: M.toInvalid });
      if (problems.length === 0) {
        const result = backfillRange(v.from, v.to, timeZone, now());
        if ("problems" in result) problems.push(...result.problems);
      }
      addProblems(ctx, problems);
    });
}

/** POST /connectors/{id}/backfill's body as the public API's document declares it (backfillBodySchema reads the range). */
export const backfillRequestSchema = z.object({
  from: required(M.fromRequired).describe("The first day (YYYY-MM-DD) or an ISO date-time."),
  to: required(M.toRequired).describe("The last day (YYYY-MM-DD) or an ISO date-time."),
  time_zone: z.string({ invalid_type_error: M.timeZone }).optional().describe("The IANA time zone whole days are read in (default UTC)."),
});

/**
 * POST /connectors/{id}/backfill: `from` and `to` as ISO dates (whole days in `time_zone`, default UTC) or date-times
 * (exact instants). Parses into the range [from, to) the sync reads.
 */
export function backfillBodySchema(now = () => new Date()) {
  return z
    .object({
      from: required(M.fromRequired),
      to: required(M.toRequired),
      time_zone: z.string({ invalid_type_error: M.timeZone }).max(64, M.timeZone).refine(isTimeZone, M.timeZone).optional(),
    })
    .transform((v, ctx) => {
      const result = backfillRange(v.from, v.to, v.time_zone ?? "UTC", now());
      if ("problems" in result) {
        addProblems(ctx, result.problems);
        return z.NEVER;
      }
      return result.range;
    });
}
export type BackfillBody = { from: string; to: string; time_zone?: string };
