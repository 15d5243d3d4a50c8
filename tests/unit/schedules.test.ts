import { describe, expect, it } from "vitest";
import { CronExpressionParser } from "cron-parser";
import { latestDue, latestSlot, nextRun, nextSlot, readStored, toStored } from "../../backend/runs/schedule.js";
import { cronProblem, describeSchedule, scheduleBodySchema, scheduleSchema, SCHEDULE_MESSAGES as M, type Schedule } from "../../contract/schedules.js";

const ID = "7f3e2a10-4b5c-4d6e-8f90-a1b2c3d4e5f6";
const at = (iso: string) => new Date(iso);
const iso = (d: Date | null) => d?.toISOString() ?? null;
const cron = (expression: string, time_zone: string): Schedule => ({ kind: "cron", expression, time_zone });
const daily = (time: string, time_zone: string): Schedule => ({ kind: "daily", time, time_zone });

/** The first error zod gives for a body, with its field. */
function firstError(body: unknown): { field: string; message: string } | null {
  const parsed = scheduleBodySchema.safeParse(body);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return { field: issue.path.join("."), message: issue.message };
}

describe("latestDue and nextRun without a schedule: the frequency's slot, as before", () => {
  it("are latestSlot and the slot after it", () => {
    const now = at("2026-05-04T10:17:00Z");
    for (const frequency of ["hourly", "daily"]) {
      expect(iso(latestDue(ID, frequency, null, now))).toBe(iso(latestSlot(ID, frequency, now)));
      expect(iso(nextRun(ID, frequency, null, now))).toBe(iso(nextSlot(ID, frequency, now)));
    }
  });
});

