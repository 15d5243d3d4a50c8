import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import { pathToFileURL } from "node:url";
import { identityPlatform } from "./microsoft-identity.js";
import { FAKE_GRAPH_USERS, FAKE_MICROSOFT_DEFAULTS, type FakeGraphUser } from "./graph.js";
import { Faults, listen, pageOf, utcMidnight, type FaultRule } from "./zoom.js";

/**
 * A local server speaking the parts of the Microsoft identity platform and Microsoft Graph that Tributary's Outlook
 * source calls (the Teams fake, graph.ts, is another server: Outlook's endpoints are set apart by OUTLOOK_LOGIN_BASE_URL
 * and OUTLOOK_GRAPH_BASE_URL, its client is the same app registration):
 * - identity (https://login.microsoftonline.com): the admin-consent page GET /organizations/v2.0/adminconsent
 *   (Accept → redirect_uri?admin_consent=True&tenant=…&state=…; Cancel → error=access_denied), a tenant's OpenID
 *   configuration (400 AADSTS90002 for a tenant Microsoft does not know), POST /{tenant}/oauth2/v2.0/token (client
 *   credentials, which @azure/msal-node uses): invalid_client for a wrong secret, AADSTS700016 in a tenant that never
 *   consented, AADSTS65001 once the consent is revoked;
 * - Graph (https://graph.microsoft.com/v1.0): GET /users ($select, $top, paged by @odata.nextLink/$skiptoken),
 *   /groups ($filter=mailEnabled eq true), /groups/{id}/members (users and other directory objects, with @odata.type),
 *   /users/{id}/mailFolders/{well-known name}, /users/{id}/messages ($filter on receivedDateTime with ge/gt/le/lt joined
 *   by "and", $select, $top — 10 by default — paged by @odata.nextLink with $skip, newest first). Without the Mail.Read
 *   permission the mail endpoints answer 403 ErrorAccessDenied; a user without a mailbox 404
 *   MailboxNotEnabledForRESTAPI; a revoked consent's tokens 401 InvalidAuthenticationToken. Errors in Graph's JSON
 *   shape ({ error: { code, message, innerError } }); every request is recorded.
 */

export interface FakeOutlookOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** The UTC midnight the messages are placed before (default: today's). */
  anchor?: Date;
  /** Most items per page of a collection, to exercise paging. */
  maxPageSize?: number;
}

export interface FakeOutlookMessage {
  id: string;
  /** The mailbox's owner (a user id) and address. */
  userId: string;
  mailbox: string;
  conversationId: string;
  internetMessageId: string;
  folder: "inbox" | "sentitems" | "junkemail" | "deleteditems" | "drafts";
  isDraft: boolean;
  received: Date;
  from: { name: string; address: string };
  to: { name: string; address: string }[];
  cc: { name: string; address: string }[];
  subject: string;
  body: { contentType: "html" | "text"; content: string };
  bodyPreview: string;
  categories: string[];
  /** What a reader should make of the body. */
  text: string;
}

export interface FakeOutlookGroup {
  id: string;
  displayName: string;
  mail: string | null;
  mailEnabled: boolean;
  securityEnabled: boolean;
  /** Member ids: users, and other directory objects (a device, a nested group). */
  members: string[];
}

export const FAKE_OUTLOOK_DEFAULTS = {
  port: 47125,
  clientId: FAKE_MICROSOFT_DEFAULTS.clientId,
  clientSecret: FAKE_MICROSOFT_DEFAULTS.clientSecret,
  tenantId: FAKE_MICROSOFT_DEFAULTS.tenantId,
  /** A tenant Microsoft knows whose administrator never consented. */
  otherTenantId: "3c5a1f0e-2b4d-4e6f-8a9b-0c1d2e3f4a5b",
};

/** The organization's users: Teams' three with mailboxes, and a conference room without one. */
export const FAKE_OUTLOOK_USERS: (Omit<FakeGraphUser, "mail"> & { mail: string | null })[] = [
  ...FAKE_GRAPH_USERS,
  { id: "a1b2c3d4-0000-4000-8000-000000000004", displayName: "Conference Room 4", mail: null },
];
const DEVICE_ID = "d0d0d0d0-0000-4000-8000-00000000000d";

