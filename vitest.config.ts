import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { fileURLToPath } from "node:url";

/**
 * The files that wait longest on worker processes and real timers, longest first. CI runs a clean clone, with no cache
 * of the last run's durations for vitest to order files by (it then starts the largest files first): these start
 * first, so that none of them starts late and leaves the other fork idle at the end.
 */
const LONG_FILES = ["connectors-reliability", "multi-process", "runs-heartbeat", "outbound-limits", "runs-cancel-backfill", "deploy", "run-details", "fuzz", "run-events"];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const i = LONG_FILES.findIndex((name) => spec.moduleId.endsWith(`/${name}.test.ts`));
      return i === -1 ? LONG_FILES.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/** Unit tests (next to nothing mocked) and backend tests over real HTTP against a real Postgres. */
export default defineConfig({
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "@contract": fileURLToPath(new URL("./contract", import.meta.url)),
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/backend/**/*.test.ts"],
    globalSetup: ["tests/backend/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    sequence: { sequencer: LongFilesFirst },
    // Two test files at once by default: the backend tests mostly wait on Postgres and worker processes, so two
    // halve the suite's time on a 2-core machine (vitest's own default there is one). Three at once on a loaded
    // 2-core machine timed tests out. VITEST_MAX_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) > 0 ? Number(process.env.VITEST_MAX_WORKERS) : 2,
  },
});
