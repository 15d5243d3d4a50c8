import { z } from "zod";
import { CronExpressionParser } from "cron-parser";
import { storable } from "./text.js";
import { currentTimeZones } from "./time-zones.js";
import { INTERVAL_UNITS, type Schedule } from "./schedule-words.js";

export { describeSchedule, notScheduledReason, INTERVAL_UNITS, SCHEDULE_CHOICES, type Schedule, type ScheduleChoice } from "./schedule-words.js";

/**
 * The optional schedule of a connector or transform (issue 27): every N minutes or hours, daily at a time of day in
 * a time zone, a cron expression in a time zone, or manual only. PUT /connectors/:id/schedule and
 * PUT /transforms/:id/schedule take one (or `{ kind: "frequency" }`, back to the Daily/Hourly slot); the schedule
 * form parses with the same schema. Cron expressions are parsed by cron-parser, never by hand.
 */

/** The fewest minutes between two scheduled runs. */
export const MIN_INTERVAL_MINUTES = 15;
export const MAX_INTERVAL = { minutes: 1440, hours: 168 } as const;

export const SCHEDULE_MESSAGES = {
  kindRequired: "Choose how it runs.",
  notAnObject: "Send the schedule as a JSON object with its kind.",
  everyRequired: "Enter how often it runs.",
  everyWhole: "Enter a whole number.",
  tooOften: `Run at most every ${MIN_INTERVAL_MINUTES} minutes.`,
  tooManyMinutes: `Enter at most ${MAX_INTERVAL.minutes.toLocaleString("en-US")} minutes; for longer, count in hours.`,
  tooManyHours: `Enter at most ${MAX_INTERVAL.hours} hours (a week).`,
  hoursAtLeastOne: "Enter at least 1 hour.",
  unitRequired: "Choose minutes or hours.",
  timeRequired: "Enter a time of day.",
  timeInvalid: "Enter a time of day as HH:MM, for example 09:30.",
  timeZoneRequired: "Choose a time zone.",
  timeZoneInvalid: "Choose a time zone from the list.",
  expressionRequired: "Enter a cron expression.",
  expressionTooLong: "A cron expression is at most 100 characters.",
  cronInvalid: (why: string) => `This is not a valid cron expression: ${why}`,
  notFoundConnector: "Connector not found",
  notFoundTransform: "Transform not found",
  saveFailed: "Failed to save the schedule.",
  previewFailed: "Failed to work out the next run.",
} as const;
const M = SCHEDULE_MESSAGES;

/** Every IANA time zone this runtime knows under its current name (contract/time-zones.ts), and UTC. */
export const TIME_ZONES: readonly string[] = currentTimeZones();
/** Those and the names Intl itself lists (its older CLDR names among them): a schedule saved under one stays valid. */
const ZONES = new Set([...TIME_ZONES, ...Intl.supportedValuesOf("timeZone")]);

/**
 * Whether a zone is one of TIME_ZONES, or another IANA name of one (browsers say "Asia/Kolkata" where this runtime's
 * list has "Asia/Calcutta"); offsets and abbreviations ("+05:00", "EST") are not.
 */
export function isScheduleTimeZone(zone: string): boolean {
  if (ZONES.has(zone)) return true;
  if (!/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(zone)) return false;
  try {
    return ZONES.has(new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone);
  } catch {
    return false;
  }
}

/** The smallest gap, in minutes, between two runs of a parsed cron expression (conservative across midnight). */
function smallestGapMinutes(fields: { second: { values: readonly unknown[] }; minute: { values: readonly unknown[] }; hour: { values: readonly unknown[] } }): number {
  if (fields.second.values.length > 1) return 0;
  const minutes = (fields.minute.values as number[]).slice().sort((a, b) => a - b);
  const hours = new Set(fields.hour.values as number[]);
  let gap = Infinity;
  for (let i = 1; i < minutes.length; i++) gap = Math.min(gap, minutes[i]! - minutes[i - 1]!);
  // The last minute of an hour to the first of the next, when two hours follow each other (23 then 0 counts too).
  const consecutive = [...hours].some((h) => hours.has((h + 1) % 24)) && hours.size > 1;
  if (consecutive) gap = Math.min(gap, 60 - minutes[minutes.length - 1]! + minutes[0]!);
  return gap;
}

/** The five fields of a cron expression, with the values each takes. */
const CRON_FIELDS = [
  { name: "minute", from: 0, to: 59 },
  { name: "hour", from: 0, to: 23 },
  { name: "day of month", from: 1, to: 31 },
  { name: "month", from: 1, to: 12 },
  { name: "day of week", from: 0, to: 7 },
] as const;

/**
 * Which field cron-parser refused, said plainly: the field is the one whose replacement by "*" makes the expression
 * parse (the library decides, never a hand-written parser); its words say what it takes.
 */