export const FAKE_OUTLOOK_GROUPS: FakeOutlookGroup[] = [
  { id: "0a1b2c3d-1111-4aaa-8bbb-000000000001", displayName: "Sales", mail: "sales@contoso.example", mailEnabled: true, securityEnabled: false, members: [FAKE_GRAPH_USERS[0]!.id, FAKE_GRAPH_USERS[1]!.id, DEVICE_ID] },
  { id: "0a1b2c3d-1111-4aaa-8bbb-000000000002", displayName: "Engineering", mail: "engineering@contoso.example", mailEnabled: true, securityEnabled: false, members: [FAKE_GRAPH_USERS[2]!.id, "0a1b2c3d-1111-4aaa-8bbb-000000000003"] },
  { id: "0a1b2c3d-1111-4aaa-8bbb-000000000003", displayName: "Finance Security", mail: null, mailEnabled: false, securityEnabled: true, members: [FAKE_GRAPH_USERS[0]!.id] },
];

const graphId = (seed: string) => `AAMkAG${createHash("sha256").update(seed).digest("base64url").slice(0, 40)}AAA=`;
const folderId = (userId: string, folder: string) => `AQMkAD${createHash("md5").update(`${userId}:${folder}`).digest("base64url")}AAAA`;

/** Five bodies, HTML or text, and the text a reader should make of each. */
function bodyFor(n: number, who: string): { body: FakeOutlookMessage["body"]; text: string } {
  switch (n % 5) {
    case 0:
      return {
        text: `Hi ${who},\n\nThe renewal quote is attached. Let me know by Friday.\n\nThanks`,
        body: { contentType: "html", content: `<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head><body><div>Hi ${who},</div><div><br></div><div>The <b>renewal quote</b> is attached. Let me know by Friday.</div><div><br></div><div>Thanks</div></body></html>` },
      };
    case 1:
      return {
        text: `Hello ${who}\nAgenda:\n- Pricing & seats\n- Security review\nSee you <soon>`,
        body: { contentType: "html", content: `<html><head><style>p{color:red}</style></head><body><p>Hello ${who}</p><p>Agenda:</p><ul><li>Pricing &amp; seats</li><li>Security&nbsp;review</li></ul><p>See you &lt;soon&gt;</p></body></html>` },
      };
    case 2:
      return { text: `${who}, the signed order form is attached.`, body: { contentType: "text", content: `${who}, the signed order form is attached.\r\n` } };
    case 3:
      return { text: `Café meeting moved to 3pm, ${who}.`, body: { contentType: "text", content: `Café meeting moved to 3pm, ${who}.` } };
    default:
      return { text: `Quick note for ${who}: the pilot starts Monday.`, body: { contentType: "html", content: `<p>Quick note for ${who}: the pilot starts <i>Monday</i>.</p>` } };
  }
}

/**
 * Every mailbox's messages around `anchor` (a UTC midnight): received 6 hours and 1, 2, 3 and 8 days before it, each
 * another body; the one a day back answers the one 6 hours back's conversation… (the one 1 day back is the customer's
 * message, the one 6 hours back the reply). Besides: a junk message and a draft (left out by a reader), and one
 * internal message from the first user to the second, a copy in each mailbox (two ids, one internetMessageId).
 */
