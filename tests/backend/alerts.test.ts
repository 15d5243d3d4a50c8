import { cloneTemplateDatabase } from "../support/backend.js";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startBackend, type RunningBackend } from "../../backend/server.js";
import { createLogger } from "../../backend/lib/log.js";
import { randomToken, sha256 } from "../../backend/lib/crypto.js";
import { SESSION_COOKIE } from "../../contract/auth.js";
import { ALERT_MESSAGES as M, type AlertSettings } from "../../contract/alerts.js";
import type { SyncRun } from "../../contract/connectors.js";
import { startSmtpServer } from "../fakes/smtp.js";
import { CONFIRMATION_SUBJECT, confirmationToken } from "../support/alerts.js";
import { startWebhookReceiver, verifySignature } from "../fakes/webhook-receiver.js";

/**
 * Alerts end to end on the real parts: the API and a worker (role all) on a real Postgres, syncs run by the runs
 * engine, e-mails received by a real SMTP server (smtp-server) and webhooks by a local HTTP server. The webhook
 * server is on loopback, which only TRIBUTARY_ALLOW_PRIVATE_HOSTS=true permits; the production rule is tested
 * with the setting removed.
 */
const APP_URL = "http://localhost:3999";
let backend: RunningBackend;
let db: pg.Pool;
let dataDir: string;
let url: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const saved = Object.fromEntries(["TRIBUTARY_ALLOW_PRIVATE_HOSTS", "ALERT_WEBHOOK_RETRY_MS"].map((name) => [name, process.env[name]]));

interface User {
  id: string;
  cookie: string;
}
let alice: User;
let bob: User;

async function createUser(email: string): Promise<User> {
  const { rows } = await db.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', $1, $1, 'Alert User') RETURNING id", [email]);
  const token = randomToken();
  await db.query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", [sha256(token), rows[0]!.id]);
  return { id: rows[0]!.id, cookie: `${SESSION_COOKIE}=${token}` };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startWebhookReceiver();
  process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS = "true";
  process.env.ALERT_WEBHOOK_RETRY_MS = "50";
  const databaseUrl = await cloneTemplateDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-alerts-"));
  backend = await startBackend({
    role: "all",
    log: createLogger("silent"),
    env: { NODE_ENV: "test", DATABASE_URL: databaseUrl, TRIBUTARY_SECRET_KEY: randomBytes(32).toString("base64url"), BACKEND_PORT: "0", LOCAL_IDP_PORT: "0", APP_URL, DATA_DIR: dataDir, SMTP_URL: smtp.url },
  });
  url = `http://127.0.0.1:${backend.port}`;
  db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  alice = await createUser("alice@example.com");
  bob = await createUser("bob@example.com");
}, 60_000);

afterAll(async () => {
  await db?.end();
  await backend?.stop();
  await smtp?.close();
  await receiver?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS = "true";
});

async function call(user: User, method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}${route}`, { method, headers: { cookie: user.cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

const settingsOf = async (user: User) => (await call(user, "GET", "/alerts/settings")).body as AlertSettings;
const save = (user: User, body: Record<string, unknown>) => call(user, "PUT", "/alerts/settings", { email: "", webhook_url: "", warn_after: 3, pause_after: 10, ...body });

/** A datagen connector writing to a local folder; `breakIt` makes its syncs fail for good (a source that claims to be Zoom). */
async function connector(user: User, name: string) {
  const credential = await call(user, "POST", "/externalauth/datagen/callback", {});
  const source = await call(user, "POST", "/sources/create", { name, credentialId: credential.body.credential_id, integration_name: "datagen", integration_label: "Data Generator", source_metadata: { company: "Acme", format: "zoom" } });
  await db.query("UPDATE sources SET metadata = metadata || jsonb_build_object('meetings_per_day', 2) WHERE id = $1", [source.body.id]);
  const destination = await call(user, "POST", "/destinations/create", { name: `${name} disk`, integration_name: "local" });
  const created = await call(user, "POST", "/connectors/create", { first_sync: false, name, frequency: "daily", source_id: source.body.id, destination_ids: [destination.body.destination.id], lookback_days: 1 });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  return {
    id,
    breakIt: () => db.query("UPDATE sources SET integration_name = 'zoom' WHERE id = $1", [source.body.id]),
    fixIt: () => db.query("UPDATE sources SET integration_name = 'datagen' WHERE id = $1", [source.body.id]),
    /** Sync now, through the real runs engine, until the run ends. */
    async sync(): Promise<SyncRun> {
      const started = await call(user, "POST", `/connectors/${id}/sync`);
      expect(started.status).toBe(202);
      const runId = started.body.run.id as string;
      for (let i = 0; i < 300; i++) {
        const runs = (await call(user, "GET", `/connectors/${id}/runs`)).body.runs as SyncRun[];
        const run = runs.find((r) => r.id === runId)!;
        if (run.status === "succeeded" || run.status === "failed") return run;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("the run did not finish");
    },
  };
}

/** Waits until the user's newest deliveries for a run have all ended (delivered or failed). */
async function deliveriesOf(user: User, runId: string, count: number) {
  for (let i = 0; i < 200; i++) {
    const { rows } = await db.query("SELECT event, channel, status, attempts, last_error, target FROM alert_deliveries WHERE owner_id = $1 AND run_id = $2 ORDER BY channel", [user.id, runId]);
    if (rows.length >= count && rows.every((r) => r.status !== "pending")) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the deliveries of run ${runId} did not end`);
}

