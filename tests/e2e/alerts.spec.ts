import type { Page } from "@playwright/test";
import { expect, expectAccessible, login, test } from "./fixtures";

/**
 * Issue 27 item 6, JS on and off: the alert settings page, reached from the profile menu: a save, the webhook's
 * signing header and secret, and the secret rolled after a confirmation; with JavaScript the form's own checks (each
 * error at its field and in the banner, one channel enough). The e2e Tributary has no SMTP_URL, so the page says
 * e-mail alerts are unavailable. The server's rules (the same checks after a post without JavaScript, the webhook
 * rule only the server knows, the page never cached) are checked over HTTP in tests/http/alerts.spec.ts.
 */

/** Why a test of the form's own checks runs with JavaScript only. */
const SERVER_RULES = "without JavaScript these are the server's rules: tests/http/alerts.spec.ts";
const banner = (page: Page) => page.getByRole("alert");
const email = (page: Page) => page.getByLabel("E-mail address");
const webhook = (page: Page) => page.getByLabel("Webhook URL");
const warnAfter = (page: Page) => page.getByLabel("Warn after failures in a row");
const pauseAfter = (page: Page) => page.getByLabel("Pause a connector after failures in a row");

test("alert settings: errors at their field, a save, and the signing secret", async ({ page, user, jsEnabled }) => {
  await login(page, user);
  await page.locator('summary[data-profile-menu]').click();
  await page.getByRole("link", { name: "Alert settings" }).click();
  await expect(page).toHaveURL(/\/settings\/alerts$/);
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Log out" })).toBeHidden();
  await expect(page.getByText("E-mail alerts are unavailable on this server.")).toBeVisible();
  await expect(email(page)).toHaveValue("");
  await expect(warnAfter(page)).toHaveValue("3");
  await expect(pauseAfter(page)).toHaveValue("10");
  await expect(page.getByText("Save your settings once to get a signing secret.")).toBeVisible();
  await expect(page.getByText("No alerts sent yet.")).toBeVisible();

  if (jsEnabled) {
    // The form's own checks: every error at its field and in the banner; what was typed stays (the server's, and
    // its webhook rule: tests/http/alerts.spec.ts).
    await email(page).fill("not-an-address");
    await webhook(page).fill("ftp://example.com/hook");
    await warnAfter(page).fill("5");
    await pauseAfter(page).fill("5");
    await page.getByRole("button", { name: "Save" }).click();
    const errors = {
      email: "Please enter a valid e-mail address",
      webhook_url: "The webhook URL must start with https://",
      pause_after: "Auto-pause must come after the warning: choose a number greater than the warning's",
    };
    for (const [field, message] of Object.entries(errors)) {
      await expect(banner(page)).toContainText(message);
      await expect(page.locator(`#alerts-${field}-error`)).toHaveText(message);
      await expect(page.locator(`#alerts-${field}`)).toHaveAttribute("aria-invalid", "true");
    }
    await expect(page.locator("#alerts-warn_after")).not.toHaveAttribute("aria-invalid", "true");
    await expect(email(page)).toHaveValue("not-an-address");
    await expect(warnAfter(page)).toHaveValue("5");
  }

  // A save (this run's server allows loopback hosts: TRIBUTARY_ALLOW_PRIVATE_HOSTS, as the tests set it).
  await email(page).fill("ops@example.com");
  await webhook(page).fill("https://127.0.0.1:9/hooks/tributary");
  await warnAfter(page).fill("5");
  await pauseAfter(page).fill("8");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/settings\/alerts\?saved=1$/);
  await expect(page.getByRole("status")).toHaveText("Alert settings saved.");
  await expect(banner(page)).toHaveCount(0);
  await expect(email(page)).toHaveValue("ops@example.com");
  await expect(webhook(page)).toHaveValue("https://127.0.0.1:9/hooks/tributary");
  await expect(warnAfter(page)).toHaveValue("5");
  await expect(pauseAfter(page)).toHaveValue("8");
  await expect(page.getByText("Tributary-Signature").first()).toBeVisible();
  const secret = await page.getByTestId("signing-secret").textContent();
  expect(secret).toMatch(/^whsec_[\w-]{43}$/);
  await expectAccessible(page);

  // Saved for good: a fresh load shows the same values and the same secret.
  await page.goto("/settings/alerts");
  await expect(email(page)).toHaveValue("ops@example.com");
  await expect(pauseAfter(page)).toHaveValue("8");
  await expect(page.getByTestId("signing-secret")).toHaveText(secret!);
});

/**
 * Saves, and waits for the page the save leads to. From the second save on, the page already shows that URL and
 * "Alert settings saved." (the last save's), so they cannot tell that this save is done: wait until the form the
 * click sent is gone, drawn again from the saved values (a new form with JavaScript, after the revalidation; a new
 * page without). What a test types before that is wiped when the form is drawn again.
 */
