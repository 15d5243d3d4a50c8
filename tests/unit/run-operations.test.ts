import { describe, expect, it } from "vitest";
import { BACKFILL_MESSAGES as M, backfillBodySchema, backfillFormSchema, backfillRange, cancelMessage, todayIn } from "../../contract/run-operations.js";

/** The backfill range rules (contract/run-operations.ts): whole days in a time zone, or exact instants. */
const now = new Date("2026-11-26T05:00:00Z");

describe("backfillRange", () => {
  it("makes whole days in the time zone, To included, across a change of daylight saving time", () => {
    expect(backfillRange("2026-10-01", "2026-10-30", "UTC", now)).toEqual({ range: { from: new Date("2026-10-01T00:00:00Z"), to: new Date("2026-10-31T00:00:00Z") } });
    // Paris: UTC+2 until Oct 25, UTC+1 after.
    expect(backfillRange("2026-10-24", "2026-10-26", "Europe/Paris", now)).toEqual({ range: { from: new Date("2026-10-23T22:00:00Z"), to: new Date("2026-10-26T23:00:00Z") } });
    expect(backfillRange("2026-03-08", "2026-03-08", "America/New_York", now)).toEqual({ range: { from: new Date("2026-03-08T05:00:00Z"), to: new Date("2026-03-09T04:00:00Z") } });
    expect(backfillRange("2026-10-01T12:30:00+02:00", "2026-10-02T00:00:00Z", "Asia/Tokyo", now)).toEqual({ range: { from: new Date("2026-10-01T10:30:00Z"), to: new Date("2026-10-02T00:00:00Z") } });
  });

  it("ends a range through today now, and refuses a To in the future in the reader's own time zone", () => {
    expect(todayIn("UTC", now)).toBe("2026-11-26");
    expect(todayIn("Pacific/Kiritimati", now)).toBe("2026-11-26");
    expect(todayIn("America/Los_Angeles", now)).toBe("2026-11-25");
    expect(backfillRange("2026-11-20", "2026-11-26", "UTC", now)).toEqual({ range: { from: new Date("2026-11-20T00:00:00Z"), to: now } });
    expect(backfillRange("2026-11-20", "2026-11-26", "America/Los_Angeles", now)).toEqual({ problems: [{ field: "to", message: M.future }] });
    expect(backfillRange("2026-11-20", "2026-11-26T06:00:00Z", "UTC", now)).toEqual({ problems: [{ field: "to", message: M.future }] });
  });

  it("refuses a From after To, more than 366 days, and what is not a date", () => {
    expect(backfillRange("2026-10-02", "2026-10-01", "UTC", now)).toEqual({ problems: [{ field: "to", message: M.order }] });
    expect(backfillRange("2025-01-01", "2026-01-02", "UTC", now)).toEqual({ problems: [{ field: "from", message: M.tooLong }] });
    expect("range" in backfillRange("2025-01-01", "2026-01-01", "UTC", now)).toBe(true);
    expect(backfillRange("2026-02-30", "2026-03-01", "UTC", now)).toEqual({ problems: [{ field: "from", message: M.fromInvalid }] });
    expect(backfillRange("2026-02-01", "March 1", "UTC", now)).toEqual({ problems: [{ field: "to", message: M.toInvalid }] });
  });
});

describe("the Backfill form and body schemas", () => {
  it("puts each problem at its field, in a plain sentence", () => {
    const form = backfillFormSchema("UTC", () => now);
    const errors = (value: unknown) => {
      const result = form.safeParse(value);
      return result.success ? null : result.error.flatten().fieldErrors;
    };
    expect(errors({})).toEqual({ from: [M.fromRequired], to: [M.toRequired] });
    expect(errors({ from: "2026-11-01", to: "2026-11-27" })).toEqual({ to: [M.future] });
    expect(errors({ from: "2026-11-02", to: "2026-11-01" })).toEqual({ to: [M.order] });
    // The form takes days only; the API takes date-times too.
    expect(errors({ from: "2026-11-01T00:00:00Z", to: "2026-11-02" })).toEqual({ from: [M.fromInvalid] });
    expect(errors({ from: "2026-11-01", to: "2026-11-02" })).toBeNull();
    expect(backfillBodySchema(() => now).parse({ from: "2026-11-01T00:00:00Z", to: "2026-11-02" })).toEqual({ from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-11-03T00:00:00Z") });
    expect(backfillBodySchema(() => now).safeParse({ from: "2026-11-01", to: "2026-11-02", time_zone: "Nowhere/Land" }).error?.issues[0]?.message).toBe(M.timeZone);
  });

  it("says what a cancel did", () => {
    expect(cancelMessage("cancelled", "sync")).toBe("The queued sync was cancelled.");
    expect(cancelMessage("stopping", "run")).toBe("The run is stopping: it ends after the step it is on.");
    expect(cancelMessage("none", "run")).toBe("There is no run queued or running to cancel.");
  });
});
