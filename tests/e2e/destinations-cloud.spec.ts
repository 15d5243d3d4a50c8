import type { Page } from "@playwright/test";
import { detailValue, expect, expectAccessible, login, test } from "./fixtures";
import { spawn } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { DEFAULT_FAKE_PORTS, E2E_SEED } from "../fakes/google-destination-fakes";

/**
 * Issue 4 against the fakes, JS on and off: BigQuery (service account, copy,
 * instructions, authenticate, create, edit with reauthentication) and
 * Snowflake (instructions with the password copied in, test, create).
 *
 * The backend is started once by the global setup, so it must already point at
 * these fakes: GOOGLE_SERVICE_ACCOUNT_KEY (or _FILE), BIGQUERY_API_ENDPOINT=
 * http://127.0.0.1:$E2E_BIGQUERY_PORT and SNOWFLAKE_HOST_OVERRIDE=
 * http://127.0.0.1:$E2E_SNOWFLAKE_PORT and GCS_API_ENDPOINT=
 * http://127.0.0.1:$E2E_GCS_PORT (defaults 4111, 4112 and 4110).
 */
const PORTS = {
  gcs: Number(process.env.E2E_GCS_PORT ?? DEFAULT_FAKE_PORTS.gcs),
  bigquery: Number(process.env.E2E_BIGQUERY_PORT ?? DEFAULT_FAKE_PORTS.bigquery),
  snowflake: Number(process.env.E2E_SNOWFLAKE_PORT ?? DEFAULT_FAKE_PORTS.snowflake),
};
const PASSWORD = E2E_SEED.snowflake.password;
const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * The fakes run in a process of their own, outliving the Playwright worker that
 * started it (workers come and go; the backend's endpoints do not), and exit
 * after two idle minutes. A global setup that already runs them makes this a no-op.
 */
test.beforeAll(async () => {
  if (await listening(PORTS.snowflake)) return;
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("../fakes/google-destination-fakes.ts", import.meta.url))], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, E2E_GCS_PORT: String(PORTS.gcs), E2E_BIGQUERY_PORT: String(PORTS.bigquery), E2E_SNOWFLAKE_PORT: String(PORTS.snowflake), FAKES_IDLE_EXIT_MS: "120000" },
  });
  child.unref();
  for (let i = 0; i < 100 && !(await listening(PORTS.snowflake)); i++) await new Promise((r) => setTimeout(r, 100));
  expect(await listening(PORTS.snowflake), "the destination fakes are listening").toBe(true);
});

const banner = (page: Page) => page.getByRole("alert");

test("BigQuery: authenticate, create, and edit with reauthentication", async ({ page, user, jsEnabled, context, allowConsoleErrors }) => {
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/destinations/add" });
  await page.getByLabel("Name").fill("Warehouse");
  await page.getByLabel("Integration type", { exact: true }).selectOption({ label: "BigQuery" });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this integration type" }).click();

  const email = page.getByLabel("Service account e-mail");
  await expect(email).toHaveValue(/@.+\.iam\.gserviceaccount\.com$/);
  await expect(page.getByRole("list").filter({ hasText: "roles/bigquery.dataEditor" }).getByRole("listitem")).toHaveCount(4);
  await expect(page.getByLabel("Credential ID")).toHaveValue(/^[0-9a-f-]{36}$/);
  if (jsEnabled) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    await expect(page.getByRole("button", { name: "Copied!" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await email.inputValue());
    await expect(page.getByRole("button", { name: "Copy", exact: true })).toBeVisible({ timeout: 4000 });
  } else {
    await expect(page.getByRole("button", { name: "Copy", exact: true })).toHaveCount(0);
  }

  const create = page.getByRole("button", { name: "Create Destination" });
  await expect(create).toBeDisabled();
  await page.getByLabel("GCP Project ID").fill("demo-project");
  await page.getByLabel("Dataset name").fill("missing");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(banner(page)).toHaveText("Connection test failed: dataset missing was not found in project demo-project");
  await page.getByLabel("Dataset name").fill("analytics");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByText("Connection successful")).toBeVisible();
  await expect(create).toBeEnabled();

  // Changing a tested value undoes the test: JS disables Create, the server refuses it.
  await page.getByLabel("Dataset name").fill("archive");
  if (jsEnabled) {
    await expect(create).toBeDisabled();
  } else {
    await create.click();
    await expect(banner(page)).toHaveText("Please fill all required fields and test the connection successfully.");
    await expect(create).toBeDisabled();
  }
  await page.getByLabel("Dataset name").fill("analytics");
  if (!jsEnabled) await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(create).toBeEnabled();
  await create.click();
  await expect(page).toHaveURL(/\/destinations$/);
  await page.getByRole("link", { name: "Warehouse" }).click();
  await expect(detailValue(page, "Category")).toHaveText("Warehouse");
  await expect(page.locator("dl")).toContainText("analytics");

  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByLabel("Integration type", { exact: true })).toHaveValue("BigQuery");
  const update = page.getByRole("button", { name: "Update Destination" });
  await expect(update).toBeEnabled();
  await page.getByLabel("Dataset name").fill("archive");
  if (jsEnabled) await expect(update).toBeDisabled();
  else {
    await update.click();
    await expect(banner(page)).toHaveText("Please reauthenticate successfully before updating.");
  }
  await page.getByRole("button", { name: "Reauthenticate" }).click();
  await expect(page.getByText("Connection successful")).toBeVisible();
  await update.click();
  await expect(page).toHaveURL(/\/destinations\/details\//);
  await expect(page.locator("dl")).toContainText("archive");
});

