import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { PermanentReadError, type EmailMessage } from "../../backend/integrations/sources/index.js";
import { PostgresWarehouse } from "../../backend/integrations/destinations/postgres/warehouse.js";
import type { PostgresTarget } from "../../backend/integrations/destinations/postgres/connect.js";
import { syncConnector } from "../../backend/sync/index.js";
import { FILES_DIR } from "../../backend/integrations/destinations/local/writer.js";
import { safeId } from "../../backend/integrations/sources/kit/ids.js";
import { SOURCE_MESSAGES } from "../../contract/sources.js";
import { OUTLOOK_MESSAGES } from "../../contract/integrations/outlook.js";
import { startFakeOutlook, type FakeOutlook, type FakeOutlookMessage } from "../fakes/outlook.js";
import { consentPage, startReadingBackend, warehouse, type ReadingBackend } from "../support/reading.js";
import { userPostgresDatabase } from "../support/user-postgres.js";
import { runProgram } from "../support/programs.js";

/**
 * The Outlook source against the fake Microsoft identity platform and Graph mail (tests/fakes/outlook.ts): the admin
 * consent and its refusals (declined, a tenant that never consented, the wrong tenant), the groups, the connection test
 * (Mail.Read missing, a revoked consent), create, the reader (scope, window, paging, bodies, 429 / 500 / 403 / 401) and
 * syncs to a local destination and to PostgreSQL, where an e-mail template's program reads the rows.
 */
const APP_URL = "http://localhost:3998";
const DAY = 86_400_000;
const ANCHOR = new Date("2026-03-10T00:00:00Z");
const lastDays = (days: number) => ({ from: new Date(ANCHOR.getTime() - days * DAY), to: ANCHOR });
const UNKNOWN_TENANT = "00000000-1111-4222-8333-444444444444";

let reading: ReadingBackend;
let ms: FakeOutlook;

const call = (method: string, route: string, body?: unknown) => reading.call(method, route, body);
const post = (route: string, body?: unknown) => call("POST", route, body);

function configure() {
  Object.assign(process.env, {
    TEAMS_CLIENT_ID: ms.clientId,
    TEAMS_CLIENT_SECRET: ms.clientSecret,
    OUTLOOK_LOGIN_BASE_URL: ms.loginBaseUrl,
    OUTLOOK_GRAPH_BASE_URL: ms.graphBaseUrl,
  });
}

/** The administrator's consent in the browser: the consent page, Accept, and Microsoft's redirect back. */
async function consent(): Promise<{ tenant: string; admin_consent: string }> {
  const { body } = await call("GET", "/externalauth/outlook/auth_url");
  const back = await consentPage(body.auth_url, "/organizations/v2.0/adminconsent", "accept");
  expect(back.origin + back.pathname).toBe(`${APP_URL}/sources/add/outlook`);
  expect(back.searchParams.get("state")).toBe(body.state);
  return { tenant: back.searchParams.get("tenant")!, admin_consent: back.searchParams.get("admin_consent")! };
}

async function connect(): Promise<string> {
  const response = await post("/externalauth/outlook/callback", await consent());
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.setup_verified).toBe(false);
  return response.body.credential_id;
}

/** A verified source of this scope (a connection test of it first). */
async function verifiedSource(name: string, metadata: Record<string, string>): Promise<string> {
  const credentialId = await connect();
  const scope = metadata.outlook_extraction_scope!;
  const test = await post("/externalauth/outlook/test_connection", { credential_id: credentialId, scope, ...(scope === "GROUP" ? { group_id: metadata.outlook_group_id } : {}) });
  expect(test.body.status, test.body.message).toBe("success");
  return reading.createSource({ name, credentialId, integration_name: "outlook", source_metadata: metadata });
}

async function readError(sourceId: string, window: { from: Date; to: Date }): Promise<Error> {
  try {
    await reading.read(sourceId, window);
  } catch (error) {
    return error as Error;
  }
  throw new Error("the read did not fail");
}

