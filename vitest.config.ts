import { defineConfig } from "vitest/config";
import os from "node:os";
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
    // Backend test files mostly wait (on Postgres, HTTP, worker processes): on a 2-core machine vitest's default (one
    // file at a time) leaves the CPUs idle. VITEST_MAX_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, Math.min(4, os.availableParallelism() + 1)),
  },
});
