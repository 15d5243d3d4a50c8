import { cloneTemplateDatabase } from "../support/backend.js";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBackend, type RunningBackend } from "../../backend/server.js";
import { createLogger } from "../../backend/lib/log.js";
import { randomToken, sha256 } from "../../backend/lib/crypto.js";
import { SESSION_COOKIE } from "../../contract/auth.js";
import { ALERT_MESSAGES as M, type AlertSettings } from "../../contract/alerts.js";
import type { SyncRun } from "../../contract/connectors.js";
import { startSmtpServer } from "../fakes/smtp.js";
import { CONFIRMATION_SUBJECT, confirmationToken } from "../support/alerts.js";

/**
 * Issue 51 item 5: alert e-mails of a shared workspace go to each member who asked for them, at their own confirmed
 * address; the webhook and the thresholds stay the workspace's. Real Postgres, the runs engine, a real SMTP server.
 */
const APP_URL = "http://localhost:3999";
let backend: RunningBackend;
let db: pg.Pool;
let dataDir: string;
let url: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let team: string;

interface User {
  id: string;
  cookie: string;
}
let ada: User;
let ben: User;
let cy: User;

async function createUser(email: string): Promise<User> {
  const { rows } = await db.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', $1, $1, 'Team Member') RETURNING id", [email]);
  const token = randomToken();
  await db.query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", [sha256(token), rows[0]!.id]);
  return { id: rows[0]!.id, cookie: `${SESSION_COOKIE}=${token}` };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  const databaseUrl = await cloneTemplateDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-alert-members-"));
  backend = await startBackend({
    role: "all",
    log: createLogger("silent"),
    env: { NODE_ENV: "test", DATABASE_URL: databaseUrl, TRIBUTARY_SECRET_KEY: randomBytes(32).toString("base64url"), BACKEND_PORT: "0", LOCAL_IDP_PORT: "0", APP_URL, DATA_DIR: dataDir, SMTP_URL: smtp.url },
  });
  url = `http://127.0.0.1:${backend.port}`;
  db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  ada = await createUser("ada-member@example.com");
  ben = await createUser("ben-member@example.com");
  cy = await createUser("cy-member@example.com");
  team = (await db.query<{ id: string }>("INSERT INTO workspaces (name) VALUES ('Data team') RETURNING id")).rows[0]!.id;
  await db.query("INSERT INTO workspace_members (workspace_id, user_id) VALUES ($1, $2), ($1, $3), ($1, $4)", [team, ada.id, ben.id, cy.id]);
  await db.query("UPDATE users SET current_workspace_id = $1 WHERE id = ANY($2)", [team, [ada.id, ben.id, cy.id]]);
}, 60_000);

afterAll(async () => {
  await db?.end();
  await backend?.stop();
  await smtp?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function call(user: User, method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}${route}`, { method, headers: { cookie: user.cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

const settingsOf = async (user: User) => (await call(user, "GET", "/alerts/settings")).body as AlertSettings;
const save = (user: User, body: Record<string, unknown>) => call(user, "PUT", "/alerts/settings", { email: "", webhook_url: "", warn_after: 3, pause_after: 10, ...body });

/** Saves the member's address and confirms it from the link mailed to it. */
async function saveAndConfirm(user: User, email: string, body: Record<string, unknown> = {}) {
  const saved = await save(user, { email, ...body });
  expect(saved.status).toBe(200);
  expect(saved.body).toMatchObject({ email, email_confirmed: false, confirmation: "sent" });
  const link = await smtp.waitFor((m) => m.to.includes(email) && m.subject === CONFIRMATION_SUBJECT);
  const confirmed = await call(user, "POST", "/email-confirmations", { token: confirmationToken(link) });
  expect(confirmed).toEqual({ status: 200, body: { email, message: M.confirmed(email) } });
  expect(await settingsOf(user)).toMatchObject({ email, email_confirmed: true });
}

/** A datagen connector of the team's, made by Ada, whose syncs fail for good (a source that claims to be Zoom). */
async function failingConnector(name: string) {
  const credential = await call(ada, "POST", "/externalauth/datagen/callback", {});
  const source = await call(ada, "POST", "/sources/create", { name, credentialId: credential.body.credential_id, integration_name: "datagen", integration_label: "Data Generator", source_metadata: { company: "Acme", format: "zoom" } });
  const destination = await call(ada, "POST", "/destinations/create", { name: `${name} disk`, integration_name: "local" });
  const created = await call(ada, "POST", "/connectors/create", { first_sync: false, name, frequency: "daily", source_id: source.body.id, destination_ids: [destination.body.destination.id], lookback_days: 1 });
  expect(created.status).toBe(201);
  await db.query("UPDATE sources SET integration_name = 'zoom' WHERE id = $1", [source.body.id]);
  const id = created.body.id as string;
  return async function sync(): Promise<SyncRun> {
    const started = await call(ada, "POST", `/connectors/${id}/sync`);
    expect(started.status).toBe(202);
    const runId = started.body.run.id as string;
    for (let i = 0; i < 300; i++) {
      const runs = (await call(ada, "GET", `/connectors/${id}/runs`)).body.runs as SyncRun[];
      const run = runs.find((r) => r.id === runId)!;
      if (run.status === "succeeded" || run.status === "failed") return run;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the run did not finish");
  };
}

/** The team's deliveries of a run, once `count` of them have ended. */
async function deliveriesOf(runId: string, count: number) {
  for (let i = 0; i < 200; i++) {
    const { rows } = await db.query("SELECT channel, status, attempts, last_error, target FROM alert_deliveries WHERE owner_id = $1 AND run_id = $2 ORDER BY target", [team, runId]);
    if (rows.length >= count && rows.every((r) => r.status !== "pending")) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the deliveries of run ${runId} did not end`);
}