test("Cloud Storage: a missing bucket is named, then authenticate and create", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/destinations/add" });
  await page.getByLabel("Name", { exact: true }).fill("Landing bucket");
  await page.getByLabel("Integration type", { exact: true }).selectOption({ label: "Google Cloud Storage" });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this integration type" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "roles/storage.objectAdmin" })).toBeVisible();
  await page.getByLabel("GCP Project ID").fill("demo-project");
  await page.getByLabel("Bucket name").fill("no-such-bucket");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(banner(page)).toHaveText(/^Connection test failed: bucket no-such-bucket was not found/);
  await page.getByLabel("Bucket name").fill(E2E_SEED.bucket);
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByText(`Connection successful: Tributary can write, read and delete objects in bucket ${E2E_SEED.bucket}.`)).toBeVisible();
  // The steps now name the project and bucket that were tested.
  await expect(page.getByRole("listitem").filter({ hasText: `gs://${E2E_SEED.bucket}` })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create Destination" }).click();
  await expect(page).toHaveURL(/\/destinations$/);
  await page.getByRole("link", { name: "Landing bucket" }).click();
  await expect(page.locator("dl")).toContainText("Google Cloud Storage");
  await expect(page.locator("dl")).toContainText(E2E_SEED.bucket);
});

test("Snowflake: instructions, copy with the password, test and create", async ({ page, user, jsEnabled, context, allowConsoleErrors }) => {
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/destinations/add?type=snowflake" });
  await page.getByLabel("Name", { exact: true }).fill("Snow");
  await page.getByLabel("Account identifier").fill("myorg-myaccount");
  await page.getByLabel("Warehouse").fill("load_wh");
  await page.getByLabel("Database").fill("raw");
  await page.getByLabel("Schema").fill("meetings");
  await page.getByLabel("New username").fill("loader");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Generate Instructions" }).click();
  const sql = page.getByLabel("Setup SQL");
  await expect(sql).toContainText("CREATE USER IF NOT EXISTS LOADER");
  await expect(sql).toContainText("PASSWORD = '<YOUR_PASSWORD>'");
  await expect(sql).toContainText("CREATE WAREHOUSE IF NOT EXISTS LOAD_WH");
  if (jsEnabled) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy SQL" }).click();
    await expect(page.getByRole("button", { name: "Copied!" })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`PASSWORD = 'pa''ss"w0rd'`);
    expect(copied).not.toContain("<YOUR_PASSWORD>");
  } else {
    // Without JS the password is not sent back to the page: type it again.
    await page.getByLabel("Password").fill(PASSWORD);
  }
  await expect(page.getByRole("button", { name: "Create Destination" })).toBeDisabled();
  await page.getByRole("button", { name: "Test Connection" }).click();
  await expect(page.getByText("Connection successful")).toBeVisible();
  if (jsEnabled) await expect(sql).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create Destination" }).click();
  await expect(page).toHaveURL(/\/destinations$/);
  await page.getByRole("link", { name: "Snow" }).click();
  await expect(page.locator("dl")).toContainText("Snowflake");
  await expect(page.locator("dl")).toContainText("LOAD_WH");
  await expect(page.locator("body")).not.toContainText("pa'ss");
});

test("Snowflake: a wrong password is refused with the spec's message", async ({ page, user, allowConsoleErrors }) => {
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/destinations/add?type=snowflake_stage" });
  await page.getByLabel("Account identifier").fill("myorg-myaccount");
  await page.getByLabel("Database").fill("raw");
  await page.getByLabel("Schema").fill("meetings");
  await page.getByLabel("New username").fill("loader");
  await page.getByLabel("Password").fill("wrong");
  await page.getByLabel("Stage name").fill("LANDING");
  await page.getByRole("button", { name: "Test Connection" }).click();
  await expect(banner(page)).toHaveText("Connection failed. Please check your credentials.");
  await expect(page.getByRole("button", { name: "Create Destination" })).toBeDisabled();
});
