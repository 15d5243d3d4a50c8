import cronstrue from "cronstrue";
import { describeSchedule, type Schedule } from "./schedule-words.js";
import { currentZoneName } from "./time-zones.js";

/**
 * A schedule in words with its cron expression said in words too ("At 09:00, Monday through Friday"), by cronstrue.
 * Kept apart from schedule-words.ts so that the list pages, which only need "Manual only" or "Not scheduled", do not
 * load cronstrue.
 */

/** A cron expression in words; one cronstrue cannot read stays as it is, said to be a cron expression. */
export function cronInWords(expression: string): string {
  try {
    return cronstrue.toString(expression, { use24HourTimeFormat: true, throwExceptionOnParseError: true, verbose: false });
  } catch {
    return `Cron ${expression}`;
  }
}

/** "Every 30 minutes", "Daily at 09:00 (Europe/Paris)", "At 09:00, Monday through Friday (America/New_York)", … */
export function scheduleInWords(schedule: Schedule | null | undefined, frequency: string | undefined): string {
  if (schedule?.kind === "cron") return `${cronInWords(schedule.expression)} (${currentZoneName(schedule.time_zone)})`;
  if (schedule?.kind === "daily") return describeSchedule({ ...schedule, time_zone: currentZoneName(schedule.time_zone) }, frequency);
  return describeSchedule(schedule, frequency);
}
