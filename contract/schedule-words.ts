import { z } from "zod";

/**
 * A connector's or transform's optional schedule as people read it, with no parser behind it: the pages that only
 * show a schedule (lists, details) import this and stay free of cron-parser, which contract/schedules.ts (the
 * schema that checks a schedule) brings along.
 */

/** Interval units a schedule can count in. */
export const INTERVAL_UNITS = ["minutes", "hours"] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

/** A stored schedule (contract/schedules.ts checks one); null on a record: its Daily/Hourly frequency's slot. */
export type Schedule =
  | { kind: "interval"; every: number; unit: IntervalUnit }
  | { kind: "daily"; time: string; time_zone: string }
  | { kind: "cron"; expression: string; time_zone: string }
  | { kind: "manual" };

/** A record's schedule in its JSON (the backend has checked it with contract/schedules.ts `scheduleSchema`). */
export const recordScheduleSchema = z.custom<Schedule>((v) => typeof v === "object" && v !== null && "kind" in v).nullable();

/** The choices of a schedule form's kind: "frequency" goes back to the Daily/Hourly slot (no schedule). */
export const SCHEDULE_CHOICES = [
  { value: "frequency", label: "Its frequency", hint: "Daily or hourly, as set on its form." },
  { value: "interval", label: "Every few minutes or hours", hint: "At least 15 minutes apart." },
  { value: "daily", label: "Every day at a time", hint: "In the time zone you choose." },
  { value: "cron", label: "A cron expression", hint: "Five fields: minute, hour, day of month, month, day of week." },
  { value: "manual", label: "Manual only", hint: "Never on a schedule: only when you press Sync now or Run now." },
] as const;
export type ScheduleChoice = (typeof SCHEDULE_CHOICES)[number]["value"];

const FREQUENCY_WORDS: Record<string, string> = { daily: "Daily", hourly: "Hourly" };

/** "Every 30 minutes", "Daily at 09:00 (Europe/Paris)", "Cron 0 9 * * 1-5 (America/New_York)", "Manual only", "Daily". */
export function describeSchedule(schedule: Schedule | null | undefined, frequency: string | undefined): string {
  if (!schedule) return FREQUENCY_WORDS[frequency ?? ""] ?? frequency ?? "Daily";
  switch (schedule.kind) {
    case "interval": {
      const unit = schedule.unit === "hours" ? "hour" : "minute";
      return schedule.every === 1 ? `Every ${unit}` : `Every ${schedule.every} ${unit}s`;
    }
    case "daily":
      return `Daily at ${schedule.time} (${schedule.time_zone})`;
    case "cron":
      return `Cron ${schedule.expression} (${schedule.time_zone})`;
    case "manual":
      return "Manual only";
  }
}

/** What a list shows instead of a next run: "Manual only", else "Not scheduled" (paused: its status says so). */
export function notScheduledReason(schedule: Schedule | null | undefined): string {
  return schedule?.kind === "manual" ? "Manual only" : "Not scheduled";
}