describe("every N minutes or hours", () => {
  const every30: Schedule = { kind: "interval", every: 30, unit: "minutes" };
  const every6h: Schedule = { kind: "interval", every: 6, unit: "hours" };

  it("is due every period, at an offset of the id's own, and the next run is one period after the latest", () => {
    const now = at("2026-05-04T10:17:23Z");
    const latest = latestDue(ID, "daily", every30, now)!;
    const next = nextRun(ID, "daily", every30, now)!;
    expect(latest.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(now.getTime() - latest.getTime()).toBeLessThan(30 * 60_000);
    expect(next.getTime() - latest.getTime()).toBe(30 * 60_000);
    // Half an hour on, the latest due moment is the next one.
    expect(iso(latestDue(ID, "daily", every30, new Date(now.getTime() + 30 * 60_000)))).toBe(iso(next));
    expect(nextRun(ID, "daily", every6h, now)!.getTime() - latestDue(ID, "daily", every6h, now)!.getTime()).toBe(6 * 3_600_000);
  });

  it("spreads keys over the period", () => {
    const now = at("2026-05-04T10:17:23Z");
    const other = "0b1c9a52-1d7c-4e0a-9d6c-0b7f4a8e1c11";
    expect(iso(latestDue(ID, "daily", every6h, now))).not.toBe(iso(latestDue(other, "daily", every6h, now)));
  });

  it("runs at most every 15 minutes, and counts whole numbers within bounds", () => {
    expect(firstError({ kind: "interval", every: 14, unit: "minutes" })).toEqual({ field: "every", message: "Run at most every 15 minutes." });
    expect(firstError({ kind: "interval", every: "15", unit: "minutes" })).toBeNull();
    expect(firstError({ kind: "interval", every: 1, unit: "hours" })).toBeNull();
    expect(firstError({ kind: "interval", every: 0, unit: "hours" })).toEqual({ field: "every", message: M.hoursAtLeastOne });
    expect(firstError({ kind: "interval", every: 1441, unit: "minutes" })).toEqual({ field: "every", message: M.tooManyMinutes });
    expect(firstError({ kind: "interval", every: 169, unit: "hours" })).toEqual({ field: "every", message: M.tooManyHours });
    expect(firstError({ kind: "interval", every: "1.5", unit: "hours" })).toEqual({ field: "every", message: M.everyWhole });
    expect(firstError({ kind: "interval", unit: "hours" })).toEqual({ field: "every", message: M.everyRequired });
    expect(firstError({ kind: "interval", every: 20, unit: "days" })).toEqual({ field: "unit", message: M.unitRequired });
  });
});

describe("daily at a time of day, in its zone", () => {
  it("keeps its wall-clock time across the March change in Europe/Berlin", () => {
    const paris = daily("09:00", "Europe/Berlin");
    // 28 March 2026 is CET (UTC+1); 29 March is CEST (UTC+2).
    expect(iso(nextRun(ID, "daily", paris, at("2026-03-28T12:00:00Z")))).toBe("2026-03-29T07:00:00.000Z");
    expect(iso(latestDue(ID, "daily", paris, at("2026-03-29T12:00:00Z")))).toBe("2026-03-29T07:00:00.000Z");
    expect(iso(latestDue(ID, "daily", paris, at("2026-03-29T06:59:00Z")))).toBe("2026-03-28T08:00:00.000Z");
  });

  it("is due at the very moment, not only after it", () => {
    expect(iso(latestDue(ID, "daily", daily("09:00", "UTC"), at("2026-05-04T09:00:00Z")))).toBe("2026-05-04T09:00:00.000Z");
    expect(iso(nextRun(ID, "daily", daily("09:00", "UTC"), at("2026-05-04T09:00:00Z")))).toBe("2026-05-05T09:00:00.000Z");
  });

  it("runs a time the spring change skips once, an hour later, and a time the autumn change repeats once", () => {
    // 8 March 2026 in New York: 02:30 does not exist (02:00 EST becomes 03:00 EDT).
    const skipped = daily("02:30", "America/New_York");
    expect(iso(nextRun(ID, "daily", skipped, at("2026-03-07T12:00:00Z")))).toBe("2026-03-08T07:30:00.000Z");
    expect(iso(nextRun(ID, "daily", skipped, at("2026-03-08T12:00:00Z")))).toBe("2026-03-09T06:30:00.000Z");
    // 1 November 2026: 01:30 happens twice; the run is at the first, then the next day's.
    const repeated = daily("01:30", "America/New_York");
    expect(iso(nextRun(ID, "daily", repeated, at("2026-10-31T12:00:00Z")))).toBe("2026-11-01T05:30:00.000Z");
    expect(iso(nextRun(ID, "daily", repeated, at("2026-11-01T05:30:00Z")))).toBe("2026-11-02T06:30:00.000Z");
  });

  it("asks for a time as HH:MM and a time zone from the list", () => {
    expect(firstError({ kind: "daily", time: "9am", time_zone: "UTC" })).toEqual({ field: "time", message: M.timeInvalid });
    expect(firstError({ kind: "daily", time: "24:00", time_zone: "UTC" })).toEqual({ field: "time", message: M.timeInvalid });
    expect(firstError({ kind: "daily", time: "", time_zone: "UTC" })).toEqual({ field: "time", message: M.timeRequired });
    expect(firstError({ kind: "daily", time: "09:00" })).toEqual({ field: "time_zone", message: "Choose a time zone." });
    expect(firstError({ kind: "daily", time: "09:00", time_zone: "Mars/Olympus" })).toEqual({ field: "time_zone", message: M.timeZoneInvalid });
    expect(firstError({ kind: "daily", time: "09:00", time_zone: "UTC" })).toBeNull();
    expect(firstError({ kind: "daily", time: "23:59", time_zone: "Asia/Kolkata" })).toBeNull();
    expect(firstError({ kind: "daily", time: "09:00", time_zone: "+05:00" })?.message).toBe(M.timeZoneInvalid);
    expect(firstError({ kind: "daily", time: "09:00", time_zone: "EST" })?.message).toBe(M.timeZoneInvalid);
  });
});

describe("a cron expression in a time zone", () => {
  const weekdays = cron("0 9 * * 1-5", "America/New_York");

  it("runs at 09:00 New York time on both sides of the March change", () => {
    // Friday 6 March (EST, UTC-5), then Monday 9 March (EDT, UTC-4).
    expect(iso(nextRun(ID, "daily", weekdays, at("2026-03-06T12:00:00Z")))).toBe("2026-03-06T14:00:00.000Z");
    expect(iso(nextRun(ID, "daily", weekdays, at("2026-03-06T15:00:00Z")))).toBe("2026-03-09T13:00:00.000Z");
    expect(iso(latestDue(ID, "daily", weekdays, at("2026-03-09T12:59:00Z")))).toBe("2026-03-06T14:00:00.000Z");
    expect(iso(latestDue(ID, "daily", weekdays, at("2026-03-09T13:00:00Z")))).toBe("2026-03-09T13:00:00.000Z");
  });

  it("runs at 09:00 New York time on both sides of the November change", () => {
    // Friday 30 October (EDT), then Monday 2 November (EST).
    expect(iso(nextRun(ID, "daily", weekdays, at("2026-10-30T12:00:00Z")))).toBe("2026-10-30T13:00:00.000Z");
    expect(iso(nextRun(ID, "daily", weekdays, at("2026-10-30T14:00:00Z")))).toBe("2026-11-02T14:00:00.000Z");
    expect(iso(latestDue(ID, "daily", weekdays, at("2026-11-02T13:59:00Z")))).toBe("2026-10-30T13:00:00.000Z");
  });

  it("runs at 09:00 Berlin time on both sides of the March and October changes", () => {
    const berlin = cron("0 9 * * *", "Europe/Berlin");
    expect(iso(nextRun(ID, "daily", berlin, at("2026-03-28T12:00:00Z")))).toBe("2026-03-29T07:00:00.000Z");
    expect(iso(latestDue(ID, "daily", berlin, at("2026-03-29T06:00:00Z")))).toBe("2026-03-28T08:00:00.000Z");
    // 25 October 2026: CEST (UTC+2) becomes CET (UTC+1).
    expect(iso(nextRun(ID, "daily", berlin, at("2026-10-24T12:00:00Z")))).toBe("2026-10-25T08:00:00.000Z");
    expect(iso(latestDue(ID, "daily", berlin, at("2026-10-25T07:30:00Z")))).toBe("2026-10-24T07:00:00.000Z");
  });

  it("runs an every-hour expression once in the hour the autumn change repeats, and skips none in spring", () => {
    const hourly = cron("15 * * * *", "Europe/Berlin");
    // Walk the runs through 25 October 2026 (the 02:00-03:00 hour happens twice) and 29 March (it never happens).
    const walk = (from: string, to: string) => {
      const runs: string[] = [];
      let now = at(from);
      while (now.getTime() < at(to).getTime()) {
        const next = nextRun(ID, "daily", hourly, now)!;
        runs.push(next.toISOString());
        now = next;
      }
      return runs;
    };
    const autumn = walk("2026-10-24T22:00:00Z", "2026-10-25T04:00:00Z");
    expect(new Set(autumn).size).toBe(autumn.length);
    for (let i = 1; i < autumn.length; i++) expect(at(autumn[i]!).getTime() - at(autumn[i - 1]!).getTime()).toBeGreaterThanOrEqual(3_600_000);
    const spring = walk("2026-03-28T22:00:00Z", "2026-03-29T04:00:00Z");
    for (let i = 1; i < spring.length; i++) expect(at(spring[i]!).getTime() - at(spring[i - 1]!).getTime()).toBe(3_600_000);
  });

  it("agrees with cron-parser itself", () => {
    const now = at("2026-11-26T05:00:00Z");
    const expected = CronExpressionParser.parse("30 7 * * 1,3", { tz: "Asia/Tokyo", currentDate: now }).next().toDate();
    expect(iso(nextRun(ID, "daily", cron("30 7 * * 1,3", "Asia/Tokyo"), now))).toBe(iso(expected));
  });

  it("refuses what cron-parser cannot parse, a wrong number of fields, and runs more often than every 15 minutes", () => {
    expect(cronProblem("61 * * * *")).toMatch(/^This is not a valid cron expression: .*61.*\.$/);
    expect(cronProblem("every day")).toMatch(/^This is not a valid cron expression: it needs five fields/);
    expect(cronProblem("0 9 * *")).toMatch(/it needs five fields .* and it has 4\.$/);
    expect(cronProblem("0 9 30 2 *")).toMatch(/^This is not a valid cron expression: /);
    expect(cronProblem("*/5 * * * *")).toBe("Run at most every 15 minutes.");
    expect(cronProblem("* 9 * * *")).toBe("Run at most every 15 minutes.");
    expect(cronProblem("0,10 9 * * *")).toBe("Run at most every 15 minutes.");
    expect(cronProblem("55 8,9 * * *")).toBeNull();
    expect(cronProblem("55,5 8,9 * * *")).toBe("Run at most every 15 minutes.");
    expect(cronProblem("@minutely")).toBe("Run at most every 15 minutes.");
    expect(cronProblem("*/15 * * * *")).toBeNull();
    expect(cronProblem("@daily")).toBeNull();
    expect(cronProblem("0 9 * * 1-5")).toBeNull();
    expect(firstError({ kind: "cron", expression: "61 * * * *", time_zone: "UTC" })?.field).toBe("expression");
    // Issue 35, defect 8: the field cron-parser refused, in plain words, never the library's own.
    expect(cronProblem("0 25 * * *")).toBe("This is not a valid cron expression: the hour is 25; it goes from 0 to 23.");
    expect(cronProblem("61 * * * *")).toBe("This is not a valid cron expression: the minute is 61; it goes from 0 to 59.");
    expect(cronProblem("0 9 * 13 *")).toBe("This is not a valid cron expression: the month is 13; it goes from 1 to 12.");
    expect(cronProblem("0 9 30 2 *")).toBe("This is not a valid cron expression: its day of month (30) never comes with its other fields (as February 30).");
    expect(cronProblem("0 9 * * mon-xyz")).toMatch(/^This is not a valid cron expression: its day of week \("mon-xyz"\) is not understood: use a number from 0 to 7/);
    for (const bad of ["0 25 * * *", "a * * * *", "*/0 * * * *", "5-2 * * * *"]) expect(cronProblem(bad)).not.toMatch(/Constraint|Invalid|got value/);
    expect(firstError({ kind: "cron", expression: "", time_zone: "UTC" })).toEqual({ field: "expression", message: M.expressionRequired });
    expect(firstError({ kind: "cron", expression: "0 9 * * *", time_zone: "" })).toEqual({ field: "time_zone", message: "Choose a time zone." });
  });
});

describe("manual only", () => {
  it("is never due and has no next run", () => {
    const manual: Schedule = { kind: "manual" };
    expect(latestDue(ID, "hourly", manual, at("2026-05-04T10:00:00Z"))).toBeNull();
    expect(nextRun(ID, "hourly", manual, at("2026-05-04T10:00:00Z"))).toBeNull();
  });
});

describe("the schedule's schema and words", () => {
  it("asks for a kind, and takes the frequency back", () => {
    expect(firstError({})).toEqual({ field: "kind", message: "Choose how it runs." });
    expect(firstError({ kind: "weekly" })).toEqual({ field: "kind", message: "Choose how it runs." });
    expect(scheduleBodySchema.parse({ kind: "frequency" })).toEqual({ kind: "frequency" });
    expect(scheduleSchema.safeParse({ kind: "frequency" }).success).toBe(false);
  });

  it("reads only the chosen kind's fields (a form without JavaScript sends them all)", () => {
    const body = { kind: "manual", every: "5", unit: "minutes", time: "nonsense", expression: "x", time_zone: "Nowhere" };
    expect(scheduleBodySchema.parse(body)).toEqual({ kind: "manual" });
    expect(scheduleBodySchema.parse({ ...body, kind: "daily", time: "07:45", time_zone: "UTC" })).toEqual({ kind: "daily", time: "07:45", time_zone: "UTC" });
  });

  it("is stored with the moment it was set, and read back without it", () => {
    const schedule = cron("0 9 * * 1-5", "America/New_York");
    const stored = toStored(schedule, at("2026-05-04T10:00:00Z"));
    expect(stored).toEqual({ ...schedule, since: "2026-05-04T10:00:00.000Z" });
    expect(readStored(stored)).toEqual({ schedule, since: at("2026-05-04T10:00:00Z") });
    expect(toStored(null, new Date())).toBeNull();
    expect(readStored(null)).toBeNull();
    expect(readStored({ kind: "cron", expression: "nonsense", time_zone: "UTC" })).toBeNull();
  });

  it("says a schedule in words", () => {
    expect(describeSchedule({ kind: "interval", every: 30, unit: "minutes" }, "daily")).toBe("Every 30 minutes");
    expect(describeSchedule({ kind: "interval", every: 1, unit: "hours" }, "daily")).toBe("Every hour");
    expect(describeSchedule(daily("09:00", "Europe/Paris"), "daily")).toBe("Daily at 09:00 (Europe/Paris)");
    expect(describeSchedule(cron("0 9 * * 1-5", "America/New_York"), "daily")).toBe("Cron 0 9 * * 1-5 (America/New_York)");
    expect(describeSchedule({ kind: "manual" }, "hourly")).toBe("Manual only");
    expect(describeSchedule(null, "hourly")).toBe("Hourly");
    expect(describeSchedule(null, "daily")).toBe("Daily");
  });
});