export function outlookFixture(anchor: Date, users = FAKE_GRAPH_USERS): FakeOutlookMessage[] {
  const out: FakeOutlookMessage[] = [];
  users.forEach((user, u) => {
    const who = user.mail.split("@")[0]!;
    const me = { name: user.displayName, address: user.mail };
    const conversation = (n: number) => `AAQkAG${createHash("md5").update(`${user.id}:conversation:${n}`).digest("base64url")}=`;
    [0.25, 1, 2, 3, 8].forEach((daysBefore, n) => {
      const received = new Date(anchor.getTime() - daysBefore * 86_400_000 + (u * 7 + n) * 60_000);
      // The reply writes to the customer whose message it answers.
      const c = n === 0 ? 1 : n % 5;
      const customer = { name: `Fabrikam, Buyer ${c}`, address: `customer${c}@fabrikam.example` };
      const incoming = n % 2 === 1;
      const { body, text } = bodyFor(n, who);
      const id = graphId(`${user.id}:${n}`);
      out.push({
        id,
        userId: user.id,
        mailbox: user.mail,
        // The reply (6 hours back) is in the conversation of the customer's message (a day back).
        conversationId: conversation(n === 0 ? 1 : n),
        internetMessageId: `<${id.slice(6, 22)}@${incoming ? "fabrikam" : "contoso"}.example>`,
        folder: incoming ? "inbox" : "sentitems",
        isDraft: false,
        received,
        from: incoming ? customer : me,
        to: incoming ? [me] : [{ name: "Buyer, Fabrikam", address: customer.address }, { name: "", address: "ops@fabrikam.example" }],
        cc: n % 5 === 1 ? [{ name: "Finance", address: "finance@contoso.example" }] : [],
        subject: `${n === 0 ? "RE: " : ""}Fabrikam order ${n === 0 ? 2 : n + 1}: ${["renewal", "agenda", "order form", "venue", "pilot"][n % 5]}`,
        body,
        bodyPreview: text.replace(/\s+/g, " ").slice(0, 255),
        categories: n % 5 === 2 ? ["Orders"] : [],
        text,
      });
    });
    for (const [folder, hours] of [["junkemail", 12], ["drafts", 18]] as const) {
      const id = graphId(`${user.id}:${folder}`);
      out.push({
        id,
        userId: user.id,
        mailbox: user.mail,
        conversationId: conversation(100 + hours),
        internetMessageId: `<${id.slice(6, 22)}@spam.example>`,
        folder,
        isDraft: folder === "drafts",
        received: new Date(anchor.getTime() - hours * 3_600_000 - u * 60_000),
        from: folder === "drafts" ? me : { name: "Prize Office", address: "winner@spam.example" },
        to: folder === "drafts" ? [{ name: "", address: "someone@fabrikam.example" }] : [me],
        cc: [],
        subject: folder === "drafts" ? "Unfinished" : "You won",
        body: { contentType: "text", content: "Not for reading." },
        bodyPreview: "Not for reading.",
        categories: [],
        text: "Not for reading.",
      });
    }
  });
  // One internal message, a copy in the sender's Sent Items and one in the recipient's Inbox.
  const [first, second] = users;
  if (first && second) {
    const received = new Date(anchor.getTime() - 1.5 * 86_400_000);
    const internetMessageId = "<internal-0001@contoso.example>";
    for (const [user, folder] of [[first, "sentitems"], [second, "inbox"]] as const) {
      out.push({
        id: graphId(`${user.id}:internal`),
        userId: user.id,
        mailbox: user.mail,
        conversationId: "AAQkAGinternal0001=",
        internetMessageId,
        folder,
        isDraft: false,
        received,
        from: { name: first.displayName, address: first.mail },
        to: [{ name: second.displayName, address: second.mail }],
        cc: [],
        subject: "Fabrikam account plan",
        body: { contentType: "text", content: "Let's align on the Fabrikam account plan." },
        bodyPreview: "Let's align on the Fabrikam account plan.",
        categories: [],
        text: "Let's align on the Fabrikam account plan.",
      });
    }
  }
  return out;
}

export interface FakeOutlook {
  url: string;
  loginBaseUrl: string;
  graphBaseUrl: string;
  clientId: string;
  clientSecret: string;
  tenantId: string;
  otherTenantId: string;
  users: typeof FAKE_OUTLOOK_USERS;
  groups: FakeOutlookGroup[];
  messages: FakeOutlookMessage[];
  requests: { method: string; path: string; query: Record<string, string> }[];
  /** How many requests matched the path (exact or a pattern). */
  count(path: string | RegExp): number;
  /** Consents as an administrator of the tenant would (what the consent page's Accept does). */
  consent(tenant?: string): void;
  /** The administrator revokes the consent: tokens stop working, new ones are refused (AADSTS65001). */
  revokeConsent(): void;
  /** Grants or removes the Mail.Read application permission (granted at first). */
  setMailRead(granted: boolean): void;
  /** Invalidates every issued token (a new one is needed). */
  expireTokens(): void;
  /** The next matching requests fail as told. */
  fail(rule: FaultRule): void;
  /** Back to the start: consent as given, Mail.Read granted, no planned failures, no requests. */
  reset(): void;
  close(): Promise<void>;
}


/** One $filter clause on receivedDateTime: its operator and time. */
const CLAUSE = /^receivedDateTime (ge|gt|le|lt) (\d{4}-\d\d-\d\dT[\d:.]+Z)$/;