describe("alert settings", () => {
  it("defaults, validation, saving, and each user sees only their own", async () => {
    const fresh = await settingsOf(alice);
    expect(fresh).toMatchObject({ email: "", webhook_url: "", warn_after: 3, pause_after: 10, signing_secret: null, signature_header: "Tributary-Signature", email_available: true, deliveries: [] });

    const bad = [
      [{ email: "not-an-address" }, "Please enter a valid e-mail address"],
      [{ webhook_url: "ftp://example.com/x" }, "The webhook URL must start with https://"],
      [{ webhook_url: "nonsense" }, "Please enter a valid URL, such as https://example.com/hooks/tributary"],
      [{ warn_after: 0 }, "The warning threshold must be a whole number from 1 to 1000"],
      [{ pause_after: "ten" }, "The auto-pause threshold must be a whole number from 1 to 1000"],
      [{ warn_after: 5, pause_after: 5 }, "Auto-pause must come after the warning: choose a number greater than the warning's"],
    ] as const;
    for (const [body, message] of bad) expect(await save(alice, body)).toEqual({ status: 400, body: { message } });
    expect((await call(alice, "PUT", "/alerts/settings", { email: "a@example.com" })).status).toBe(400);

    const first = await save(alice, { email: " alice@example.com ", webhook_url: receiver.url, warn_after: "2", pause_after: 4 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ email: "alice@example.com", webhook_url: receiver.url, warn_after: 2, pause_after: 4 });
    const secret = first.body.signing_secret as string;
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    // Stored sealed, never as it is shown.
    const { rows } = await db.query("SELECT signing_secret FROM alert_settings WHERE owner_id = $1", [alice.id]);
    expect(rows[0].signing_secret).not.toContain(secret);
    // The secret stays across saves.
    expect((await save(alice, { email: "alice@example.com", webhook_url: receiver.url, warn_after: 2, pause_after: 4 })).body.signing_secret).toBe(secret);

    // Bob sees his own (none), and his save does not touch Alice's.
    expect(await settingsOf(bob)).toMatchObject({ email: "", webhook_url: "", signing_secret: null });
    const bobs = await save(bob, { email: "bob@example.com" });
    expect(bobs.body.signing_secret).not.toBe(secret);
    expect(await settingsOf(alice)).toMatchObject({ email: "alice@example.com", signing_secret: secret });
    expect(await settingsOf(bob)).toMatchObject({ email: "bob@example.com", webhook_url: "" });

    expect((await fetch(`${url}/alerts/settings`)).status).toBe(401);
  });

  it("saves one channel alone, and removes each saved one (an empty or missing field means none)", async () => {
    const carol = await createUser("carol-channels@example.com");
    const onlyHook = await save(carol, { webhook_url: receiver.url });
    expect(onlyHook.status).toBe(200);
    expect(onlyHook.body).toMatchObject({ email: "", webhook_url: receiver.url });
    const onlyMail = await save(carol, { email: "carol@example.com", webhook_url: "" });
    expect(onlyMail.status).toBe(200);
    expect(onlyMail.body).toMatchObject({ email: "carol@example.com", webhook_url: "" });
    // Fields left out (or null) are empty too: the saved e-mail is removed.
    const none = await call(carol, "PUT", "/alerts/settings", { email: null, warn_after: 3, pause_after: 10 });
    expect(none.status).toBe(200);
    expect(await settingsOf(carol)).toMatchObject({ email: "", webhook_url: "" });
    // A value of the wrong kind is still a sentence, never "Required" nor "Expected string".
    expect(await save(carol, { email: 42 })).toEqual({ status: 400, body: { message: "Please enter a valid e-mail address" } });
  });

  it("refuses a webhook that is not https or not on the public internet without TRIBUTARY_ALLOW_PRIVATE_HOSTS (production)", async () => {
    delete process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS;
    expect(await save(bob, { webhook_url: receiver.url })).toEqual({ status: 400, body: { message: "The webhook URL must start with https://" } });
    for (const [hook, address] of [
      ["https://127.0.0.1/hook", "127.0.0.1 is not a public address"],
      ["https://10.1.2.3/hook", "10.1.2.3 is not a public address"],
      ["https://[::1]/hook", "[::1] is not a public address"],
      ["https://169.254.169.254/latest", "169.254.169.254 is not a public address"],
      ["https://localhost/hook", "localhost is not a public address"],
    ] as const) {
      const answer = await save(bob, { webhook_url: hook });
      expect(answer.status, hook).toBe(400);
      expect(answer.body.message, hook).toMatch(/^The webhook URL cannot be used: /);
      expect(answer.body.message, hook).toContain(address);
    }
    expect((await settingsOf(bob)).webhook_url).toBe("");
  });
});

