import { CronExpressionParser } from "cron-parser";
import { hashString } from "../integrations/sources/index.js";
import { scheduleSchema, type Schedule } from "../../contract/schedules.js";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * When a connector's or transform's runs are due. With no schedule, its frequency's slot: hourly at a fixed second
 * of the hour, daily at a fixed second of the day. With one (contract/schedules.ts): every N minutes or hours, daily
 * at a time of day in a time zone, a cron expression in a time zone (cron-parser walks the zone's calendar, so a
 * run keeps its wall-clock time across daylight-saving changes), or manual only (never due). Fixed periods are
 * anchored at an offset derived from the id, so that schedules spread over the period.
 */

/** The latest moment of a fixed period at or before `now`, offset by the id's hash. */
function latestOfPeriod(id: string, period: number, now: Date): Date {
  const offset = (hashString(id) % (period / 1000)) * 1000;
  return new Date(Math.floor((now.getTime() - offset) / period) * period + offset);
}

/** The latest scheduled moment at or before `now` of a Daily/Hourly frequency. */
export function latestSlot(id: string, frequency: string, now: Date): Date {
  return latestOfPeriod(id, frequency === "hourly" ? HOUR_MS : DAY_MS, now);
}

/** The next scheduled moment after `now` of a Daily/Hourly frequency. */
export function nextSlot(id: string, frequency: string, now: Date): Date {
  const period = frequency === "hourly" ? HOUR_MS : DAY_MS;
  return new Date(latestSlot(id, frequency, now).getTime() + period);
}

/** The cron expression of a daily-at or cron schedule, in its zone. */
function cronOf(schedule: Extract<Schedule, { kind: "daily" | "cron" }>): string {
  if (schedule.kind === "cron") return schedule.expression;
  const [hour, minute] = schedule.time.split(":");
  return `${Number(minute)} ${Number(hour)} * * *`;
}

/** The fixed period of an interval schedule, in milliseconds. */
const periodOf = (schedule: Extract<Schedule, { kind: "interval" }>) => schedule.every * (schedule.unit === "hours" ? HOUR_MS : MINUTE_MS);

/** The latest moment at or before `now` at which the key's runs were due; null when it never runs on its own (manual only). */
export function latestDue(key: string, frequency: string, schedule: Schedule | null, now: Date): Date | null {
  if (!schedule) return latestSlot(key, frequency, now);
  switch (schedule.kind) {
    case "manual":
      return null;
    case "interval":
      return latestOfPeriod(key, periodOf(schedule), now);
    case "daily":
    case "cron": {
      // prev() answers the latest occurrence strictly before its current date: one millisecond on includes `now`.
      const expression = CronExpressionParser.parse(cronOf(schedule), { tz: schedule.time_zone, currentDate: new Date(now.getTime() + 1) });
      return expression.hasPrev() ? expression.prev().toDate() : null;
    }
  }
}

/** The next moment after `now` at which the key's runs are due (what the pages show as the next run); null: manual only. */
export function nextRun(key: string, frequency: string, schedule: Schedule | null, now: Date): Date | null {
  if (!schedule) return nextSlot(key, frequency, now);
  switch (schedule.kind) {
    case "manual":
      return null;
    case "interval":
      return new Date(latestOfPeriod(key, periodOf(schedule), now).getTime() + periodOf(schedule));
    case "daily":
    case "cron": {
      const expression = CronExpressionParser.parse(cronOf(schedule), { tz: schedule.time_zone, currentDate: now });
      return expression.hasNext() ? expression.next().toDate() : null;
    }
  }
}

/** A schedule as the database holds it: the schedule, and since when it applies (slots before it are not run). */
export interface StoredSchedule {
  schedule: Schedule;
  since: Date | null;
}

/** The schedule column's value for a schedule set at `at`. */
export function toStored(schedule: Schedule | null, at: Date): Record<string, unknown> | null {
  return schedule ? { ...schedule, since: at.toISOString() } : null;
}

/** The schedule column read back: null (no schedule, or one this code can no longer read, which falls back to the frequency). */
export function readStored(raw: unknown): StoredSchedule | null {
  if (!raw || typeof raw !== "object") return null;
  const parsed = scheduleSchema.safeParse(raw);
  if (!parsed.success) return null;
  const since = (raw as { since?: unknown }).since;
  const at = typeof since === "string" ? new Date(since) : null;
  return { schedule: parsed.data, since: at && !Number.isNaN(at.getTime()) ? at : null };
}

/** A record's next run as its JSON carries it: null when paused or manual only. */
export function nextRunAt(key: string, frequency: string, schedule: Schedule | null, paused: boolean, now = new Date()): string | null {
  if (paused) return null;
  return nextRun(key, frequency, schedule, now)?.toISOString() ?? null;
}
