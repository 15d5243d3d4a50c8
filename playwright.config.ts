import { defineConfig } from "@playwright/test";
import { APP_URL, JS_INDEPENDENT, RESULTS_DIR } from "./tests/e2e/env";

/**
 * Browser tests: every flow twice, with JavaScript on and off, in Debian's
 * Chromium, against the built app started the way `npm start` starts it
 * (tests/e2e/global-setup.ts); and the HTTP layer (tests/http/): server rules
 * checked by asking the same server as a browser without JavaScript would, no
 * browser started. `npm test` builds the app before this runs.
 *
 * The browser is Debian's chromium-headless-shell, the headless-only build Playwright itself runs headless tests
 * in (bench/RESULTS.md: the suite's time with it and with the full chromium); CHROMIUM_PATH names another.
 */
const chromium = {
  browserName: "chromium" as const,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

export default defineConfig({
  testMatch: "**/*.spec.ts",
  // Not "test-results" itself: Playwright empties its output folder, and other reports live there.
  outputDir: `${RESULTS_DIR}/e2e-artifacts`,
  globalSetup: "./tests/e2e/global-setup.ts",
  globalTeardown: "./tests/e2e/global-teardown.ts",
  fullyParallel: true,
  // Four at once on CI's two cores: a browser test spends much of its time waiting on the server, a sync or a page's
  // refresh, so two workers left the cores idle (bench/RESULTS.md: the browser step with 2 and 4). E2E_WORKERS overrides it.
  workers: Number(process.env.E2E_WORKERS) > 0 ? Number(process.env.E2E_WORKERS) : 4,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // A flow signs in, fills a few pages and runs an accessibility check on each: ~14 s alone on a slow day of this
  // 2-core machine, twice that with two workers. Assertions keep their own 10 s.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: `${RESULTS_DIR}/playwright.json` }]],
  use: {
    baseURL: APP_URL,
    viewport: { width: 1280, height: 800 },
    locale: "en-US",
    timezoneId: "UTC",
    // Recording a trace of every test cost about a third of the suite's time; E2E_TRACE=retain-on-failure keeps one
    // for each failed test when needed.
    trace: (process.env.E2E_TRACE as "off" | "on" | "retain-on-failure" | "on-first-retry" | undefined) ?? "off",
    screenshot: "only-on-failure",
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
  },
  projects: [
    // First: its tests take milliseconds, and the browsers' long ones then fill the workers to the end.
    { name: "http", testDir: "tests/http" },
    { name: "js-on", testDir: "tests/e2e", use: { ...chromium, javaScriptEnabled: true } },
    // A check tagged JS_INDEPENDENT (headers, status codes, raw HTTP) runs once, in js-on.
    { name: "js-off", testDir: "tests/e2e", use: { ...chromium, javaScriptEnabled: false }, grepInvert: new RegExp(JS_INDEPENDENT) },
  ],
});
