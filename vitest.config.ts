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
    // VITEST_MAX_WORKERS runs that many test files at once (the backend tests mostly wait on Postgres and worker
    // processes). Unset: vitest's default (CPUs - 1). Three at once on a loaded 2-core machine timed tests out.
    ...(Number(process.env.VITEST_MAX_WORKERS) > 0 ? { maxWorkers: Number(process.env.VITEST_MAX_WORKERS) } : {}),
  },
});
