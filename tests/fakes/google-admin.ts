import { createHash, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import http from "node:http";
import { pathToFileURL } from "node:url";
import { Faults, listen, pageOf, utcMidnight, type FaultRule } from "./zoom.js";
import { FakeGmailHistory, gmailFixture, gmailMessage, handleGmailHistory, handleGmailMessages, type FakeGmailMessage } from "./gmail.js";
import { jwtVerify } from "jose";

/**
 * A local server speaking the parts of Google that Tributary's Gmail source
 * calls, with Google's documented shapes and errors:
 * - OAuth 2.0 token endpoint, JWT-bearer grant (RFC 7523) as a service account
 *   with domain-wide delegation uses it: the assertion's signature is checked
 *   against the service account's public key, `sub` must be a Workspace user,
 *   and the client id must have been granted the scopes (domain-wide delegation).
 * - Admin SDK Directory API: GET /admin/directory/v1/groups?customer=my_customer,
 *   /admin/directory/v1/groups/{groupKey}/members, /admin/directory/v1/users?customer=my_customer.
 * - Gmail API: GET /gmail/v1/users/{userId}/profile (with the mailbox's current
 *   historyId), …/messages (q, paging), …/messages/{id} and …/history (the
 *   messages added since a startHistoryId; tests/fakes/gmail.ts), for the
 *   token's own mailbox.
 * google-auth-library's JWT client and the official @googleapis/* clients run against it.
 */
export interface FakeGoogleOptions {
  port?: number;
  /** Workspace users; admins may list groups. */
  users?: { email: string; admin?: boolean }[];
  groups?: { id: string; email: string; name: string; directMembersCount?: string; members?: string[] }[];
  /** Whether the Workspace admin has already granted domain-wide delegation to the service account. */
  delegationGranted?: boolean;
  /** The UTC midnight the messages are placed before (default: today's). */
  anchor?: Date;
  /** Most items per page (messages, members, users), to exercise paging. */
  maxPageSize?: number;
}

export interface ServiceAccountKeyFile {
  type: "service_account";
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  token_uri: string;
}

export interface FakeGoogle {
  url: string;
  /** OAuth client for the INDIVIDUAL mode: GMAIL_OAUTH_CLIENT_ID / GMAIL_OAUTH_CLIENT_SECRET, GOOGLE_OAUTH_AUTH_URL. */
  oauthClientId: string;
  oauthClientSecret: string;
  authUrl: string;
  tokenUrl: string;
  /** The service account's key file (JSON text): set it as GMAIL_SERVICE_ACCOUNT_KEY. */
  serviceAccountKey: string;
  key: ServiceAccountKeyFile;
  setDelegationGranted(granted: boolean): void;
  requests: { method: string; path: string; subject?: string; query?: Record<string, string>; grantType?: string }[];
  /** Every mailbox's messages. */
  messages: FakeGmailMessage[];
  /**
   * A message arrives in `mailbox`, sent at `sent` (labels: the fixture's for its kind unless given): it is listed
   * by users.messages.list and recorded in the mailbox's history with a history id larger than any before.
   */
  addMessage(mailbox: string, sent: Date, options?: { labelIds?: string[] }): FakeGmailMessage;
  /** Gmail stops keeping the history so far: a startHistoryId given out until now is answered 404. */
  expireHistory(): void;
  /** Lifetime (seconds) of the OAuth access tokens issued from now on (individual mailboxes). */
  setAccessTokenTtl(seconds: number): void;
  /** The next matching requests fail as told. */
  fail(rule: FaultRule): void;
  close(): Promise<void>;
}

export const FAKE_GOOGLE_DEFAULTS = {
  port: 47130,
  users: [
    { email: "admin@acme.example", admin: true },
    { email: "sam@acme.example", admin: false },
    { email: "lee@acme.example", admin: false },
  ],
  groups: [
    { id: "03x8tuzt1h1n4bb", email: "sales@acme.example", name: "Sales", directMembersCount: "8", members: ["sam@acme.example", "lee@acme.example"] },
    { id: "01egqt2p2qcpl9f", email: "support@acme.example", name: "Support", directMembersCount: "4", members: ["admin@acme.example"] },
  ],
};

const GOOGLE_TOKEN_AUD = "https://oauth2.googleapis.com/token";

export function makeServiceAccountKey(): { key: ServiceAccountKeyFile; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const clientId = String(100000000000000000000n + BigInt(`0x${randomBytes(6).toString("hex")}`));
  return {
    publicKey,
    key: {
      type: "service_account",
      project_id: "tributary-test",
      private_key_id: randomBytes(20).toString("hex"),
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: "tributary-gmail@tributary-test.iam.gserviceaccount.com",
      client_id: clientId,
      token_uri: GOOGLE_TOKEN_AUD,
    },
  };
}

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const users = options.users ?? FAKE_GOOGLE_DEFAULTS.users;
  const groups = options.groups ?? FAKE_GOOGLE_DEFAULTS.groups;
  let delegationGranted = options.delegationGranted ?? true;
  const { key, publicKey } = makeServiceAccountKey();
  const tokens = new Map<string, { sub: string; scopes: string[]; expires: number }>();
  const requests: FakeGoogle["requests"] = [];
  const oauthClientId = "123456789012-fake.apps.googleusercontent.com";
  const oauthClientSecret = "GOCSPX-fake-secret";
  const codes = new Map<string, { redirectUri: string; email: string }>();
  const refreshTokens = new Map<string, string>();
  const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  let oauthTtl = 3599;
  const issue = (sub: string, scopes: string[]) => {
    const access = `ya29.fake-${randomBytes(16).toString("hex")}`;
    tokens.set(access, { sub, scopes, expires: Date.now() + oauthTtl * 1000 });
    return access;
  };
  const messages = gmailFixture(options.anchor ?? utcMidnight(), users.map((u) => u.email));
  const maxPageSize = options.maxPageSize ?? 500;
  const pageTokens = new Map<string, number>();
  const faults = new Faults();
  const history = new FakeGmailHistory();
  for (const message of messages) history.add(message);
  const addMessage: FakeGoogle["addMessage"] = (mailbox, sent, addOptions = {}) => {
    const n = messages.filter((m) => m.mailbox === mailbox).length;
    const message = gmailMessage(mailbox, sent, n, `${mailbox}:added:${messages.length}`);
    if (addOptions.labelIds) message.labelIds = addOptions.labelIds;
    messages.push(message);
    history.add(message);
    return message;
  };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify(body));
  };
  const apiError = (res: http.ServerResponse, code: number, message: string, status: string) =>
    json(res, code, { error: { code, message, errors: [{ message, domain: "global", reason: status }], status } });
  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = "";
      req.on("data", (chunk) => (data += chunk));
      req.on("end", () => resolve(data));
    });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const body = req.method === "POST" ? await readBody(req) : "";
    const form = new URLSearchParams(body);
    requests.push({ method: req.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams), grantType: form.get("grant_type") ?? undefined });
    const statusName = (code: number) => (code === 429 ? "RESOURCE_EXHAUSTED" : code >= 500 ? "INTERNAL" : code === 403 ? "PERMISSION_DENIED" : code === 401 ? "UNAUTHENTICATED" : "INVALID_ARGUMENT");
    if (faults.apply(url.pathname, res, (code) => ({ error: { code, message: code === 429 ? "Quota exceeded for quota metric 'Queries'." : code >= 500 ? "Internal error encountered." : "The caller does not have permission", errors: [{ message: "fake", domain: "global", reason: statusName(code) }], status: statusName(code) } }))) return;

    // Test control (not Google's): the Workspace admin grants or removes domain-wide delegation.
    if (url.pathname === "/_fake/delegation" && req.method === "POST") {
      delegationGranted = url.searchParams.get("granted") !== "false";
      return json(res, 200, { delegationGranted });
    }
    if (url.pathname === "/favicon.ico") {
      res.writeHead(204);
      return res.end();
    }
    // OAuth 2.0 for one user's mailbox (Gmail's INDIVIDUAL mode): consent page, then a code.
    if (url.pathname === "/o/oauth2/v2/auth" && req.method === "GET") {
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      if (url.searchParams.get("client_id") !== oauthClientId || !/^https?:\/\//.test(redirectUri)) {
        res.writeHead(400, { "content-type": "text/html" });
        return res.end("<!doctype html><title>Error 400: invalid_request</title><h1>Access blocked: invalid_request</h1>");
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><html lang="en"><head><title>Sign in - Google Accounts</title></head><body><main>
<h1>Tributary wants to access your Google Account</h1><p>sam@acme.example — Read your email messages and settings</p>
<form method="post" action="/o/oauth2/v2/auth">
<input type="hidden" name="redirect_uri" value="${escapeHtml(redirectUri)}">
<input type="hidden" name="state" value="${escapeHtml(url.searchParams.get("state") ?? "")}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Cancel</button>
</form></main></body></html>`);
    }
    if (url.pathname === "/o/oauth2/v2/auth" && req.method === "POST") {
      const form = new URLSearchParams(body);
      const back = new URL(form.get("redirect_uri") ?? "");
      if (form.get("decision") === "allow") {
        const code = `4/0A${randomBytes(16).toString("hex")}`;
        codes.set(code, { redirectUri: back.origin + back.pathname, email: "sam@acme.example" });
        back.searchParams.set("code", code);
        back.searchParams.set("scope", "https://www.googleapis.com/auth/gmail.readonly");
      } else back.searchParams.set("error", "access_denied");
      if (form.get("state")) back.searchParams.set("state", form.get("state")!);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === "/token" && req.method === "POST") {
      const form = new URLSearchParams(body);
      const grantType = form.get("grant_type");
      if (grantType === "authorization_code" || grantType === "refresh_token") {
        if (form.get("client_id") !== oauthClientId || form.get("client_secret") !== oauthClientSecret) return json(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." });
        let sub: string | undefined;
        if (grantType === "authorization_code") {
          const entry = codes.get(form.get("code") ?? "");
          codes.delete(form.get("code") ?? "");
          if (!entry || entry.redirectUri !== form.get("redirect_uri")) return json(res, 400, { error: "invalid_grant", error_description: "Bad Request" });
          sub = entry.email;
        } else {
          sub = refreshTokens.get(form.get("refresh_token") ?? "");
          if (!sub) return json(res, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
        }
        const refresh = `1//0g${randomBytes(16).toString("hex")}`;
        if (grantType === "authorization_code") refreshTokens.set(refresh, sub);
        return json(res, 200, {
          access_token: issue(sub, ["https://www.googleapis.com/auth/gmail.readonly"]),
          expires_in: oauthTtl,
          scope: "https://www.googleapis.com/auth/gmail.readonly",
          token_type: "Bearer",
          ...(grantType === "authorization_code" ? { refresh_token: refresh } : {}),
        });
      }
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return json(res, 400, { error: "unsupported_grant_type", error_description: "Invalid grant_type: " + form.get("grant_type") });
      let claims: { iss?: string; sub?: string; scope?: string };
      try {
        ({ payload: claims } = await jwtVerify(form.get("assertion") ?? "", publicKey, { audience: GOOGLE_TOKEN_AUD, issuer: key.client_email }));
      } catch {
        return json(res, 400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
      }
      requests[requests.length - 1]!.subject = claims.sub;
      if (!claims.sub || !users.some((u) => u.email === claims.sub)) return json(res, 400, { error: "invalid_grant", error_description: "Invalid email or User ID" });
      if (!delegationGranted) {
        return json(res, 401, { error: "unauthorized_client", error_description: "Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested." });
      }
      const access = `ya29.fake-${randomBytes(16).toString("hex")}`;
      tokens.set(access, { sub: claims.sub, scopes: String(claims.scope ?? "").split(" "), expires: Date.now() + 3600_000 });
      return json(res, 200, { access_token: access, expires_in: 3599, token_type: "Bearer" });
    }

    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const grant = token ? tokens.get(token) : undefined;
    const authorized = grant && grant.expires > Date.now() ? grant : undefined;

    if (url.pathname === "/admin/directory/v1/groups" && req.method === "GET") {
      if (!authorized) return apiError(res, 401, "Request had invalid authentication credentials.", "UNAUTHENTICATED");
      if (!authorized.scopes.some((s) => s.startsWith("https://www.googleapis.com/auth/admin.directory.group"))) return apiError(res, 403, "Request had insufficient authentication scopes.", "PERMISSION_DENIED");
      if (!users.find((u) => u.email === authorized.sub)?.admin) return apiError(res, 403, "Not Authorized to access this resource/api", "PERMISSION_DENIED");
      if (url.searchParams.get("customer") !== "my_customer" && !url.searchParams.get("domain")) return apiError(res, 400, "Bad Request", "INVALID_ARGUMENT");
      return json(res, 200, { kind: "admin#directory#groups", etag: '"fake"', groups: groups.map((g) => ({ kind: "admin#directory#group", ...g })) });
    }
    const profile = /^\/gmail\/v1\/users\/([^/]+)\/profile$/.exec(url.pathname);
    if (profile && req.method === "GET") {
      if (!authorized) return apiError(res, 401, "Request had invalid authentication credentials.", "UNAUTHENTICATED");
      const userId = decodeURIComponent(profile[1]!);
      if (userId !== "me" && userId !== authorized.sub) return apiError(res, 403, "Delegation denied for " + authorized.sub, "PERMISSION_DENIED");
      return json(res, 200, { emailAddress: authorized.sub, messagesTotal: 42, threadsTotal: 30, historyId: String(history.current) });
    }
    const mailbox = /^\/gmail\/v1\/users\/([^/]+)\/messages(\/[^/]+)?$/.exec(url.pathname);
    if (mailbox && req.method === "GET") {
      if (!authorized) return apiError(res, 401, "Request had invalid authentication credentials.", "UNAUTHENTICATED");
      if (!authorized.scopes.includes("https://www.googleapis.com/auth/gmail.readonly")) return apiError(res, 403, "Request had insufficient authentication scopes.", "PERMISSION_DENIED");
      const userId = decodeURIComponent(mailbox[1]!);
      if (userId !== "me" && userId !== authorized.sub) return apiError(res, 403, "Delegation denied for " + authorized.sub, "PERMISSION_DENIED");
      if (handleGmailMessages(url, authorized.sub, messages, history, pageTokens, maxPageSize, res, json, apiError)) return;
    }
    const changes = /^\/gmail\/v1\/users\/([^/]+)\/history$/.exec(url.pathname);
    if (changes && req.method === "GET") {
      if (!authorized) return apiError(res, 401, "Request had invalid authentication credentials.", "UNAUTHENTICATED");
      if (!authorized.scopes.includes("https://www.googleapis.com/auth/gmail.readonly")) return apiError(res, 403, "Request had insufficient authentication scopes.", "PERMISSION_DENIED");
      const userId = decodeURIComponent(changes[1]!);
      if (userId !== "me" && userId !== authorized.sub) return apiError(res, 403, "Delegation denied for " + authorized.sub, "PERMISSION_DENIED");
      if (handleGmailHistory(url, authorized.sub, history, pageTokens, maxPageSize, res, json, apiError)) return;
    }
    /** Answers the refusal and returns false unless the token is an admin's with a scope under `scopePrefix`. */
    const directoryAdmin = (scopePrefix: string): boolean => {
      const refusal: [number, string, string] | null = !authorized
        ? [401, "Request had invalid authentication credentials.", "UNAUTHENTICATED"]
        : !authorized.scopes.some((s) => s.startsWith(scopePrefix))
          ? [403, "Request had insufficient authentication scopes.", "PERMISSION_DENIED"]
          : !users.find((u) => u.email === authorized.sub)?.admin
            ? [403, "Not Authorized to access this resource/api", "PERMISSION_DENIED"]
            : null;
      if (refusal) apiError(res, ...refusal);
      return !refusal;
    };
    const members = /^\/admin\/directory\/v1\/groups\/([^/]+)\/members$/.exec(url.pathname);
    if (members && req.method === "GET") {
      if (!directoryAdmin("https://www.googleapis.com/auth/admin.directory.group")) return;
      const key = decodeURIComponent(members[1]!);
      const group = groups.find((g) => g.id === key || g.email === key);
      if (!group) return apiError(res, 404, "Resource Not Found: groupKey", "NOT_FOUND");
      const page = pageOf(group.members ?? [], Math.min(maxPageSize, Number(url.searchParams.get("maxResults") ?? 200) || 200), url.searchParams.get("pageToken"), pageTokens);
      return json(res, 200, {
        kind: "admin#directory#members",
        etag: '"fake"',
        members: page.items.map((email) => ({ kind: "admin#directory#member", id: createHash("md5").update(email).digest("hex").slice(0, 21), email, role: "MEMBER", type: "USER", status: "ACTIVE" })),
        ...(page.next ? { nextPageToken: page.next } : {}),
      });
    }
    if (url.pathname === "/admin/directory/v1/users" && req.method === "GET") {
      if (!directoryAdmin("https://www.googleapis.com/auth/admin.directory.user")) return;
      if (url.searchParams.get("customer") !== "my_customer" && !url.searchParams.get("domain")) return apiError(res, 400, "Bad Request", "INVALID_ARGUMENT");
      const page = pageOf(users, Math.min(maxPageSize, Number(url.searchParams.get("maxResults") ?? 100) || 100), url.searchParams.get("pageToken"), pageTokens);
      return json(res, 200, {
        kind: "admin#directory#users",
        users: page.items.map((u) => ({ kind: "admin#directory#user", id: createHash("md5").update(u.email).digest("hex").slice(0, 21), primaryEmail: u.email, isAdmin: !!u.admin, suspended: false, archived: false })),
        ...(page.next ? { nextPageToken: page.next } : {}),
      });
    }
    apiError(res, 404, `No such fake Google endpoint: ${req.method} ${url.pathname}`, "NOT_FOUND");
  });

  const boundPort = await listen(server, options.port ?? 0);
  const url = `http://127.0.0.1:${boundPort}`;
  return {
    url,
    oauthClientId,
    oauthClientSecret,
    authUrl: `${url}/o/oauth2/v2/auth`,
    tokenUrl: `${url}/token`,
    key,
    serviceAccountKey: JSON.stringify(key),
    setDelegationGranted: (granted) => {
      delegationGranted = granted;
    },
    requests,
    messages,
    addMessage,
    expireHistory: () => history.expire(),
    setAccessTokenTtl: (seconds) => {
      oauthTtl = seconds;
    },
    fail: (rule) => faults.add(rule),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// `npx tsx tests/fakes/google-admin.ts` runs it on its fixed port and prints the environment for the backend.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const fake = await startFakeGoogle({ port: Number(process.env.FAKE_GOOGLE_PORT ?? FAKE_GOOGLE_DEFAULTS.port) });
  console.log(`Fake Google on ${fake.url}`);
  console.log(`GOOGLE_TOKEN_URL=${fake.tokenUrl} GOOGLE_ADMIN_BASE_URL=${fake.url} GMAIL_API_BASE_URL=${fake.url}`);
  console.log(`GMAIL_OAUTH_CLIENT_ID=${fake.oauthClientId} GMAIL_OAUTH_CLIENT_SECRET=${fake.oauthClientSecret} GOOGLE_OAUTH_AUTH_URL=${fake.authUrl}`);
  console.log(`GMAIL_SERVICE_ACCOUNT_KEY='${fake.serviceAccountKey}'`);
}
