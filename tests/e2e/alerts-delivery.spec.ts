import path from "node:path";
import type { Page } from "@playwright/test";
import pg from "pg";
import { startFakeZoom, type FakeZoom } from "../fakes/zoom";
import { startSmtpServer, type ReceivedMail } from "../fakes/smtp";
import { CONFIRMATION_SUBJECT, confirmationLink } from "../support/alerts";
import { startWebhookReceiver, verifySignature } from "../fakes/webhook-receiver";
import { seedLocalDestination } from "./db";
import { E2E_PORTS, RESULTS_DIR } from "./env";
import { expect, expectAccessible, expectAccessibleAtEveryWidth, login, test } from "./fixtures";
import { startTributary, type TributaryInstance } from "./server";

/**
 * Issue 27, JS on and off: a sync that fails because its provider errors (the fake Zoom answers 403), seen as a user
 * and an operator see it: Failed in the list and on the connector's page, an e-mail through SMTP (received by this
 * spec's own SMTP server) and a signed webhook (its signature checked with the secret the settings page shows) for
 * each failure, the warning at the third failure in a row, the auto-pause at the tenth, and the recovery notice once
 * the provider answers again. The run's own Tributary has no SMTP_URL, so this spec starts a second one beside it,
 * with its own fake Zoom, on ports of its own per project.
 */
test.describe.configure({ mode: "serial" });

let server: TributaryInstance;
let zoom: FakeZoom;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their first argument
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(150_000);
  zoom = await startFakeZoom({ port: 0 });
  smtp = await startSmtpServer();
  receiver = await startWebhookReceiver();
  const offset = testInfo.project.name === "js-off" ? 45 : 40;
  const ports = { app: E2E_PORTS.app + offset, backend: E2E_PORTS.backend + offset, localIdp: E2E_PORTS.localIdp + offset, postgres: E2E_PORTS.postgres + offset };
  server = await startTributary({
    ports,
    appUrl: `http://localhost:${ports.app}`,
    logFile: path.resolve(RESULTS_DIR, `e2e-server-alerts-${testInfo.project.name}.log`),
    env: {
      SMTP_URL: smtp.url,
      SMTP_FROM: "Tributary <alerts@tributary.test>",
      ZOOM_CLIENT_ID: zoom.clientId,
      ZOOM_CLIENT_SECRET: zoom.clientSecret,
      ZOOM_OAUTH_BASE_URL: zoom.oauthBaseUrl,
      ZOOM_API_BASE_URL: zoom.apiBaseUrl,
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await Promise.all([zoom?.close(), smtp?.close(), receiver?.close()]);
});

async function withServerDb<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A Zoom source made as a user makes one: authorized at (the fake) Zoom and back, the whole organization. */
async function connectZoom(page: Page, name: string): Promise<void> {
  await page.goto(new URL("/sources/add/zoom", server.appUrl).href);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(zoom.oauthBaseUrl) && url.pathname === "/oauth/authorize");
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page.getByText("Authenticated with Zoom")).toBeVisible();
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/sources$/);
}

/** A local-folder destination and an active connector from the source to it (the create forms have their own specs). */
async function seedConnector(email: string, sourceName: string, name: string): Promise<string> {
  return withServerDb(async (client) => {
    const { rows: users } = await client.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [email.toLowerCase()]);
    const ownerId = users[0]!.id;
    const { rows: sources } = await client.query<{ id: string }>("SELECT id FROM sources WHERE owner_id = $1 AND name = $2", [ownerId, sourceName]);
    const destinationId = await seedLocalDestination(client, ownerId, "Ops folder");
    // Manual only: the scheduler must not queue runs of its own while the spec counts failures.
    const { rows: connectors } = await client.query<{ id: string }>(
      `INSERT INTO connectors (owner_id, name, source_id, platform, frequency, lookback_days, schedule)
       VALUES ($1, $2, $3, 'zoom', 'daily', 7, '{"kind":"manual"}') RETURNING id`,
      [ownerId, name, sources[0]!.id],
    );
    await client.query("INSERT INTO connector_destinations (connector_id, destination_id) VALUES ($1, $2)", [connectors[0]!.id, destinationId]);
    return connectors[0]!.id;
  });
}

/** Sync now on the connector's page, until its newest run has ended; answers that run's status. */
async function syncNow(page: Page): Promise<string> {
  const before = await page.locator("tbody tr[data-run-status]").count();
  await page.getByRole("button", { name: "Sync now" }).click();
  const newest = page.locator("tbody tr[data-run-status]").first();
  await expect(page.locator("tbody tr[data-run-status]")).toHaveCount(before + 1, { timeout: 30_000 });
  await expect(newest).toHaveAttribute("data-run-status", /^(succeeded|failed)$/, { timeout: 30_000 });
  return (await newest.getAttribute("data-run-status"))!;
}

