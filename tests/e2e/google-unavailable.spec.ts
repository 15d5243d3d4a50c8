import { readFileSync } from "node:fs";
import path from "node:path";
import { E2E_PORTS, RESULTS_DIR } from "./env";
import { expect, expectAccessible, login, test } from "./fixtures";
import { startTributary, type TributaryInstance } from "./server";

/**
 * A server without the platform's Google service account (issue #26): the Google Cloud destination types are
 * offered disabled with a plain reason, the operator's details (which variable to set) go to the server's log and
 * never to the page, and the type cannot be chosen even by its address. The run's own Tributary has the fake key,
 * so this spec starts a second one beside it without it, on ports of its own per project.
 */
test.describe.configure({ mode: "serial" });

/** What the user reads under the type select (backend/integrations/destinations/kit/google-access.ts). */
const GOOGLE_UNAVAILABLE = "Google Cloud destinations are not available on this server yet: it has no Google service account to write with.";

let server: TributaryInstance;
let logFile: string;

// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their first argument
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(150_000);
  const offset = testInfo.project.name === "js-off" ? 30 : 20;
  const ports = { app: E2E_PORTS.app + offset, backend: E2E_PORTS.backend + offset, localIdp: E2E_PORTS.localIdp + offset, postgres: E2E_PORTS.postgres + offset };
  logFile = path.resolve(RESULTS_DIR, `e2e-server-no-google-${testInfo.project.name}.log`);
  server = await startTributary({
    ports,
    appUrl: `http://localhost:${ports.app}`,
    logFile,
    env: { GOOGLE_SERVICE_ACCOUNT_KEY: undefined, GOOGLE_SERVICE_ACCOUNT_KEY_FILE: undefined },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test("Google Cloud types are offered disabled with a plain reason; the operator's details go to the log", async ({ page, user }) => {
  await login(page, user, { app: server.appUrl, from: "/destinations/add" });
  await expect(page.getByRole("heading", { name: "Create Destination" })).toBeVisible();
  const select = page.getByLabel("Integration type", { exact: true });
  for (const label of ["Google Cloud Storage", "BigQuery"]) {
    await expect(select.locator("option", { hasText: label })).toHaveText(`${label} (not available)`);
    await expect(select.locator("option", { hasText: label })).toBeDisabled();
  }
  await expect(select.locator("option", { hasText: "Local folder" })).toBeEnabled();
  await expect(page.getByText(GOOGLE_UNAVAILABLE)).toBeVisible();
  await expect(page.locator("body")).not.toContainText("GOOGLE_SERVICE_ACCOUNT_KEY");
  await expectAccessible(page);

  // Not even by its address: the form stays without a type, and no service-account step appears.
  await page.goto(new URL("/destinations/add?type=storage", server.appUrl).href);
  await expect(select).toHaveValue("");
  await expect(page.getByRole("heading", { name: "Google Cloud Storage" })).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText("GOOGLE_SERVICE_ACCOUNT_KEY");

  // The operator reads what to set in the server's log.
  const log = readFileSync(logFile, "utf8");
  expect(log).toContain("destination type unavailable");
  expect(log).toContain("GOOGLE_SERVICE_ACCOUNT_KEY");
});