/** What the reader should give of the fake's messages: the window's, read mailboxes in address order, newest first. */
const expectedMail = (window: { from: Date; to: Date }, mailboxes: string[]): FakeOutlookMessage[] =>
  [...mailboxes].sort().flatMap((box) =>
    ms.messages
      .filter((m) => m.mailbox === box && !m.isDraft && m.folder !== "junkemail" && m.received >= window.from && m.received < window.to)
      .sort((a, b) => b.received.getTime() - a.received.getTime()),
  );
const header = (r: { name: string; address: string }) => (!r.name ? r.address : /[(),.:;<>@[\]\\"]/.test(r.name) ? `"${r.name}" <${r.address}>` : `${r.name} <${r.address}>`);
const ALL = ["adele@contoso.example", "alex@contoso.example", "megan@contoso.example"];
const SALES = "0a1b2c3d-1111-4aaa-8bbb-000000000001";

beforeAll(async () => {
  reading = await startReadingBackend(APP_URL);
  ms = await startFakeOutlook({ anchor: ANCHOR, maxPageSize: 2 });
}, 60_000);
beforeEach(() => {
  configure();
  ms.reset();
});
afterAll(async () => {
  await ms?.close();
  await reading?.stop();
});

describe("Outlook admin consent", () => {
  it("names the variables when the Microsoft app is not configured", async () => {
    delete process.env.TEAMS_CLIENT_SECRET;
    const response = await call("GET", "/externalauth/outlook/auth_url");
    expect(response).toEqual({ status: 409, body: { message: "Outlook is not configured on this server. Set TEAMS_CLIENT_SECRET in the backend's environment to enable it." } });
  });

  it("auth_url is Microsoft's admin-consent page for Tributary's app, back to the Outlook form with a state", async () => {
    const { body } = await call("GET", "/externalauth/outlook/auth_url");
    const url = new URL(body.auth_url);
    expect(url.origin).toBe(ms.url);
    expect(url.pathname).toBe("/organizations/v2.0/adminconsent");
    expect(url.searchParams.get("client_id")).toBe(ms.clientId);
    expect(url.searchParams.get("redirect_uri")).toBe(`${APP_URL}/sources/add/outlook`);
    expect(url.searchParams.get("state")).toBe(body.state);
  });

  it("the callback proves the consent with an app token (msal) for the tenant and stores no secret", async () => {
    const credentialId = await connect();
    expect(ms.count(`/${ms.tenantId}/oauth2/v2.0/token`)).toBeGreaterThan(0);
    const { rows } = await reading.pool.query("SELECT secret, metadata, integration_name FROM credentials WHERE id = $1", [credentialId]);
    expect(rows[0]).toMatchObject({ secret: null, integration_name: "outlook", metadata: { tenant_id: ms.tenantId } });
  });

  it("refuses a declined consent, a tenant that never consented and the wrong tenant, each with a sentence (400)", async () => {
    const declined = await post("/externalauth/outlook/callback", { tenant: ms.tenantId, admin_consent: "False" });
    expect(declined).toEqual({
      status: 400,
      body: { message: "Admin consent was not granted. An administrator of the Microsoft 365 organization must accept Tributary's permissions, including Mail.Read." },
    });
    const never = await post("/externalauth/outlook/callback", { tenant: ms.otherTenantId, admin_consent: "True" });
    expect(never.status).toBe(400);
    expect(never.body.message).toMatch(
      new RegExp(`^Tributary's app has no admin consent in the Microsoft 365 organization ${ms.otherTenantId} \\(AADSTS700016: Application with identifier '${ms.clientId}' was not found in the directory .*\\)\\. An administrator of that organization must accept Tributary's permissions, including Mail\\.Read\\.$`),
    );
    const wrong = await post("/externalauth/outlook/callback", { tenant: UNKNOWN_TENANT, admin_consent: "True" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(new RegExp(`^Microsoft knows no Microsoft 365 organization with the tenant id ${UNKNOWN_TENANT}\\. An administrator must consent in the organization whose mail Tributary should read, then authenticate again\\.$`));
    process.env.TEAMS_CLIENT_SECRET = "not-the-secret";
    const secret = await post("/externalauth/outlook/callback", { tenant: ms.tenantId, admin_consent: "True" });
    expect(secret).toEqual({
      status: 400,
      body: {
        message:
          "Microsoft refuses Tributary's app secret (AADSTS7000215: Invalid client secret provided): the server's TEAMS_CLIENT_SECRET is wrong or has expired, or the app registration was removed. The operator of this Tributary server must renew it.",
      },
    });
    configure();
    const malformed = await post("/externalauth/outlook/callback", { tenant: "../../etc", admin_consent: "True" });
    expect(malformed).toEqual({ status: 400, body: { message: "tenant must be a Microsoft tenant id (a GUID)" } });
  });
});

describe("Outlook groups, connection test and create", () => {
  it("get-groups lists the mail-enabled groups, every page; a revoked consent is a 409 with a sentence", async () => {
    const credentialId = await connect();
    const listed = await post("/externalauth/outlook/get-groups", { credential_id: credentialId });
    expect(listed).toEqual({
      status: 200,
      body: {
        groups: [
          { id: "0a1b2c3d-1111-4aaa-8bbb-000000000002", name: "Engineering", email: "engineering@contoso.example" },
          { id: SALES, name: "Sales", email: "sales@contoso.example" },
        ],
      },
    });
    const groupRequests = ms.requests.filter((r) => r.path === "/v1.0/groups");
    expect(groupRequests[0]!.query.$filter).toBe("mailEnabled eq true");
    expect((await post("/externalauth/outlook/get-groups", { credential_id: "no-such-credential" })).status).toBe(404);

    ms.revokeConsent();
    const revoked = await post("/externalauth/outlook/get-groups", { credential_id: credentialId });
    expect(revoked.status).toBe(409);
    expect(revoked.body.message).toMatch(
      new RegExp(`^Microsoft no longer lets Tributary's app into the Microsoft 365 organization ${ms.tenantId} \\(AADSTS65001: The user or administrator has not consented .*\\): its admin consent was revoked\\. An administrator must grant admin consent again: create the Outlook source again\\.$`),
    );
  });

  it("test_connection fails without Mail.Read (403) and with a revoked consent, each in a sentence; create needs the verified scope", async () => {
    const credentialId = await connect();
    const create = (metadata: Record<string, string>) => post("/sources/create", { name: "Contoso mail", credentialId, integration_name: "outlook", source_metadata: metadata });
    expect((await create({ outlook_extraction_scope: "ORG" })).body.message).toBe(SOURCE_MESSAGES.mustVerify);

    ms.setMailRead(false);
    const noMailRead = await post("/externalauth/outlook/test_connection", { credential_id: credentialId, scope: "ORG" });
    expect(noMailRead).toEqual({
      status: 200,
      body: {
        status: "failed",
        message:
          "Microsoft Graph refused to read the mailbox of adele@contoso.example (403: Access is denied. Check credentials and try again). Tributary's app needs the Mail.Read application permission with admin consent: an administrator must add it to the app in Microsoft Entra ID and grant admin consent again.",
      },
    });
    expect((await create({ outlook_extraction_scope: "ORG" })).body.message).toBe(SOURCE_MESSAGES.mustVerify);
    ms.setMailRead(true);

    const unknownGroup = await post("/externalauth/outlook/test_connection", { credential_id: credentialId, scope: "GROUP", group_id: "no-such-group" });
    expect(unknownGroup.body).toEqual({ status: "failed", message: "Microsoft 365 has no group no-such-group in this organization. Please choose another group." });
    const noGroup = await post("/externalauth/outlook/test_connection", { credential_id: credentialId, scope: "GROUP" });
    expect(noGroup).toEqual({ status: 400, body: { message: OUTLOOK_MESSAGES.groupRequired } });

    const group = await post("/externalauth/outlook/test_connection", { credential_id: credentialId, scope: "GROUP", group_id: SALES });
    expect(group.body).toEqual({ status: "success", message: "Connected: Tributary can read the mail of the group's members (checked with adele@contoso.example)." });
    // Verified for the group: not the whole organization, nor another group.
    expect((await create({ outlook_extraction_scope: "ORG" })).body.message).toBe(SOURCE_MESSAGES.mustVerify);
    expect((await create({ outlook_extraction_scope: "GROUP", outlook_group_id: "0a1b2c3d-1111-4aaa-8bbb-000000000002" })).body.message).toBe(SOURCE_MESSAGES.mustVerify);
    const noGroupCreate = await create({ outlook_extraction_scope: "GROUP" });
    expect([noGroupCreate.status, noGroupCreate.body.message]).toEqual([400, OUTLOOK_MESSAGES.groupRequired]);

    const ok = await post("/externalauth/outlook/test_connection", { credential_id: credentialId, scope: "ORG" });
    expect(ok.body).toEqual({ status: "success", message: "Connected: Tributary can read the organization's mail (checked with adele@contoso.example)." });
    const created = await create({ outlook_extraction_scope: "ORG" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "active", integration_name: "outlook", integration_label: "Outlook", source_metadata: { outlook_extraction_scope: "ORG" } });

    ms.revokeConsent();
    const revoked = await post("/externalauth/outlook/test_connection", { credential_id: credentialId, scope: "ORG" });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe("failed");
    expect(revoked.body.message).toMatch(/^Microsoft no longer lets Tributary's app into the Microsoft 365 organization .* its admin consent was revoked\. An administrator must grant admin consent again: create the Outlook source again\.$/);
  });

  it("the connection test's bad bodies are 400s with a message", async () => {
    const credentialId = await connect();
    for (const body of [{ credential_id: credentialId }, { credential_id: credentialId, scope: "TEAM" }, { scope: "ORG" }, { credential_id: credentialId, scope: "GROUP", group_id: 7 }]) {
      const response = await post("/externalauth/outlook/test_connection", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.message).toBe("string");
    }
  });
});

describe("reading Outlook mail", () => {
  let orgSource: string;
  let salesSource: string;

  beforeAll(async () => {
    configure();
    ms.reset();
    orgSource = await verifiedSource("Contoso mail", { outlook_extraction_scope: "ORG" });
    salesSource = await verifiedSource("Sales mail", { outlook_extraction_scope: "GROUP", outlook_group_id: SALES, outlook_group_name: "Sales" });
  });

  it("an ORG source reads every mailbox's messages of the window as e-mail records, bodies made text, paging users and messages", async () => {
    ms.requests.length = 0;
    const window = lastDays(5);
    const got = (await reading.read(orgSource, window)) as EmailMessage[];
    const expected = expectedMail(window, ALL);
    // 3 mailboxes × messages 6 hours and 1, 2, 3 days back, and the internal message's two copies (no junk, no draft).
    expect(got).toHaveLength(14);
    expect(got.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    for (const [i, m] of got.entries()) {
      const e = expected[i]!;
      expect(m).toEqual({
        id: e.id,
        thread_id: e.conversationId,
        from: header(e.from),
        to: e.to.map(header),
        cc: e.cc.map(header),
        subject: e.subject,
        sent_at: e.received,
        snippet: e.bodyPreview,
        body_text: e.text,
        labels: e.categories,
        mailbox: e.mailbox,
      });
    }
    const alex = got.filter((m) => m.mailbox === "alex@contoso.example");
    expect(alex.map((m) => m.body_text)).toContain("Hello alex\nAgenda:\n- Pricing & seats\n- Security review\nSee you <soon>");
    expect(alex.find((m) => m.body_text.startsWith("Hello"))!.from).toBe('"Fabrikam, Buyer 1" <customer1@fabrikam.example>');
    // The internal message: one row per mailbox's copy, as Gmail's reader does.
    expect(got.filter((m) => m.subject === "Fabrikam account plan").map((m) => m.mailbox)).toEqual(["adele@contoso.example", "alex@contoso.example"]);
    // The conference room has no address: not read.
    expect(ms.requests.some((r) => r.path.includes("a1b2c3d4-0000-4000-8000-000000000004"))).toBe(false);
    const listings = ms.requests.filter((r) => r.path.endsWith("/messages"));
    expect(listings[0]!.query.$filter).toBe(`receivedDateTime ge ${window.from.toISOString()} and receivedDateTime lt ${window.to.toISOString()}`);
    expect(listings[0]!.query.$top).toBe("100");
    expect(listings.filter((r) => r.query.$skip).length).toBeGreaterThan(3);
    expect(ms.requests.filter((r) => r.path === "/v1.0/users" && r.query.$skiptoken)).toHaveLength(1);
    expect(messagesOf(await reading.read(orgSource, lastDays(1)))).toHaveLength(6);
    expect(messagesOf(await reading.read(orgSource, lastDays(10)))).toHaveLength(17);
  });

  it("a GROUP source reads its user members' mailboxes only", async () => {
    const got = messagesOf(await reading.read(salesSource, lastDays(5)));
    expect(got.map((m) => m.id)).toEqual(expectedMail(lastDays(5), ["adele@contoso.example", "alex@contoso.example"]).map((m) => m.id));
  });

  it("a 500 is transient; a 429 waits out its Retry-After", async () => {
    ms.fail({ path: /\/messages$/, status: 500 });
    const transient = await readError(salesSource, lastDays(5));
    expect(transient).not.toBeInstanceOf(PermanentReadError);
    expect(transient.message).toBe("Microsoft Graph answered 500 while trying to list the messages of the mailbox adele@contoso.example (An internal server error occurred); the sync will try again.");
    ms.fail({ path: /\/messages$/, status: 429, retryAfter: 1 });
    const started = Date.now();
    expect(messagesOf(await reading.read(salesSource, lastDays(5)))).toHaveLength(10);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("Mail.Read missing and a revoked consent are permanent, each in a sentence; the source is marked in error", async () => {
    ms.setMailRead(false);
    const noMailRead = await readError(salesSource, lastDays(5));
    expect(noMailRead).toBeInstanceOf(PermanentReadError);
    expect(noMailRead.message).toBe(
      "Microsoft Graph refused to read the folders of the mailbox adele@contoso.example (403: Access is denied. Check credentials and try again). Tributary's app needs the Mail.Read application permission with admin consent: an administrator must add it to the app in Microsoft Entra ID and grant admin consent again.",
    );
    ms.setMailRead(true);
    ms.revokeConsent();
    const revoked = await readError(orgSource, lastDays(5));
    expect(revoked).toBeInstanceOf(PermanentReadError);
    expect(revoked.message).toMatch(/^Microsoft no longer lets Tributary's app into the Microsoft 365 organization .*\(AADSTS65001: .*\): its admin consent was revoked\. An administrator must grant admin consent again: create the Outlook source again\.$/);
    expect((await reading.pool.query("SELECT status FROM sources WHERE id = $1", [orgSource])).rows[0].status).toBe("error");
  });

  it("a connector's sync writes each message once to a local destination: email_messages rows and .json/.txt files", async () => {
    const expected = messagesOf(await reading.read(salesSource, lastDays(7)));
    const { connectorId, root } = await reading.localConnector(salesSource, "outlook", { lookbackDays: 7 });
    const first = await syncConnector(reading.services(), connectorId, ANCHOR);
    const second = await syncConnector(reading.services(), connectorId, ANCHOR, { range: lastDays(7) });
    expect(first.records).toBe(expected.length);
    expect(second.records).toBe(first.records);
    const rows = await warehouse<{ message_id: string; mailbox: string; body_text: string }>(root, "SELECT message_id, mailbox, body_text FROM email_messages ORDER BY message_id");
    expect(rows.map((r) => r.message_id)).toEqual(expected.map((m) => m.id).sort());
    for (const m of expected) {
      const base = path.join(root, FILES_DIR, "outlook", salesSource, m.sent_at.toISOString().slice(0, 10), safeId(m.id));
      expect(existsSync(`${base}.json`) && existsSync(`${base}.txt`), base).toBe(true);
    }
  });

  it("a connector's sync lands the rows at PostgreSQL, where an e-mail template's program reads them", async () => {
    const { target, drop } = await userPostgresDatabase(inject("pgAdminUrl"), "outlook");
    try {
      const tested = await post("/externalauth/postgres/test_connection", pgFields(target));
      expect(tested.body.status, JSON.stringify(tested.body)).toBe("success");
      const { password: _password, ...fields } = pgFields(target);
      const destination = await post("/destinations/create", { name: "Mail warehouse", integration_name: "postgres", ...fields, credential_id: tested.body.credential_id, validation_token: tested.body.validation_token });
      expect(destination.status, JSON.stringify(destination.body)).toBe(201);
      const connector = await post("/connectors/create", {
        first_sync: false,
        name: "Contoso mail to Postgres",
        frequency: "daily",
        source_id: salesSource,
        platform: "outlook",
        destination_ids: [destination.body.destination.id],
        lookback_days: 7,
      });
      expect(connector.status, JSON.stringify(connector.body)).toBe(201);
      const run = await syncConnector(reading.services(), connector.body.id, ANCHOR);
      const expected = expectedMail(lastDays(7), ["adele@contoso.example", "alex@contoso.example"]);
      expect(run.records).toBe(expected.length);

      const client = new pg.Client({ ...target });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT message_id, source_id, thread_id, mailbox, from_address, to_addresses, subject, sent_at, body_text FROM tributary.email_messages ORDER BY message_id");
        expect(rows.map((r) => r.message_id)).toEqual(expected.map((m) => m.id).sort());
        const reply = expected.find((m) => m.subject.startsWith("RE: ") && m.mailbox === "alex@contoso.example")!;
        expect(rows.find((r) => r.message_id === reply.id)).toEqual({
          message_id: reply.id,
          source_id: salesSource,
          thread_id: reply.conversationId,
          mailbox: "alex@contoso.example",
          from_address: "Alex Wilber <alex@contoso.example>",
          to_addresses: ['"Buyer, Fabrikam" <customer1@fabrikam.example>', "ops@fabrikam.example"],
          subject: reply.subject,
          sent_at: reply.received,
          body_text: reply.text,
        });
      } finally {
        await client.end();
      }

      // The e-mail templates read Outlook's rows unchanged: the reply answers the customer's message of its conversation.
      const postgres = new PostgresWarehouse(async () => target);
      try {
        const outputs = await runProgram("email_response_time", { warehouse: postgres, sourceId: salesSource, platforms: [] }, { id: "outlook-run", at: ANCHOR }, {});
        const threads = outputs.find((o) => o.suffix === "thread_response_times")!.rows;
        const replied = threads.find((t) => t.thread_id === reply(expected).conversationId && t.mailbox === "alex@contoso.example")!;
        expect(replied).toMatchObject({ messages: 2, replies_from_us: 1 });
      } finally {
        await postgres.close();
      }
    } finally {
      await drop();
    }
  });
});

const messagesOf = (records: unknown[]) => records as EmailMessage[];
const reply = (messages: FakeOutlookMessage[]) => messages.find((m) => m.subject.startsWith("RE: ") && m.mailbox === "alex@contoso.example")!;
const pgFields = (target: PostgresTarget) => ({ host: target.host, port: String(target.port), database: target.database, schema: target.schema, user: target.user, password: target.password });