test("a failing provider: Failed everywhere, an e-mail and a signed webhook per failure, a warning, an auto-pause, then the recovery", async ({ page, user }) => {
  // Over 30 s: ten failed syncs in a row (the auto-pause comes at the tenth), each with its e-mail and webhook, then one
  // that succeeds.
  test.setTimeout(240_000);
  await login(page, user, { app: server.appUrl, from: "/settings/alerts" });

  // Where alerts go, and the webhook's signing secret (shown to its owner once saved).
  await page.getByLabel("E-mail address").fill(user.email);
  await page.getByLabel("Webhook URL").fill(receiver.url);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Alert settings saved.");
  const secret = (await page.getByTestId("signing-secret").textContent())!;

  // Finding F3: alert e-mails wait until the address is confirmed from the link mailed to it (opening the link alone
  // confirms nothing: its page has a Confirm button).
  const confirmation = page.getByTestId("email-confirmation");
  await expect(confirmation).toContainText(`We sent a confirmation link to ${user.email}.`);
  const linkMail = await smtp.waitFor((m) => m.subject === CONFIRMATION_SUBJECT && m.to.includes(user.email.toLowerCase()));
  await page.goto(confirmationLink(linkMail));
  await expect(page.getByRole("heading", { name: "Confirm alert e-mails" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText(`Confirmed: alert e-mails will go to ${user.email}.`);
  await page.goto(new URL("/settings/alerts", server.appUrl).href);
  await expect(confirmation).toHaveCount(0);
  await expect(page.getByText("Alerts are e-mailed here (confirmed).")).toBeVisible();

  await connectZoom(page, "Company Zoom");
  const connectorId = await seedConnector(user.email, "Company Zoom", "Zoom to ops folder");
  const runLink = (runId: string) => new URL(`/connectors/details/${connectorId}/runs/${runId}`, server.appUrl).href;

  // Zoom refuses every API call (403: the app lost its scopes): a failure retrying cannot fix.
  zoom.fail({ path: /^\/v2\//, status: 403, times: 1_000 });
  await page.goto(new URL(`/connectors/details/${connectorId}`, server.appUrl).href);
  expect(await syncNow(page)).toBe("failed");
  const failedRun = page.locator("tbody tr[data-run-status]").first();
  await expect(failedRun).toContainText("Failed");

  // The e-mail: to the address saved, with the error and a link to the run.
  const mail = await smtp.waitFor((m) => m.subject === 'Failed: the sync of the connector "Zoom to ops folder"');
  expect(mail.to).toEqual([user.email.toLowerCase()]);
  expect(mail.text).toContain("Error: Zoom refused to list the account's users (Request refused).");
  const firstRunId = /\/runs\/([0-9a-f-]{36})/.exec(mail.text)![1]!;
  expect(mail.text).toContain(`Details: ${runLink(firstRunId)}`);

  // The webhook: signed with the secret the settings page showed, about the same run.
  const hook = await receiver.waitFor((h) => h.json.data.run.id === firstRunId);
  expect(hook.headers["tributary-event"]).toBe("sync.failed");
  expect(verifySignature(hook.headers["tributary-signature"] as string, hook.body, secret)).toBe(true);
  expect(verifySignature(hook.headers["tributary-signature"] as string, hook.body, "whsec_not-the-secret")).toBe(false);
  expect(hook.json.data).toMatchObject({ connector: { id: connectorId, name: "Zoom to ops folder" }, run: { status: "failed" }, failures_in_a_row: 1, paused: false, url: runLink(firstRunId) });

  // The connector's page says it is failing, with the error; its link opens the run, whose log says why.
  await page.reload();
  const failing = page.getByTestId("failure-banner");
  await expect(failing).toContainText("This connector is failing");
  await expect(failing).toContainText("Last error: Zoom refused to list the account's users (Request refused).");
  await failing.getByRole("link").first().click();
  await expect(page).toHaveURL(runLink(firstRunId));
  await expect(page.getByText("Failed", { exact: true }).first()).toBeVisible();
  const log = page.getByRole("region", { name: "Run log" });
  await expect(log).toContainText("Queued by hand");
  await expect(log).toContainText("Attempt 1 failed (retrying cannot help): Zoom refused to list the account's users (Request refused).");

  // The list says Failed too.
  await page.goto(new URL("/connectors", server.appUrl).href);
  await expect(page.getByRole("row", { name: /Zoom to ops folder/ })).toContainText("Failed");

  // Nine more failures: the warning at the third in a row, the auto-pause at the tenth (the defaults, 3 and 10).
  await page.goto(new URL(`/connectors/details/${connectorId}`, server.appUrl).href);
  for (let i = 2; i <= 10; i++) expect(await syncNow(page)).toBe("failed");
  const about = (subject: string) => (m: ReceivedMail) => m.subject === subject;
  await smtp.waitFor(about('Warning: the connector "Zoom to ops folder" failed 3 times in a row'));
  const pausedMail = await smtp.waitFor(about('Paused: the connector "Zoom to ops folder" failed 10 times in a row'));
  expect(pausedMail.text).toContain("so Tributary paused its schedule");
  const pausedHook = await receiver.waitFor((h) => h.json.type === "connector.paused");
  expect(pausedHook.json.data).toMatchObject({ failures_in_a_row: 10, paused: true });
  expect(verifySignature(pausedHook.headers["tributary-signature"] as string, pausedHook.body, secret)).toBe(true);
  expect(smtp.mails.filter((m) => m.subject.startsWith("Failed:"))).toHaveLength(8);
  await page.reload();
  await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
  await page.goto(new URL("/connectors", server.appUrl).href);
  await expect(page.getByRole("row", { name: /Zoom to ops folder/ })).toContainText("Paused");

  // Zoom answers again: resumed and synced, the recovery notice goes out by both channels.
  zoom.clearFaults();
  await page.goto(new URL(`/connectors/details/${connectorId}`, server.appUrl).href);
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
  expect(await syncNow(page)).toBe("succeeded");
  const recovered = await smtp.waitFor(about('Recovered: the connector "Zoom to ops folder" ran successfully'));
  expect(recovered.text).toContain("succeeded after 10 failures in a row");
  const recoveredHook = await receiver.waitFor((h) => h.json.type === "sync.recovered");
  expect(verifySignature(recoveredHook.headers["tributary-signature"] as string, recoveredHook.body, secret)).toBe(true);
  await page.goto(new URL("/connectors", server.appUrl).href);
  await expect(page.getByRole("row", { name: /Zoom to ops folder/ })).toContainText("Healthy");

  // Every delivery is listed on the settings page (newest first), each delivered at its first attempt.
  await page.goto(new URL("/settings/alerts", server.appUrl).href);
  const rows = page.getByRole("region", { name: "Recent alerts" }).locator("tbody tr");
  await expect(rows).not.toHaveCount(0);
  const statuses = await rows.locator("td:nth-child(5)").allTextContents();
  expect(statuses.length).toBeGreaterThanOrEqual(2);
  expect(new Set(statuses.map((s) => s.trim()))).toEqual(new Set(["Delivered"]));
});

test("an old or used confirmation link: Send a new link mails a new one, and the newest link confirms the address", async ({ page, user, allowConsoleErrors }) => {
  // Confirm with a link that is not valid any more answers 400.
  allowConsoleErrors(/Failed to load resource: the server responded with a status of 400/);
  await login(page, user, { app: server.appUrl, from: "/settings/alerts" });
  const settingsUrl = new URL("/settings/alerts", server.appUrl).href;
  const notice = page.getByTestId("email-confirmation");
  const sendNewLink = notice.getByRole("button", { name: "Send a new link" });
  const confirm = page.getByRole("button", { name: "Confirm", exact: true });
  const notValid = "This confirmation link is not valid any more. Open the latest one we sent, or send a new one from the alert settings.";
  /** The links mailed to the user's address so far, oldest first, once there are `count` of them. */
  const links = async (count: number) => {
    const mailed = () => smtp.mails.filter((m) => m.subject === CONFIRMATION_SUBJECT && m.to.includes(user.email.toLowerCase()));
    await expect.poll(() => mailed().length, { message: `confirmation e-mails to ${user.email}`, timeout: 20_000 }).toBe(count);
    return mailed().map(confirmationLink);
  };

  // Saving the address mails its first link.
  await page.getByLabel("E-mail address").fill(user.email);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Alert settings saved.");
  await expect(notice).toContainText(`We sent a confirmation link to ${user.email}. Alert e-mails go there once it is opened.`);
  const [first] = await links(1);
  await expectAccessibleAtEveryWidth(page);

  // Send a new link: a second e-mail, with another link.
  await sendNewLink.click();
  await expect(page).toHaveURL(/\/settings\/alerts\?confirmation=sent$/);
  await expect(notice).toContainText(`We sent a confirmation link to ${user.email}. Alert e-mails go there once it is opened.`);
  const [, second] = await links(2);
  expect(second).not.toBe(first);

  // The first link is not valid any more: its page says so, and leads to the alert settings, where the address still
  // waits for confirmation and Send a new link is offered again.
  await page.goto(first!);
  await confirm.click();
  await expect(page.getByRole("alert")).toHaveText(notValid);
  await expect(page.getByRole("status")).toHaveCount(0);
  await page.getByRole("link", { name: "Go to alert settings" }).click();
  await expect(page).toHaveURL(settingsUrl);
  await expect(notice).toContainText(`Alert e-mails to ${user.email} wait for the address to be confirmed: open the link we sent there.`);
  await expectAccessibleAtEveryWidth(page);
  await sendNewLink.click();
  await expect(notice).toContainText(`We sent a confirmation link to ${user.email}. Alert e-mails go there once it is opened.`);
  const [, , third] = await links(3);

  // The newest link confirms the address; used, it is not valid any more, and neither is the one before it.
  await page.goto(third!);
  await confirm.click();
  await expect(page.getByRole("status")).toHaveText(`Confirmed: alert e-mails will go to ${user.email}.`);
  for (const used of [third!, second!]) {
    await page.goto(used);
    await confirm.click();
    await expect(page.getByRole("alert")).toHaveText(notValid);
  }
  await page.goto(settingsUrl);
  await expect(page.getByText("Alerts are e-mailed here (confirmed).")).toBeVisible();
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send a new link" })).toHaveCount(0);
});