function whichFieldIsWrong(fields: string[]): string {
  const parses = (candidate: string[]) => {
    try {
      CronExpressionParser.parse(candidate.join(" "), { tz: "UTC" }).next();
      return true;
    } catch {
      return false;
    }
  };
  const index = fields.length === 5 ? fields.findIndex((_, i) => parses(fields.map((f, j) => (j === i ? "*" : f)))) : -1;
  if (index < 0) return "check each of its five fields (minute, hour, day of month, month, day of week).";
  const field = CRON_FIELDS[index]!;
  const value = fields[index]!;
  const range = `from ${field.from} to ${field.to}`;
  if (/^\d+$/.test(value)) {
    const n = Number(value);
    return n < field.from || n > field.to ? `the ${field.name} is ${value}; it goes ${range}.` : `its ${field.name} (${value}) never comes with its other fields (as February 30).`;
  }
  return `its ${field.name} ("${value}") is not understood: use a number ${range}, a range like 1-5, a list like 1,15, a step like */15 or *.`;
}

/** Why a cron expression cannot be a schedule (a plain sentence), or null when it can. */
export function cronProblem(expression: string): string | null {
  const text = expression.trim();
  const fields = text.split(/\s+/);
  if (!text.startsWith("@") && fields.length !== 5)
    return M.cronInvalid(`it needs five fields (minute, hour, day of month, month, day of week), and it has ${fields.length}.`);
  let parsed;
  try {
    parsed = CronExpressionParser.parse(text, { tz: "UTC" });
    parsed.next();
  } catch {
    return M.cronInvalid(whichFieldIsWrong(fields));
  }
  return smallestGapMinutes(parsed.fields) < MIN_INTERVAL_MINUTES ? M.tooOften : null;
}

const blankAsMissing = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);
const text = (required: string) => z.preprocess(blankAsMissing, z.string({ required_error: required, invalid_type_error: required }).trim());

const timeZoneSchema = text(M.timeZoneRequired).refine(isScheduleTimeZone, M.timeZoneInvalid);

const intervalSchema = z.object({
  kind: z.literal("interval"),
  every: z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : blankAsMissing(v)),
    z.number({ required_error: M.everyRequired, invalid_type_error: M.everyWhole }).int(M.everyWhole),
  ),
  unit: z.preprocess(blankAsMissing, z.enum(INTERVAL_UNITS, { errorMap: () => ({ message: M.unitRequired }) })),
});

/** An interval's bounds, which depend on its unit (a discriminated union's members must be plain objects: checked after). */
function intervalBounds(s: { kind: string; every?: number; unit?: string }, ctx: z.RefinementCtx): void {
  if (s.kind !== "interval" || s.every === undefined) return;
  const problem =
    s.unit === "minutes"
      ? s.every < MIN_INTERVAL_MINUTES
        ? M.tooOften
        : s.every > MAX_INTERVAL.minutes
          ? M.tooManyMinutes
          : null
      : s.every < 1
        ? M.hoursAtLeastOne
        : s.every > MAX_INTERVAL.hours
          ? M.tooManyHours
          : null;
  if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem, path: ["every"] });
}

const dailySchema = z.object({
  kind: z.literal("daily"),
  time: text(M.timeRequired).pipe(z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, M.timeInvalid)),
  time_zone: timeZoneSchema,
});

const cronSchema = z.object({
  kind: z.literal("cron"),
  expression: storable(text(M.expressionRequired).pipe(z.string().max(100, M.expressionTooLong)), "A cron expression").superRefine((expression, ctx) => {
    const problem = cronProblem(expression);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  }),
  time_zone: timeZoneSchema,
});

const manualSchema = z.object({ kind: z.literal("manual") });
const frequencySchema = z.object({ kind: z.literal("frequency") });

const kindError: z.ZodErrorMap = (issue, ctx) =>
  issue.code === z.ZodIssueCode.invalid_union_discriminator
    ? { message: M.kindRequired }
    : issue.code === z.ZodIssueCode.invalid_type && issue.path.length === 0
      ? { message: M.notAnObject }
      : { message: ctx.defaultError };

/** A schedule as stored on a connector or transform (unknown keys, the backend's own `since` among them, dropped). */
export const scheduleSchema = z
  .discriminatedUnion("kind", [intervalSchema, dailySchema, cronSchema, manualSchema], { errorMap: kindError })
  .superRefine(intervalBounds) as z.ZodType<Schedule, z.ZodTypeDef, unknown>;

/** PUT /connectors/:id/schedule, PUT /transforms/:id/schedule and the schedule form: a schedule, or back to the frequency. */
export const scheduleBodySchema = z
  .discriminatedUnion("kind", [intervalSchema, dailySchema, cronSchema, manualSchema, frequencySchema], { errorMap: kindError })
  .superRefine(intervalBounds);
export type ScheduleBody = z.infer<typeof scheduleBodySchema>;

/** A schedule body's schedule: null for `{ kind: "frequency" }`. */
export const scheduleOf = (body: ScheduleBody): Schedule | null => (body.kind === "frequency" ? null : (body as Schedule));

/** What the schedule preview answers: the next run the body would give (null: never, manual only). */
export const schedulePreviewSchema = z.object({ next_run_at: z.string().nullable() });
export type SchedulePreview = z.infer<typeof schedulePreviewSchema>;
