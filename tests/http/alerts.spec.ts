import type { WebPage } from "../support/forms";
import { expect, press, test, type Web } from "./fixtures";

/**
 * Issue 27 item 6, the server's rules of the alert settings page, as a browser without JavaScript meets them: each
 * error at its field and in the banner after a post (the form's rules, and the webhook rule only the server knows),
 * what was typed kept; one channel is enough and each saved one can be removed; the page (with its signing secret)
 * is never cached, before and after the secret is rolled. The page in a browser (reached from the profile menu, a
 * save, the signing header and secret, the roll after a confirmation, axe) and the form's own checks with
 * JavaScript: tests/e2e/alerts.spec.ts.
 */

const FORM = "form#alert-settings";

/** Saves the form with `changes`: the page it leads to says so, with no error. */
async function save(web: Web, page: WebPage, changes: Record<string, string>): Promise<WebPage> {
  const saved = await press(web, page, FORM, "Save", changes);
  expect(saved.url.pathname + saved.url.search).toBe("/settings/alerts?saved=1");
  expect(saved.text('[role="status"]')).toBe("Alert settings saved.");
  expect(saved.alerts()).toEqual([]);
  return saved;
}

test("alert settings: the form's rules and the server's webhook rule, each at its field, what was typed kept", async ({ signedIn }) => {
  const refused = await press(signedIn, await signedIn.open("/settings/alerts"), FORM, "Save", {
    email: "not-an-address",
    webhook_url: "ftp://example.com/hook",
    warn_after: "5",
    pause_after: "5",
  });
  const errors = {
    email: "Please enter a valid e-mail address",
    webhook_url: "The webhook URL must start with https://",
    pause_after: "Auto-pause must come after the warning: choose a number greater than the warning's",
  };
  for (const [field, message] of Object.entries(errors)) {
    expect(refused.alertText()).toContain(message);
    expect(refused.fieldError(`alerts-${field}`)).toBe(message);
    expect(refused.invalid(`alerts-${field}`)).toBe(true);
  }
  expect(refused.invalid("alerts-warn_after")).toBe(false);
  expect(refused.value("email", FORM)).toBe("not-an-address");
  expect(refused.value("warn_after", FORM)).toBe("5");

  // The server's rule: a webhook to a cloud metadata address is never called; its sentence at the webhook field.
  const metadata = await press(signedIn, refused, FORM, "Save", { email: "ops@example.com", webhook_url: "https://169.254.169.254/latest", pause_after: "8" });
  const sentence = "The webhook URL cannot be used: 169.254.169.254 is not a public address: Tributary connects only to hosts on the public internet.";
  expect(metadata.fieldError("alerts-webhook_url")).toBe(sentence);
  expect(metadata.alerts()).toEqual([sentence]);
  expect(metadata.fieldError("alerts-email")).toBeNull();
  expect(metadata.value("webhook_url", FORM)).toBe("https://169.254.169.254/latest");
});

test("alert settings: every problem at once, each at its field, in plain sentences", async ({ signedIn }) => {
  // The thresholds emptied and nonsense, the e-mail wrong, the webhook empty: one save shows all of it.
  const refused = await press(signedIn, await signedIn.open("/settings/alerts"), FORM, "Save", { email: "ops@", warn_after: "", pause_after: "zero" });
  const errors = {
    email: "Please enter a valid e-mail address",
    warn_after: "Please enter after how many failures in a row to warn",
    pause_after: "The auto-pause threshold must be a whole number from 1 to 1000",
  };
  for (const [field, message] of Object.entries(errors)) {
    expect(refused.fieldError(`alerts-${field}`)).toBe(message);
    expect(refused.alertText()).toContain(message);
  }
  expect(refused.fieldError("alerts-webhook_url")).toBeNull();
  expect(refused.alertText()).not.toContain("Required");
  expect(refused.value("email", FORM)).toBe("ops@");
  expect(refused.value("pause_after", FORM)).toBe("zero");
});

test("alert settings: one channel is enough, and each saved one can be removed", async ({ signedIn }) => {
  // Only a webhook: the e-mail field (unavailable on this server) is left empty.
  let page = await save(signedIn, await signedIn.open("/settings/alerts"), { webhook_url: "https://127.0.0.1:9/hooks/only-webhook" });
  expect(page.value("email", FORM)).toBe("");
  expect(page.value("webhook_url", FORM)).toBe("https://127.0.0.1:9/hooks/only-webhook");
  expect(page.text()).not.toMatch(/required/i);

  // Only an e-mail: the saved webhook is removed.
  page = await save(signedIn, page, { email: "only-mail@example.com", webhook_url: "" });
  expect(page.value("email", FORM)).toBe("only-mail@example.com");
  expect(page.value("webhook_url", FORM)).toBe("");

  // The saved e-mail removed too: no channel at all is a choice, and the numbers alone are saved.
  page = await save(signedIn, page, { email: "", warn_after: "4" });
  expect(page.value("email", FORM)).toBe("");
  expect(page.value("webhook_url", FORM)).toBe("");
  expect(page.value("warn_after", FORM)).toBe("4");

  // Blank-looking input is empty too (spaces only).
  page = await save(signedIn, page, { webhook_url: "   " });
  expect(page.value("webhook_url", FORM)).toBe("");

  page = await signedIn.open("/settings/alerts");
  expect(page.value("email", FORM)).toBe("");
  expect(page.value("webhook_url", FORM)).toBe("");
  expect(page.value("warn_after", FORM)).toBe("4");
});

test("the alert settings page (its signing secret) is never cached, before and after a roll", async ({ signedIn }) => {
  const first = await signedIn.open("/settings/alerts");
  expect(first.headers["cache-control"]).toBe("no-store");
  const saved = await save(signedIn, first, { webhook_url: "https://127.0.0.1:9/hooks/roll" });
  const old = saved.text('[data-testid="signing-secret"]');
  expect(old).toMatch(/^whsec_[\w-]{43}$/);
  const [roll] = saved.links("Roll signing secret");
  expect(roll, "the Roll signing secret link").toBeTruthy();
  const rolled = await press(signedIn, await signedIn.open(roll!), '[role="dialog"] form', "Roll secret");
  expect(rolled.url.pathname + rolled.url.search).toBe("/settings/alerts?rolled=1");
  const fresh = rolled.text('[data-testid="signing-secret"]');
  expect(fresh).toMatch(/^whsec_[\w-]{43}$/);
  expect(fresh).not.toBe(old);
  // The page after the roll is not cached either.
  const again = await signedIn.open("/settings/alerts");
  expect(again.headers["cache-control"]).toBe("no-store");
  expect(again.text('[data-testid="signing-secret"]')).toBe(fresh);
});
