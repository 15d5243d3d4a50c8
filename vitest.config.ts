import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { fileURLToPath } from "node:url";

/**
 * The files that wait longest on worker processes and real timers, longest first. CI runs a clean clone, with no cache
 * of the last run's durations for vitest to order files by (it then starts the largest files first): these start
 * first, so that none of them starts late and leaves the other fork idle at the end.
 */
const LONG_FILES = ["connectors-reliability", "runs-heartbeat", "outbound-limits", "runs-cancel-backfill", "deploy", "run-details", "fuzz", "run-events"];

/**
 * The runs-engine tests and the multi-process test: they run on a server of Debian's `postgresql` package (one
 * cluster for all of them, tests/backend/global-setup-debian.ts), the rest on the embedded Postgres.
 */
const DEBIAN_FILES = ["runs-cancel-backfill", "runs-heartbeat", "runs-scheduler", "runs-stop", "scheduler-bookmarks", "run-details", "connectors-reliability", "multi-process"].map(
  (name) => `tests/backend/${name}.test.ts`,
);

/**
 * The unit files that need modules of their own: they point the web server's backend client at a server of theirs
 * (BACKEND_URL) before importing it, and env.server.ts reads the environment once. The other unit files share their
 * fork's modules (no isolation), which halves the unit tests' time: importing was 42 % of it.
 */
const ISOLATED_UNIT_FILES = ["backend-client", "destination-details-messages", "list-loader"].map((name) => `tests/unit/${name}.test.ts`);

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

/**
 * Unit tests (next to nothing mocked; no database) and backend tests over real HTTP against a real Postgres: the
 * backend's two projects differ only in that Postgres (each project's global setup starts its own, only when one of
 * its files runs).
 */
export default defineConfig({
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "@contract": fileURLToPath(new URL("./contract", import.meta.url)),
    },
  },
  test: {
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts", ...ISOLATED_UNIT_FILES.map((file) => `!${file}`)], isolate: false } },
      {
        extends: true,
        test: { name: "embedded", include: [...ISOLATED_UNIT_FILES, "tests/backend/**/*.test.ts", ...DEBIAN_FILES.map((file) => `!${file}`)], globalSetup: ["tests/backend/global-setup.ts"] },
      },
      { extends: true, test: { name: "debian", include: DEBIAN_FILES, globalSetup: ["tests/backend/global-setup-debian.ts"] } },
    ],
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