async function save(page: Page): Promise<void> {
  const sent = (await page.locator("form#alert-settings").elementHandle())!;
  await page.getByRole("button", { name: "Save" }).click();
  await expect
    .poll(() => sent.evaluate((form) => form.isConnected).catch(() => false), { message: "the settings form drawn again after the save" })
    .toBe(false);
  await expect(page).toHaveURL(/\/settings\/alerts\?saved=1$/);
  await expect(page.getByRole("status")).toHaveText("Alert settings saved.");
  await expect(banner(page)).toHaveCount(0);
}

test("alert settings: one channel is enough, and each saved one can be removed", async ({ page, user, jsEnabled }) => {
  test.skip(!jsEnabled, SERVER_RULES);
  await login(page, user);
  await page.goto("/settings/alerts");

  // Only a webhook: the e-mail field (unavailable on this server) is left empty.
  await webhook(page).fill("https://127.0.0.1:9/hooks/only-webhook");
  await save(page);
  await expect(email(page)).toHaveValue("");
  await expect(webhook(page)).toHaveValue("https://127.0.0.1:9/hooks/only-webhook");
  await expect(page.getByText("Required")).toHaveCount(0);

  // Only an e-mail: the saved webhook is removed.
  await email(page).fill("only-mail@example.com");
  await webhook(page).fill("");
  await save(page);
  await expect(email(page)).toHaveValue("only-mail@example.com");
  await expect(webhook(page)).toHaveValue("");

  // The saved e-mail removed too: no channel at all is a choice, and the numbers alone are saved.
  await email(page).fill("");
  await warnAfter(page).fill("4");
  await save(page);
  await expect(email(page)).toHaveValue("");
  await expect(webhook(page)).toHaveValue("");
  await expect(warnAfter(page)).toHaveValue("4");

  // Blank-looking input is empty too (spaces only).
  await webhook(page).fill("   ");
  await save(page);
  await expect(webhook(page)).toHaveValue("");

  await page.goto("/settings/alerts");
  await expect(email(page)).toHaveValue("");
  await expect(webhook(page)).toHaveValue("");
  await expect(warnAfter(page)).toHaveValue("4");
});

test("alert settings: every problem at once, each at its field, in plain sentences", async ({ page, user, jsEnabled }) => {
  test.skip(!jsEnabled, SERVER_RULES);
  await login(page, user);
  await page.goto("/settings/alerts");
  // The thresholds emptied and nonsense, the e-mail wrong, the webhook empty: one save shows all of it.
  await email(page).fill("ops@");
  await warnAfter(page).fill("");
  await pauseAfter(page).fill("zero");
  await page.getByRole("button", { name: "Save" }).click();
  const errors = {
    email: "Please enter a valid e-mail address",
    warn_after: "Please enter after how many failures in a row to warn",
    pause_after: "The auto-pause threshold must be a whole number from 1 to 1000",
  };
  for (const [field, message] of Object.entries(errors)) {
    await expect(page.locator(`#alerts-${field}-error`)).toHaveText(message);
    await expect(banner(page)).toContainText(message);
  }
  await expect(page.locator("#alerts-webhook_url-error")).toHaveCount(0);
  await expect(banner(page)).not.toContainText("Required");
  await expect(email(page)).toHaveValue("ops@");
  await expect(pauseAfter(page)).toHaveValue("zero");
});

test("the signing secret: rolled after a confirmation (the old one is gone)", async ({ page, user }) => {
  // Never cached, before and after the roll: tests/http/alerts.spec.ts.
  await login(page, user);
  await page.goto("/settings/alerts");
  await webhook(page).fill("https://127.0.0.1:9/hooks/roll");
  await save(page);
  const old = await page.getByTestId("signing-secret").textContent();
  expect(old).toMatch(/^whsec_[\w-]{43}$/);

  // Cancel keeps it.
  await page.getByRole("link", { name: "Roll signing secret" }).click();
  const dialog = page.getByRole("dialog", { name: "Roll the signing secret?" });
  await expect(dialog).toContainText("webhooks are signed with the new secret only");
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("signing-secret")).toHaveText(old!);

  await page.getByRole("link", { name: "Roll signing secret" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Roll secret" }).click();
  await expect(page).toHaveURL(/\/settings\/alerts\?rolled=1$/);
  await expect(page.getByRole("status")).toHaveText("Signing secret rolled: webhooks are now signed with the new secret only.");
  const fresh = await page.getByTestId("signing-secret").textContent();
  expect(fresh).toMatch(/^whsec_[\w-]{43}$/);
  expect(fresh).not.toBe(old);
  // A fresh load shows the new secret only.
  await page.goto("/settings/alerts");
  await expect(page.getByTestId("signing-secret")).toHaveText(fresh!);
  await expect(page.getByText(old!)).toHaveCount(0);
});
