import { hashString } from "../integrations/sources/index.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The latest scheduled moment at or before `now` of a connector or transform: hourly at a fixed second of the hour,
 * daily at a fixed second of the day, both derived from its id so that schedules spread over the hour/day.
 */
export function latestSlot(id: string, frequency: string, now: Date): Date {
  const period = frequency === "hourly" ? HOUR_MS : DAY_MS;
  const offset = (hashString(id) % (period / 1000)) * 1000;
  return new Date(Math.floor((now.getTime() - offset) / period) * period + offset);
}

/** The next scheduled moment after `now` (what the lists show as Next sync). */
export function nextSlot(id: string, frequency: string, now: Date): Date {
  const period = frequency === "hourly" ? HOUR_MS : DAY_MS;
  return new Date(latestSlot(id, frequency, now).getTime() + period);
}