describe("alerts from the runs engine", () => {
  it("finding F3: an address gets alert e-mails only once its reader confirmed it from the link mailed to it", async () => {
    // Alice's address was saved above: a confirmation link went to it, and nothing else will until it is used.
    expect(await settingsOf(alice)).toMatchObject({ email: "alice@example.com", email_confirmed: false });
    const firstLink = smtp.mails.find((m) => m.to.includes("alice@example.com") && m.subject === CONFIRMATION_SUBJECT);
    expect(firstLink?.text).toContain(`${APP_URL}/settings/alerts/confirm?token=`);
    const c = await connector(alice, "Before confirming");
    await c.breakIt();
    const run = await c.sync();
    expect(run.status).toBe("failed");
    expect(await deliveriesOf(alice, run.id, 2)).toEqual([
      { event: "sync.failed", channel: "email", status: "failed", attempts: 0, last_error: M.notConfirmed, target: "alice@example.com" },
      { event: "sync.failed", channel: "webhook", status: "delivered", attempts: 1, last_error: null, target: receiver.url },
    ]);
    expect(smtp.mails.some((m) => m.text.includes(`/runs/${run.id}`))).toBe(false);

    // A new link replaces the first; a token that is not the latest one's confirms nothing.
    const mailsBefore = smtp.mails.length;
    const resent = await call(alice, "POST", "/alerts/email/confirmation");
    expect(resent).toMatchObject({ status: 200, body: { confirmation: "sent", email_confirmed: false, message: M.confirmationSent("alice@example.com") } });
    const mail = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= mailsBefore && m.subject === CONFIRMATION_SUBJECT && m.to.includes("alice@example.com"));
    const confirm = (token: unknown) => call(alice, "POST", "/email-confirmations", { token });
    expect(await confirm(confirmationToken(firstLink!))).toEqual({ status: 400, body: { message: M.confirmLinkInvalid } });
    expect(await confirm("made-up")).toEqual({ status: 400, body: { message: M.confirmLinkInvalid } });
    expect((await confirm("")).status).toBe(400);
    expect((await confirm(42)).status).toBe(400);
    // The link works without a session: whoever reads the address confirms it.
    const anonymous = await fetch(`${url}/email-confirmations`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: confirmationToken(mail) }) });
    expect({ status: anonymous.status, body: await anonymous.json() }).toEqual({ status: 200, body: { email: "alice@example.com", message: M.confirmed("alice@example.com") } });
    expect(await confirm(confirmationToken(mail))).toEqual({ status: 400, body: { message: M.confirmLinkInvalid } });
    expect(await settingsOf(alice)).toMatchObject({ email_confirmed: true });
    expect(await call(alice, "POST", "/alerts/email/confirmation")).toEqual({ status: 409, body: { message: M.nothingToConfirm } });
    // Saving the same address again keeps it confirmed (only a new address needs a new link).
    const same = await save(alice, { email: "Alice@Example.com ", webhook_url: receiver.url });
    expect(same.body).toMatchObject({ email_confirmed: true });
    expect(same.body.confirmation).toBeUndefined();
    await save(alice, { email: "alice@example.com", webhook_url: receiver.url });
  });

  it("finding F3: at most three confirmation links an hour, said in words (429)", async () => {
    // Bob's first save sent one; two more may go this hour, then none.
    for (let i = 0; i < 2; i++) expect((await call(bob, "POST", "/alerts/email/confirmation")).status).toBe(200);
    const links = () => smtp.mails.filter((m) => m.to.includes("bob@example.com") && m.subject === CONFIRMATION_SUBJECT);
    await smtp.waitFor(() => links().length === 3);
    expect(await call(bob, "POST", "/alerts/email/confirmation")).toEqual({ status: 429, body: { message: M.confirmationLimited } });
    // Refused, it leaves the link already mailed valid: the last one still confirms the address.
    const confirmed = await call(bob, "POST", "/email-confirmations", { token: confirmationToken(links().at(-1)!) });
    expect(confirmed).toEqual({ status: 200, body: { email: "bob@example.com", message: M.confirmed("bob@example.com") } });
    // A new address is saved all the same; its link waits for the next hour.
    const saved = await save(bob, { email: "bob2@example.com" });
    expect(saved.body).toMatchObject({ email: "bob2@example.com", email_confirmed: false, confirmation: "limited" });
    await save(bob, { email: "" });
  });

  it("confirmation links are counted by mailbox: three accounts with +tag and upper-case variants of one address send it three links in all (issue 50 item 8)", async () => {
    const accounts = await Promise.all(["tag1@example.com", "tag2@example.com", "tag3@example.com"].map(createUser));
    const variants = ["victim+one@example.com", "Victim+Two@Example.COM", "VICTIM@example.com"];
    const answers: string[] = [];
    for (const [i, account] of accounts.entries()) {
      const saved = await save(account, { email: variants[i] });
      answers.push(saved.body.confirmation as string);
      for (let again = 0; again < 2; again++) {
        const resent = await call(account, "POST", "/alerts/email/confirmation");
        answers.push(resent.status === 200 ? resent.body.confirmation : resent.status === 429 ? "limited" : `${resent.status}`);
      }
    }
    expect(answers.filter((answer) => answer === "sent")).toHaveLength(3);
    expect(answers.filter((answer) => answer === "limited")).toHaveLength(6);
    const toVictim = () => smtp.mails.filter((m) => m.to.some((to) => /^victim(\+\w+)?@example\.com$/i.test(to)) && m.subject === CONFIRMATION_SUBJECT);
    await smtp.waitFor(() => toVictim().length === 3);
    // Another mailbox of the same domain is counted on its own.
    const fourth = await createUser("tag4@example.com");
    expect((await save(fourth, { email: "victim.other+x@example.com" })).body.confirmation).toBe("sent");
    for (const account of [...accounts, fourth]) await save(account, { email: "" });
  });

  it("a failing sync: an e-mail and a signed webhook (retried after a 503), each delivery recorded; then the recovery notice", async () => {
    await save(alice, { email: "alice@example.com", webhook_url: receiver.url, warn_after: 3, pause_after: 10 });
    const { signing_secret: secret } = await settingsOf(alice);
    const c = await connector(alice, "Fails once");
    await c.breakIt();
    receiver.failNext(1);
    const run = await c.sync();
    expect(run.status).toBe("failed");
    const link = `${APP_URL}/connectors/details/${c.id}/runs/${run.id}`;

    const mail = await smtp.waitFor((m) => m.text.includes(link));
    expect(mail.to).toEqual(["alice@example.com"]);
    expect(mail.subject).toBe('Failed: the sync of the connector "Fails once"');
    expect(mail.text).toContain(`Error: ${run.error}`);
    expect(mail.text).toContain(`Details: ${link}`);

    const hook = await receiver.waitFor((h) => h.json.data.run.id === run.id);
    expect(hook.headers["content-type"]).toBe("application/json");
    expect(hook.headers["tributary-event"]).toBe("sync.failed");
    expect(verifySignature(hook.headers["tributary-signature"] as string, hook.body, secret!)).toBe(true);
    expect(verifySignature(hook.headers["tributary-signature"] as string, hook.body, "whsec_wrong")).toBe(false);
    expect(hook.json).toMatchObject({ type: "sync.failed", data: { connector: { id: c.id, name: "Fails once" }, run: { id: run.id, status: "failed", error: run.error }, failures_in_a_row: 1, paused: false, url: link } });
    expect(hook.headers["tributary-delivery"]).toBe(hook.json.id);

    const deliveries = await deliveriesOf(alice, run.id, 2);
    expect(deliveries).toEqual([
      { event: "sync.failed", channel: "email", status: "delivered", attempts: 1, last_error: null, target: "alice@example.com" },
      { event: "sync.failed", channel: "webhook", status: "delivered", attempts: 2, last_error: null, target: receiver.url },
    ]);
    const listed = (await settingsOf(alice)).deliveries;
    // Newest first: this run's two (the run before confirming has its own, further down).
    expect(listed.filter((d) => d.event === "sync.failed").slice(0, 2).map((d) => d.status)).toEqual(["delivered", "delivered"]);
    expect((await settingsOf(bob)).deliveries).toEqual([]);

    // Fixed: the first success after the failure sends the recovery notice; a second success sends nothing.
    await c.fixIt();
    const recovered = await c.sync();
    expect(recovered.status).toBe("succeeded");
    const notice = await receiver.waitFor((h) => h.json.data.run.id === recovered.id);
    expect(notice.json).toMatchObject({ type: "sync.recovered", data: { run: { status: "succeeded" }, failures_in_a_row: 0 } });
    const recoveryMail = await smtp.waitFor((m) => m.subject.startsWith("Recovered") && m.text.includes(`${APP_URL}/connectors/details/${c.id}/runs/${recovered.id}`));
    expect(recoveryMail.text).toContain("succeeded after 1 failure in a row");
    const again = await c.sync();
    expect(again.status).toBe("succeeded");
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.hooks.some((h) => h.json.data.run.id === again.id)).toBe(false);
  });

  it("a warning at N failures in a row and an auto-pause at M, through the connector's own pause", async () => {
    await save(alice, { email: "alice@example.com", webhook_url: receiver.url, warn_after: 2, pause_after: 4 });
    const c = await connector(alice, "Keeps failing");
    await c.breakIt();
    const types: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const run = await c.sync();
      expect(run.status).toBe("failed");
      const hook = await receiver.waitFor((h) => h.json.data.run.id === run.id);
      expect(hook.json.data.failures_in_a_row).toBe(i);
      types.push(hook.json.type);
      await deliveriesOf(alice, run.id, 2);
    }
    expect(types).toEqual(["sync.failed", "sync.warning", "sync.failed", "connector.paused"]);
    const record = (await call(alice, "GET", `/connectors/list-by-id/${c.id}`)).body;
    expect(record.paused).toBe(true);
    const pausedMail = await smtp.waitFor((m) => m.subject === 'Paused: the connector "Keeps failing" failed 4 times in a row');
    expect(pausedMail.text).toContain("so Tributary paused its schedule");
    const warning = await smtp.waitFor((m) => m.subject === 'Warning: the connector "Keeps failing" failed 2 times in a row');
    expect(warning.to).toEqual(["alice@example.com"]);
    const paused = receiver.hooks.find((h) => h.json.type === "connector.paused" && (h.json.data.connector as { id: string }).id === c.id)!;
    expect(paused.json.data.paused).toBe(true);

    // Still paused and failing (Sync now works while paused): failed notices, no second pause.
    const fifth = await c.sync();
    expect((await receiver.waitFor((h) => h.json.data.run.id === fifth.id)).json.type).toBe("sync.failed");
  });

  it("a failing transform run and its recovery, with a link to the transform", async () => {
    await save(alice, { email: "", webhook_url: receiver.url, warn_after: 3, pause_after: 10 });
    const c = await connector(alice, "Feeds a transform");
    const created = await call(alice, "POST", "/transforms/create", {
      template_id: "topic_modeling",
      name: "Topics that fail",
      description: "",
      connector_id: c.id,
      permissions_setup: true,
      frequency: "daily",
      file_types: [".vtt"],
      status: "PENDING",
    });
    const id = created.body.transform_id as string;
    const waitForRun = async (runId: string) => {
      for (let i = 0; i < 300; i++) {
        const runs = (await call(alice, "GET", `/transforms/${id}/runs`)).body.runs as { id: string; status: string; error: string | null }[];
        const run = runs.find((r) => r.id === runId);
        if (run && (run.status === "succeeded" || run.status === "failed")) return run;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("the transform run did not finish");
    };
    expect((await waitForRun(created.body.run_id)).status).toBe("succeeded");
    // The hosted model is not configured on this server: the run fails for good.
    await db.query(`UPDATE transforms SET inputs = inputs || '{"provider": "hosted_llm"}'::jsonb WHERE id = $1`, [id]);
    const failed = await waitForRun((await call(alice, "POST", `/transforms/${id}/run`)).body.run.id);
    expect(failed.status).toBe("failed");
    const hook = await receiver.waitFor((h) => h.json.data.run.id === failed.id);
    expect(hook.json).toMatchObject({
      type: "transform.failed",
      subject: 'Failed: the run of the transform "Topics that fail"',
      data: { transform: { id, name: "Topics that fail" }, run: { error: failed.error }, failures_in_a_row: 1, url: `${APP_URL}/transforms/details/${id}/runs/${failed.id}` },
    });
    expect(hook.json.data).not.toHaveProperty("paused");
    await db.query(`UPDATE transforms SET inputs = inputs - 'provider' WHERE id = $1`, [id]);
    const fixed = await waitForRun((await call(alice, "POST", `/transforms/${id}/run`)).body.run.id);
    expect(fixed.status).toBe("succeeded");
    expect((await receiver.waitFor((h) => h.json.data.run.id === fixed.id)).json.type).toBe("transform.recovered");
  });

  it("Roll signing secret: a new secret at once, the old one no longer signs (finding F7)", async () => {
    const dave = await createUser("dave-roll@example.com");
    expect(await call(dave, "POST", "/alerts/signing-secret/roll", {})).toEqual({ status: 409, body: { message: "Save your settings once to get a signing secret." } });
    expect((await save(dave, { webhook_url: receiver.url })).status).toBe(200);
    const old = (await settingsOf(dave)).signing_secret!;
    const rolled = await call(dave, "POST", "/alerts/signing-secret/roll", {});
    expect(rolled.status).toBe(200);
    expect(rolled.body.message).toBe("Signing secret rolled: webhooks are now signed with the new secret only.");
    const fresh = rolled.body.signing_secret as string;
    expect(fresh).toMatch(/^whsec_[\w-]{43}$/);
    expect(fresh).not.toBe(old);
    expect((await settingsOf(dave)).signing_secret).toBe(fresh);
    // Another user's secret is untouched by Dave's roll, and the roll needs a session.
    expect((await settingsOf(alice)).signing_secret).not.toBe(fresh);
    expect((await fetch(`${url}/alerts/signing-secret/roll`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);

    const c = await connector(dave, "Signed anew");
    await c.breakIt();
    const run = await c.sync();
    const hook = await receiver.waitFor((h) => h.json.data.run.id === run.id);
    expect(verifySignature(hook.headers["tributary-signature"] as string, hook.body, fresh)).toBe(true);
    expect(verifySignature(hook.headers["tributary-signature"] as string, hook.body, old)).toBe(false);
  });

  it("re-checks the webhook's address at send time: a loopback URL saved while allowed is not called once it is not", async () => {
    const hook = `https://127.0.0.1:${receiver.port}/hooks/tributary`;
    expect((await save(bob, { email: "", webhook_url: hook })).status).toBe(200);
    const c = await connector(bob, "Bob's failing");
    await c.breakIt();
    delete process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS;
    const before = receiver.attempts();
    const run = await c.sync();
    const [delivery] = await deliveriesOf(bob, run.id, 1);
    expect(delivery).toMatchObject({ channel: "webhook", status: "failed", attempts: 1, target: hook });
    expect(delivery.last_error).toBe("The webhook URL cannot be used: 127.0.0.1 is not a public address: Tributary connects only to hosts on the public internet.");
    expect(receiver.attempts()).toBe(before);
  });
});