export async function startFakeOutlook(options: FakeOutlookOptions = {}): Promise<FakeOutlook> {
  const clientId = options.clientId ?? FAKE_OUTLOOK_DEFAULTS.clientId;
  const clientSecret = options.clientSecret ?? FAKE_OUTLOOK_DEFAULTS.clientSecret;
  const { tenantId, otherTenantId } = FAKE_OUTLOOK_DEFAULTS;
  const users = FAKE_OUTLOOK_USERS;
  const groups = FAKE_OUTLOOK_GROUPS;
  const messages = outlookFixture(options.anchor ?? utcMidnight());
  const maxPageSize = options.maxPageSize ?? 1000;
  const pageTokens = new Map<string, number>();
  const faults = new Faults();
  const identity = identityPlatform({
    clientId,
    clientSecret,
    tenantId,
    permissions: "read the mail in all mailboxes (Mail.Read), users and groups of Contoso",
    known: new Set([tenantId, otherTenantId]),
    tokenTag: "outlook",
  });
  const { consented, revoked } = identity;
  let mailRead = true;
  const tokens = identity.tokens;
  const requests: FakeOutlook["requests"] = [];
  let host = "";

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  };
  const innerError = () => ({ date: new Date().toISOString(), "request-id": randomUUID(), "client-request-id": randomUUID() });
  const graphError = (res: http.ServerResponse, status: number, code: string, message: string) => json(res, status, { error: { code, message, innerError: innerError() } });
  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = "";
      req.on("data", (chunk) => (data += chunk));
      req.on("end", () => resolve(data));
    });
  /** A message as Graph serves it, with only the $select-ed properties (and id, @odata.etag). */
  const messageJson = (m: FakeOutlookMessage, select: string[] | null) => {
    const recipient = (r: { name: string; address: string }) => ({ emailAddress: { name: r.name || r.address, address: r.address } });
    const full: Record<string, unknown> = {
      id: m.id,
      createdDateTime: m.received.toISOString().replace(/\.\d+Z$/, "Z"),
      lastModifiedDateTime: m.received.toISOString().replace(/\.\d+Z$/, "Z"),
      receivedDateTime: m.received.toISOString().replace(/\.\d+Z$/, "Z"),
      sentDateTime: m.isDraft ? null : new Date(m.received.getTime() - 2000).toISOString().replace(/\.\d+Z$/, "Z"),
      hasAttachments: false,
      internetMessageId: m.internetMessageId,
      subject: m.subject,
      bodyPreview: m.bodyPreview,
      importance: "normal",
      parentFolderId: folderId(m.userId, m.folder),
      conversationId: m.conversationId,
      isRead: m.folder !== "inbox",
      isDraft: m.isDraft,
      body: m.body,
      sender: recipient(m.from),
      from: recipient(m.from),
      toRecipients: m.to.map(recipient),
      ccRecipients: m.cc.map(recipient),
      bccRecipients: [],
      replyTo: [],
      categories: m.categories,
    };
    const keep = select ? new Set(["id", ...select]) : null;
    return { "@odata.etag": `W/"${createHash("md5").update(m.id).digest("base64")}"`, ...Object.fromEntries(Object.entries(full).filter(([k]) => !keep || keep.has(k))) };
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const body = req.method === "POST" ? await readBody(req) : "";
    const path = url.pathname;
    requests.push({ method: req.method ?? "GET", path, query: Object.fromEntries(url.searchParams) });
    if (faults.apply(path, res, (status) => ({ error: { code: status === 429 ? "TooManyRequests" : status >= 500 ? "InternalServerError" : "Forbidden", message: status === 429 ? "Too many requests." : status >= 500 ? "An internal server error occurred." : "Access denied.", innerError: innerError() } }))) {
      return;
    }
    if (path === "/favicon.ico") {
      res.writeHead(204);
      return res.end();
    }
    // Test controls (not Microsoft's), for a browser test's other process.
    if (path === "/_fake/mail-read" && (req.method === "POST" || req.method === "DELETE")) {
      mailRead = req.method === "POST";
      return json(res, 200, { mailRead });
    }
    if (path === "/_fake/consent" && req.method === "DELETE") {
      revoked.add(tenantId);
      consented.delete(tenantId);
      tokens.clear();
      return json(res, 200, { revoked: true });
    }

    // ---- identity platform (microsoft-identity.ts) ----
    if (identity.handle(req, res, url, body)) return;

    // ---- Graph ----
    if (path.startsWith("/v1.0/")) {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const grant = bearer ? tokens.get(bearer) : undefined;
      if (!grant || grant.expires < Date.now()) return graphError(res, 401, "InvalidAuthenticationToken", "Access token validation failure. Invalid audience.");
      if (req.method !== "GET") return graphError(res, 405, "Request_BadRequest", "Only GET is served by this fake.");
      const rest = path.slice("/v1.0".length);
      const d = decodeURIComponent;
      const select = url.searchParams.get("$select")?.split(",").map((s) => s.trim()) ?? null;
      const pick = (item: Record<string, unknown>) => (select ? Object.fromEntries(Object.entries(item).filter(([k]) => k === "id" || k.startsWith("@odata") || select.includes(k))) : item);
      const top = Number(url.searchParams.get("$top") || 100);
      if (!Number.isInteger(top) || top < 1 || top > 999) return graphError(res, 400, "Request_BadRequest", `Invalid page size specified: '${url.searchParams.get("$top")}'. Must be between 1 and 999 inclusive.`);
      /** One page of a directory collection, with @odata.nextLink ($skiptoken) when more remain. */
      const collection = (context: string, items: Record<string, unknown>[]) => {
        const page = pageOf(items, Math.min(top, maxPageSize), url.searchParams.get("$skiptoken"), pageTokens);
        const next = new URL(`http://${host}${path}`);
        for (const [k, v] of url.searchParams) if (k !== "$skiptoken") next.searchParams.set(k, v);
        next.searchParams.set("$skiptoken", page.next);
        return json(res, 200, { "@odata.context": `https://graph.microsoft.com/v1.0/$metadata#${context}`, ...(page.next ? { "@odata.nextLink": next.href } : {}), value: page.items.map(pick) });
      };
      const userJson = (u: (typeof users)[number]) => ({ "@odata.type": "#microsoft.graph.user", id: u.id, displayName: u.displayName, mail: u.mail, userPrincipalName: u.mail ?? `room4@contoso.onmicrosoft.example` });

      if (rest === "/users") return collection("users", users.map(userJson));
      if (rest === "/groups") {
        const filter = url.searchParams.get("$filter");
        if (filter !== null && filter !== "mailEnabled eq true") return graphError(res, 400, "Request_UnsupportedQuery", `Unsupported filter: ${filter}`);
        const list = groups.filter((g) => filter === null || g.mailEnabled);
        return collection("groups", list.map((g) => ({ id: g.id, displayName: g.displayName, mail: g.mail, mailEnabled: g.mailEnabled, securityEnabled: g.securityEnabled })));
      }
      const members = /^\/groups\/([^/]+)\/members$/.exec(rest);
      if (members) {
        const group = groups.find((g) => g.id === d(members[1]!));
        if (!group) return graphError(res, 404, "Request_ResourceNotFound", `Resource '${d(members[1]!)}' does not exist or one of its queried reference-property objects are not present.`);
        return collection(
          "directoryObjects",
          group.members.map((id) => {
            const u = users.find((x) => x.id === id);
            if (u) return userJson(u);
            const g = groups.find((x) => x.id === id);
            if (g) return { "@odata.type": "#microsoft.graph.group", id: g.id, displayName: g.displayName, mail: g.mail };
            return { "@odata.type": "#microsoft.graph.device", id, displayName: "CONTOSO-LAPTOP-7" };
          }),
        );
      }
      const mail = /^\/users\/([^/]+)\/(messages|mailFolders\/([^/]+))$/.exec(rest);
      if (mail) {
        const user = users.find((u) => u.id === d(mail[1]!) || u.mail === d(mail[1]!).toLowerCase());
        if (!user) return graphError(res, 404, "Request_ResourceNotFound", `Resource '${d(mail[1]!)}' does not exist or one of its queried reference-property objects are not present.`);
        if (!mailRead) return graphError(res, 403, "ErrorAccessDenied", "Access is denied. Check credentials and try again.");
        if (!user.mail) return graphError(res, 404, "MailboxNotEnabledForRESTAPI", "The mailbox is either inactive, soft-deleted, or is hosted on-premise.");
        if (mail[3] !== undefined) {
          const name = d(mail[3]).toLowerCase();
          const names: Record<string, string> = { inbox: "Inbox", sentitems: "Sent Items", junkemail: "Junk Email", deleteditems: "Deleted Items", drafts: "Drafts" };
          if (!names[name]) return graphError(res, 404, "ErrorInvalidIdMalformed", "Id is malformed.");
          return json(res, 200, pick({ id: folderId(user.id, name), displayName: names[name], parentFolderId: folderId(user.id, "root"), childFolderCount: 0, unreadItemCount: 0, totalItemCount: messages.filter((m) => m.userId === user.id && m.folder === name).length }));
        }
        // $filter: receivedDateTime clauses joined by "and".
        const filter = url.searchParams.get("$filter");
        const clauses: [string, number][] = [];
        if (filter) {
          for (const part of filter.split(/ and /i)) {
            const clause = CLAUSE.exec(part.trim());
            if (!clause || Number.isNaN(Date.parse(clause[2]!))) return graphError(res, 400, "BadRequest", `Invalid filter clause: ${part.trim()}`);
            clauses.push([clause[1]!, Date.parse(clause[2]!)]);
          }
        }
        const matches = (at: number) => clauses.every(([op, t]) => (op === "ge" ? at >= t : op === "gt" ? at > t : op === "le" ? at <= t : at < t));
        const mine = messages.filter((m) => m.userId === user.id && matches(Math.floor(m.received.getTime() / 1000) * 1000)).sort((a, b) => b.received.getTime() - a.received.getTime() || a.id.localeCompare(b.id));
        const size = Math.min(Number(url.searchParams.get("$top") || 10), 1000, maxPageSize);
        const skip = Number(url.searchParams.get("$skip") || 0);
        if (!Number.isInteger(skip) || skip < 0) return graphError(res, 400, "BadRequest", "Invalid $skip.");
        const page = mine.slice(skip, skip + size);
        const next = new URL(`http://${host}${path}`);
        for (const [k, v] of url.searchParams) if (k !== "$skip") next.searchParams.set(k, v);
        next.searchParams.set("$skip", String(skip + size));
        return json(res, 200, {
          "@odata.context": `https://graph.microsoft.com/v1.0/$metadata#users('${user.id}')/messages`,
          value: page.map((m) => messageJson(m, select)),
          ...(skip + size < mine.length ? { "@odata.nextLink": next.href } : {}),
        });
      }
      return graphError(res, 400, "BadRequest", `Resource not found for the segment in ${req.method} ${path} (this fake serves the mail endpoints only).`);
    }
    json(res, 404, { error: "not_found", error_description: `No such fake Microsoft endpoint: ${req.method} ${path}` });
  });

  const port = await listen(server, options.port ?? 0);
  host = `127.0.0.1:${port}`;
  identity.setHost(host);
  const url = `http://${host}`;
  return {
    url,
    loginBaseUrl: url,
    graphBaseUrl: `${url}/v1.0`,
    clientId,
    clientSecret,
    tenantId,
    otherTenantId,
    users,
    groups,
    messages,
    requests,
    count: (path) => requests.filter((r) => (typeof path === "string" ? r.path === path : path.test(r.path))).length,
    consent: (tenant = tenantId) => {
      consented.add(tenant);
      revoked.delete(tenant);
    },
    revokeConsent: () => {
      revoked.add(tenantId);
      consented.delete(tenantId);
      tokens.clear();
    },
    setMailRead: (granted) => {
      mailRead = granted;
    },
    expireTokens: () => tokens.clear(),
    fail: (rule) => faults.add(rule),
    reset: () => {
      consented.add(tenantId);
      revoked.clear();
      mailRead = true;
      faults.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// `npx tsx tests/fakes/outlook.ts` runs it on its fixed port for local use.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const fake = await startFakeOutlook({ port: Number(process.env.FAKE_OUTLOOK_PORT ?? FAKE_OUTLOOK_DEFAULTS.port) });
  console.log(`Fake Microsoft identity + Graph mail on ${fake.url}`);
  console.log(`TEAMS_CLIENT_ID=${fake.clientId} TEAMS_CLIENT_SECRET=${fake.clientSecret} OUTLOOK_LOGIN_BASE_URL=${fake.loginBaseUrl} OUTLOOK_GRAPH_BASE_URL=${fake.graphBaseUrl}`);
}
