import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

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
    // Two test files at once by default: the backend tests mostly wait on Postgres and worker processes, so two
    // halve the suite's time on a 2-core machine (vitest's own default there is one). Three at once on a loaded
    // 2-core machine timed tests out. VITEST_MAX_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) > 0 ? Number(process.env.VITEST_MAX_WORKERS) : 2,
  },
});
