import type { Page } from "@playwright/test";
import { expect, expectAccessible, login, test } from "./fixtures";
import { createUserDatabase, userIdByEmail, withDb, type UserDatabase } from "./db";
import { E2E_PORTS } from "./env";

/**
 * Issue 25, JS on and off: a PostgreSQL destination created in the browser (instructions, test, create) against a
 * real server — the run's embedded Postgres, a database and a login role of this test's own standing in for a
 * user's — then a connector from a data generator to it, Sync now, and the rows and files in that database. The
 * server is on loopback: the e2e Tributary runs with TRIBUTARY_ALLOW_PRIVATE_HOSTS=true (tests/e2e/server.ts).
 */

const BAD_REQUEST = /Failed to load resource: the server responded with a status of (400|404|409|422)/;
const banner = (page: Page) => page.getByRole("alert");

async function fillSettings(page: Page, target: UserDatabase, password: string) {
  await page.getByLabel("Host", { exact: true }).fill("127.0.0.1");
  await page.getByLabel("Port", { exact: true }).fill(String(E2E_PORTS.postgres));
  await page.getByLabel("Database", { exact: true }).fill(target.database);
  await page.getByLabel("Schema", { exact: true }).fill("meetings_raw");
  await page.getByLabel("Username", { exact: true }).fill(target.role);
  await page.getByLabel("Password", { exact: true }).fill(password);
}