it("each member sets their own address: B's save leaves A's as it was, the webhook and thresholds are shared", async () => {
  await saveAndConfirm(ada, "ada-alerts@example.com", { warn_after: 2, pause_after: 6 });
  await saveAndConfirm(ben, "ben-alerts@example.com", { warn_after: 3, pause_after: 10 });
  // Ben's save changed the workspace's thresholds, not Ada's address nor its confirmation.
  expect(await settingsOf(ada)).toMatchObject({ email: "ada-alerts@example.com", email_confirmed: true, warn_after: 3, pause_after: 10 });
  expect(await settingsOf(ben)).toMatchObject({ email: "ben-alerts@example.com", email_confirmed: true });
  // Cy set none: he sees the workspace's settings and no address of anyone's.
  expect(await settingsOf(cy)).toMatchObject({ email: "", email_confirmed: false, warn_after: 3, pause_after: 10 });
  // Ben's address is his in this workspace only: his personal workspace has none.
  const { rows } = await db.query("SELECT workspace_id::text, user_id::text, email FROM alert_recipients WHERE email <> '' AND workspace_id = $1 ORDER BY email", [team]);
  expect(rows).toEqual([
    { workspace_id: team, user_id: ada.id, email: "ada-alerts@example.com" },
    { workspace_id: team, user_id: ben.id, email: "ben-alerts@example.com" },
  ]);
  // Nothing waits for confirmation for either.
  expect(await call(ben, "POST", "/alerts/email/confirmation")).toEqual({ status: 409, body: { message: M.nothingToConfirm } });
});

it("a failing sync of the workspace mails every confirmed member, each delivery recorded; a member without an address gets nothing", async () => {
  const sync = await failingConnector("Team connector");
  const run = await sync();
  expect(run.status).toBe("failed");
  const link = `${APP_URL}/connectors/details/`;
  const toAda = await smtp.waitFor((m) => m.to.includes("ada-alerts@example.com") && m.text.includes(`/runs/${run.id}`));
  const toBen = await smtp.waitFor((m) => m.to.includes("ben-alerts@example.com") && m.text.includes(`/runs/${run.id}`));
  for (const mail of [toAda, toBen]) {
    expect(mail.to).toHaveLength(1);
    expect(mail.subject).toBe('Failed: the sync of the connector "Team connector"');
    expect(mail.text).toContain(link);
  }
  expect(await deliveriesOf(run.id, 2)).toEqual([
    { channel: "email", status: "delivered", attempts: 1, last_error: null, target: "ada-alerts@example.com" },
    { channel: "email", status: "delivered", attempts: 1, last_error: null, target: "ben-alerts@example.com" },
  ]);
  expect(smtp.mails.some((m) => m.to.includes("cy-member@example.com"))).toBe(false);
  const mailsOfRun = smtp.mails.filter((m) => m.text.includes(`/runs/${run.id}`));
  expect(mailsOfRun.map((m) => m.to[0]).sort()).toEqual(["ada-alerts@example.com", "ben-alerts@example.com"]);
  // Every member sees the workspace's deliveries.
  expect((await settingsOf(cy)).deliveries.filter((d) => d.subject.includes("Team connector"))).toHaveLength(2);

  // An unconfirmed address gets nothing either: Cy saves one and does not confirm it.
  expect((await save(cy, { email: "cy-alerts@example.com" })).body).toMatchObject({ email: "cy-alerts@example.com", email_confirmed: false });
  const second = await sync();
  const rows = await deliveriesOf(second.id, 3);
  expect(rows.find((r) => r.target === "cy-alerts@example.com")).toEqual({ channel: "email", status: "failed", attempts: 0, last_error: M.notConfirmed, target: "cy-alerts@example.com" });
  await smtp.waitFor((m) => m.to.includes("ben-alerts@example.com") && m.text.includes(`/runs/${second.id}`));
  expect(smtp.mails.some((m) => m.to.includes("cy-alerts@example.com") && m.text.includes(`/runs/${second.id}`))).toBe(false);

  // A removed member gets no more alerts: their address goes with their membership.
  await db.query("DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2", [team, ben.id]);
  expect((await db.query("SELECT 1 FROM alert_recipients WHERE workspace_id = $1 AND user_id = $2", [team, ben.id])).rowCount).toBe(0);
  const third = await sync();
  const after = await deliveriesOf(third.id, 2);
  expect(after.map((r) => r.target)).toEqual(["ada-alerts@example.com", "cy-alerts@example.com"]);
  await smtp.waitFor((m) => m.to.includes("ada-alerts@example.com") && m.text.includes(`/runs/${third.id}`));
  await new Promise((r) => setTimeout(r, 300));
  expect(smtp.mails.some((m) => m.to.includes("ben-alerts@example.com") && m.text.includes(`/runs/${third.id}`))).toBe(false);
  // Ada's address is as she confirmed it all along.
  expect(await settingsOf(ada)).toMatchObject({ email: "ada-alerts@example.com", email_confirmed: true });
});
