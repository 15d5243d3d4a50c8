import { describe, expect, it } from "vitest";
import { formatBytes } from "../../contract/runs.js";
import { runDuration } from "../../app/components/run-timing.js";

/** What a run's page shows for its bytes and its duration. */
describe("run figures as people read them", () => {
  it("formats byte counts", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(12_345)).toBe("12.3 kB");
    expect(formatBytes(4_500_000_000)).toBe("4.5 GB");
  });

  it("formats a run's duration, and says when it has not started or not finished", () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 29, 12) + ms).toISOString();
    expect(runDuration({ started_at: null, finished_at: null })).toBe("—");
    expect(runDuration({ started_at: at(0), finished_at: null })).toBe("…");
    expect(runDuration({ started_at: at(0), finished_at: at(480) })).toBe("480ms");
    expect(runDuration({ started_at: at(0), finished_at: at(1_537) })).toBe("1.5s");
    expect(runDuration({ started_at: at(0), finished_at: at(123_456) })).toBe("2m 3.4s");
  });
});