test("PostgreSQL: instructions, a wrong password refused, test, create, a connector syncs into it and a transform runs on it", async ({ page, user, jsEnabled, context, allowConsoleErrors }) => {
  test.slow();
  allowConsoleErrors(BAD_REQUEST);
  const target = await createUserDatabase("pgdest");
  await login(page, user, { from: "/destinations/add?type=postgres" });
  await page.getByLabel("Name", { exact: true }).fill("Analytics Postgres");
  await fillSettings(page, target, target.password);

  await page.getByRole("button", { name: "Generate Instructions" }).click();
  const sql = page.getByLabel("Setup SQL");
  await expect(sql).toContainText(`CREATE ROLE "${target.role}" LOGIN PASSWORD E'<YOUR_PASSWORD>';`);
  await expect(sql).toContainText(`GRANT CONNECT, CREATE ON DATABASE "${target.database}" TO "${target.role}";`);
  await expect(sql).toContainText(`GRANT USAGE, CREATE ON SCHEMA "meetings_raw" TO "${target.role}";`);
  if (jsEnabled) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy SQL" }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    // In an E'' string quotes and backslashes are doubled: the role gets exactly the typed password.
    expect(copied).toContain(`LOGIN PASSWORD E'${target.password.replace(/\\/g, "\\\\").replace(/'/g, "''")}';`);
  }

  // Without JS the password is not sent back to the page: it is typed again before each test.
  await page.getByLabel("Password", { exact: true }).fill("wrong");
  await page.getByRole("button", { name: "Test Connection" }).click();
  await expect(banner(page)).toHaveText("Connection failed. Please check your credentials.");
  await expect(page.getByRole("button", { name: "Create Destination" })).toBeDisabled();

  await page.getByLabel("Password", { exact: true }).fill(target.password);
  await page.getByRole("button", { name: "Test Connection" }).click();
  await expect(page.getByText("Connection successful")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create Destination" }).click();
  await expect(page).toHaveURL(/\/destinations$/);
  await page.getByRole("link", { name: "Analytics Postgres" }).click();
  await expect(page.locator("dl")).toContainText("PostgreSQL");
  await expect(page.locator("dl")).toContainText(target.database);
  await expect(page.locator("body")).not.toContainText(target.password);

  // A connector from a data generator to it, and Sync now. 20 meetings a day: enough documents in any window for the
  // topic model below to find topics (at the generator's default volume a window held 3 meetings once, and no topic).
  const ownerId = await withDb((client) => userIdByEmail(client, user.email));
  await withDb((client) =>
    client.query(
      `INSERT INTO sources (owner_id, name, integration_name, integration_label, status, metadata) VALUES ($1, 'Demo meetings', 'datagen', 'Data Generator', 'active', $2)`,
      [ownerId, JSON.stringify({ company: "Acme Rockets", format: "zoom", meetings_per_day: 20 })],
    ),
  );
  await page.goto("/connectors/add");
  await page.getByLabel("Connector name").fill("Demo to Postgres");
  const source = page.getByLabel("Source", { exact: true }).locator("option").filter({ hasText: /Demo meetings/ }).first();
  await page.getByLabel("Source", { exact: true }).selectOption((await source.getAttribute("value"))!);
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this source" }).click();
  await page.getByLabel("Platform", { exact: true }).selectOption({ label: "ZOOM" });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this platform" }).click();
  await page.getByLabel(/Analytics Postgres/).check();
  await page.getByLabel("Frequency").selectOption({ label: "Daily" });
  await page.getByRole("button", { name: "Create Connector" }).click();
  await expect(page).toHaveURL(/\/connectors$/);
  await page.getByRole("row", { name: /Demo to Postgres/ }).getByRole("link", { name: "Demo to Postgres" }).click();
  // Its first sync was queued when it was created.
  const runRow = page.locator("tbody tr").first();
  await expect(runRow).toHaveAttribute("data-run-status", "succeeded", { timeout: 60_000 });
  const records = Number((await runRow.locator("td").nth(3).textContent())!.replace(/,/g, ""));
  expect(records).toBeGreaterThan(0);

  const [meetings] = await target.query<{ n: number; keys: number }>("SELECT count(*)::int AS n, count(DISTINCT meeting_id)::int AS keys FROM meetings_raw.meetings");
  expect(meetings).toEqual({ n: records, keys: records });
  const [lines] = await target.query<{ n: number }>("SELECT count(*)::int AS n FROM meetings_raw.transcript_utterances");
  expect(lines!.n).toBeGreaterThan(records);
  const files = await target.query<{ path: string }>("SELECT path FROM meetings_raw.tributary_objects ORDER BY path");
  expect(files.filter((f) => f.path.endsWith(".vtt"))).toHaveLength(records);
  expect(files.filter((f) => f.path.endsWith(".txt"))).toHaveLength(records);

  // A transform on it: PostgreSQL is the connector's warehouse; its results land in the destination's database.
  await page.goto("/transforms/add");
  await page.getByLabel("Transform name").fill("Postgres topics");
  await page.getByLabel("Connector", { exact: true }).selectOption({ label: "Demo to Postgres" });
  await page.getByLabel("Use Templates").check();
  // Exact: without JavaScript the no-JS "Continue with this connector/template" buttons stand beside these.
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page).toHaveURL(/\/transforms\/templates\/select/);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page).toHaveURL(/\/transforms\/templates\/permissions$/);
  await expect(page.getByTestId("wizard-destination").getByLabel("Name", { exact: true })).toHaveValue("Analytics Postgres");
  const steps = Number((await page.getByText(/Step 1 of \d/).textContent())!.match(/of (\d)/)![1]);
  let resultsSchemaShown = false;
  for (let step = 2; step <= steps; step++) {
    await page.getByRole("button", { name: "Next step" }).click();
    await expect(page.getByText(`Step ${step} of ${steps}`)).toBeVisible();
    // The write-access step asks where the results go: the destination's own schema by default.
    if (await page.getByLabel("Results schema").count()) {
      await expect(page.getByLabel("Results schema")).toHaveValue("meetings_raw");
      resultsSchemaShown = true;
    }
  }
  expect(resultsSchemaShown).toBe(true);
  await page.getByLabel("Result table prefix").fill("pg");
  await page.getByRole("button", { name: "Continue to configuration" }).click();
  await expect(page).toHaveURL(/\/transforms\/templates\/config\/topic_modeling$/);
  await page.getByRole("button", { name: "Preview" }).click();
  expect(Number((await page.getByTestId("record-count").textContent())!.replace(/,/g, ""))).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Create Transform" }).click();
  await expect(page).toHaveURL(/\/transforms\/details\/[0-9a-f-]{36}$/);
  await expect(page.locator("tbody tr[data-run-status]").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 90_000 });
  await expect(page.locator("[data-result-table]").first().locator("tbody tr").first()).toBeVisible();
  const results = await target.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'meetings_raw' AND table_name LIKE 'pg%' ORDER BY table_name",
  );
  expect(results.length).toBeGreaterThan(0);
});
