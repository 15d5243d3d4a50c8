import { describe, expect, it } from "vitest";
import { formatDateTime, readTimeZone } from "~/components/date-time";
import { initials } from "~/components/app-shell";
import { safeRedirect } from "~/services/session.server";
import { shownRunStatus } from "~/components/ui/status-badge";

describe("formatDateTime (spec: Jan 5,2025 3:04:05 PM)", () => {
  it("formats like the spec in the given time zone", () => {
    expect(formatDateTime("2025-01-05T15:04:05Z", "UTC")).toBe("Jan 5,2025 3:04:05 PM");
    expect(formatDateTime("2025-01-05T15:04:05Z", "America/New_York")).toBe("Jan 5,2025 10:04:05 AM");
    expect(formatDateTime("2025-12-31T23:59:09Z", "Asia/Tokyo")).toBe("Jan 1,2026 8:59:09 AM");
    expect(formatDateTime("2025-07-04T00:00:00Z", "UTC")).toBe("Jul 4,2025 12:00:00 AM");
  });
  it("gives nothing for an invalid date", () => {
    expect(formatDateTime("not a date", "UTC")).toBe("");
  });
});

describe("readTimeZone", () => {
  it("takes a valid zone from the tz cookie and falls back to UTC", () => {
    expect(readTimeZone("a=1; tz=Europe%2FBerlin; b=2")).toBe("Europe/Berlin");
    expect(readTimeZone("tz=Not%2FAZone")).toBe("UTC");
    expect(readTimeZone(null)).toBe("UTC");
  });
  it("reads a cookie that is not valid percent-encoding as UTC instead of failing the page", () => {
    expect(readTimeZone("tz=%ZZ")).toBe("UTC");
    expect(readTimeZone("a=1; tz=%E0%A4%A; b=2")).toBe("UTC");
    expect(readTimeZone("tz=%")).toBe("UTC");
  });
});

describe("initials", () => {
  it("takes the first letters of the first and last names", () => {
    expect(initials("Grace Brewster Hopper")).toBe("GH");
    expect(initials("ada")).toBe("A");
    expect(initials("  ")).toBe("?");
  });
});

describe("safeRedirect", () => {
  it.each([
    ["/connectors/add", "/connectors/add"],
    ["/sources?page=2", "/sources?page=2"],
    ["//evil.example", "/connectors"],
    ["/\\evil.example", "/connectors"],
    ["https://evil.example/x", "/connectors"],
    ["javascript:alert(1)", "/connectors"],
    ["/\u0000//evil", "/connectors"],
    ["", "/connectors"],
    [null, "/connectors"],
  ])("%s -> %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});

describe("shownRunStatus (issue 35, defect 6)", () => {
  it("a queued run that failed an attempt reads Retrying while it waits out its back-off; every other run its own status", () => {
    expect(shownRunStatus({ status: "queued", error: "Attempt 1 failed, retrying: Writing to destination \"Disk\" failed: EROFS" })).toBe("retrying");
    expect(shownRunStatus({ status: "queued", error: "Attempt 2 was interrupted (its worker stopped), retrying." })).toBe("retrying");
    expect(shownRunStatus({ status: "queued", error: null })).toBe("queued");
    expect(shownRunStatus({ status: "queued" })).toBe("queued");
    expect(shownRunStatus({ status: "running", error: "Attempt 1 failed, retrying: x" })).toBe("running");
    expect(shownRunStatus({ status: "failed", error: "x" })).toBe("failed");
  });
});
