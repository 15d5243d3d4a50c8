import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

/**
 * (Shared by the fakes.) Listens on 127.0.0.1:port, retrying for a few seconds when the port is busy:
 * the fixed fake ports (47100–47199) lie in Linux's ephemeral range, so an
 * outgoing connection elsewhere on the machine can hold one briefly.
 */
export async function listen(server: http.Server, port: number, attempts = 25): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.once("error", onError);
        server.listen(port, "127.0.0.1", () => {
          server.off("error", onError);
          resolve();
        });
      });
      return (server.address() as AddressInfo).port;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || port === 0 || attempt >= attempts) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** (Shared by the fakes.) A failure a test asks a fake to answer with, for the next `times` matching requests. */
export interface FaultRule {
  /** A path (exact) or a pattern the request's path must match. */
  path: string | RegExp;
  status: number;
  /** How many matching requests fail (default 1). */
  times?: number;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  /** The JSON body (default: the provider's error envelope for the status). */
  body?: unknown;
}

/** (Shared by the fakes.) Planned failures, consumed in order. */
export class Faults {
  private rules: (FaultRule & { left: number })[] = [];
  add(rule: FaultRule) {
    this.rules.push({ ...rule, left: rule.times ?? 1 });
  }
  clear() {
    this.rules = [];
  }
  /** Answers with the first matching planned failure; true when it did. */
  apply(path: string, res: http.ServerResponse, envelope: (status: number) => unknown): boolean {
    const rule = this.rules.find((r) => r.left > 0 && (typeof r.path === "string" ? r.path === path : r.path.test(path)));
    if (!rule) return false;
    rule.left--;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (rule.retryAfter !== undefined) headers["retry-after"] = String(rule.retryAfter);
    res.writeHead(rule.status, headers);
    res.end(JSON.stringify(rule.body ?? envelope(rule.status)));
    return true;
  }
}

/** (Shared by the fakes.) One page of `items` from an opaque continuation token; tokens are kept in `tokens`. */
export function pageOf<T>(items: T[], pageSize: number, token: string | null, tokens: Map<string, number>): { items: T[]; next: string } {
  const start = token ? (tokens.get(token) ?? -1) : 0;
  if (start < 0) return { items: [], next: "" };
  const end = start + Math.max(1, pageSize);
  let next = "";
  if (end < items.length) {
    next = randomBytes(12).toString("base64url");
    tokens.set(next, end);
  }
  return { items: items.slice(start, end), next };
}

/** Today's UTC midnight: the default anchor the fakes' meetings and messages are placed around. */
export const utcMidnight = (at = new Date()) => new Date(Math.floor(at.getTime() / 86_400_000) * 86_400_000);

/* ---- Zoom's cloud recordings, deterministic ---------------------------------------------------------- */

export interface FakeZoomUser {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

export const FAKE_ZOOM_USERS: FakeZoomUser[] = [
  { id: "KDcuGIm1QgePTO8WbOqwIQ", email: "jill@example.com", first_name: "Jill", last_name: "Chill" },
  { id: "z8yCxjabR0e3Rh1yZ-r7Ew", email: "raj@example.com", first_name: "Raj", last_name: "Patel" },
  { id: "Wq3bTmZkQ0a8o1mPzV5xJg", email: "mia@example.com", first_name: "Mia", last_name: "Wong" },
];

/** Group id → member user ids. */
export const FAKE_ZOOM_GROUP_MEMBERS: Record<string, string[]> = {
  grp_sales: ["KDcuGIm1QgePTO8WbOqwIQ", "z8yCxjabR0e3Rh1yZ-r7Ew"],
  grp_support: ["Wq3bTmZkQ0a8o1mPzV5xJg"],
};

export interface FakeZoomRecording {
  /** The meeting instance's UUID (base64, may hold "/", "+" and "="). */
  uuid: string;
  meetingNumber: number;
  hostId: string;
  topic: string;
  start: Date;
  durationMinutes: number;
  /** null: the recording has no transcript file (video only). */
  cues: { speaker: string; text: string; startMs: number; endMs: number }[] | null;
}

const CUSTOMER_LINES = [
  "Thanks for having us, we have a few questions about the rollout.",
  "Our finance team needs the pricing by Friday.",
  "Could you share the security questionnaire?",
  "The pilot went well, the team liked the dashboards.",
  "We would like to add two more seats next quarter.",
];
const HOST_LINES = [
  "Welcome everyone, let's get started.",
  "I will send the proposal after this call.",
  "Our solutions engineer can join the next session.",
  "Great, I'll note that as an action item.",
  "Thanks all, talk soon.",
];

/**
 * Every user's cloud recordings around `anchor` (a UTC midnight): four per
 * user, 1, 2, 4 and 9 days before it; the third (4 days before) has no
 * transcript. Transcripts alternate the host and "Dana Customer (Globex)".
 */
export function zoomRecordingsFixture(anchor: Date, users: FakeZoomUser[] = FAKE_ZOOM_USERS): FakeZoomRecording[] {
  const out: FakeZoomRecording[] = [];
  users.forEach((user, u) => {
    [1, 2, 4, 9].forEach((daysBefore, n) => {
      const digest = createHash("sha256").update(`${user.id}:${n}`).digest();
      const host = `${user.first_name} ${user.last_name}`;
      const count = 3 + ((u + n) % 3);
      let clock = 1200;
      const cues = Array.from({ length: count }, (_, i) => {
        const startMs = clock;
        const endMs = startMs + 2500 + i * 100;
        clock = endMs + 700;
        return i % 2 === 0 ? { speaker: host, text: HOST_LINES[(i + n) % HOST_LINES.length]!, startMs, endMs } : { speaker: "Dana Customer (Globex)", text: CUSTOMER_LINES[(i + u) % CUSTOMER_LINES.length]!, startMs, endMs };
      });
      out.push({
        uuid: digest.subarray(0, 16).toString("base64"),
        meetingNumber: 81000000000 + u * 100 + n,
        hostId: user.id,
        topic: `${host} / Globex sync ${n + 1}`,
        start: new Date(anchor.getTime() - daysBefore * 86_400_000 + (9 + u) * 3_600_000 + n * 60_000),
        durationMinutes: 30,
        cues: n === 2 ? null : cues,
      });
    });
  });
  return out;
}

const vttTime = (ms: number) => new Date(ms).toISOString().slice(11, 23);

/** The transcript file as Zoom serves it: numbered cues, "Speaker: text". */
export function zoomVtt(recording: FakeZoomRecording): string {
  return `WEBVTT\n\n${(recording.cues ?? []).map((c, i) => `${i + 1}\n${vttTime(c.startMs)} --> ${vttTime(c.endMs)}\n${c.speaker}: ${c.text}\n`).join("\n")}`;
}

/**
 * A local server speaking the parts of Zoom that Tributary calls, with Zoom's
 * documented shapes:
 * - OAuth (https://zoom.us): GET /oauth/authorize shows a consent page whose
 *   "Allow" button redirects to redirect_uri?code=…&state=…; POST /oauth/token
 *   (HTTP Basic client auth) for grant_type=authorization_code and refresh_token.
 * - REST (https://api.zoom.us/v2): GET /v2/users/me, GET /v2/groups (Bearer);
 *   for reading: GET /v2/users (status=active), GET /v2/groups/{groupId}/members,
 *   GET /v2/users/{userId}/recordings?from&to (dates, at most a month; paged
 *   with page_size/next_page_token), and each TRANSCRIPT file's download_url
 *   (GET /rec/download/{fileId}, Bearer or ?access_token=).
 * Our real client code (openid-client + fetch) runs against it.
 */
export interface FakeZoomOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  groups?: { id: string; name: string; total_members: number }[];
  /** Lifetime of issued access tokens in seconds (Zoom: 3599). */
  accessTokenTtl?: number;
  /** The UTC midnight the recordings are placed before (default: today's). */
  anchor?: Date;
  /** Most records per page whatever page_size asks (Zoom: 300), to exercise paging. */
  maxPageSize?: number;
}

export interface FakeZoom {
  url: string;
  oauthBaseUrl: string;
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Every request, for assertions ("which grant was used"). */
  requests: { method: string; path: string; grantType?: string; query?: Record<string, string> }[];
  /** Issues a code as the consent page would, for tests that play the browser. */
  issueCode(redirectUri: string): string;
  /** Lifetime (seconds) of the access tokens issued from now on. */
  setAccessTokenTtl(seconds: number): void;
  /** Makes every issued access token invalid (as if the user uninstalled the app). */
  revokeAll(): void;
  /** Makes the issued access tokens invalid but keeps the refresh tokens (as when they expire early). */
  expireAccessTokens(): void;
  /** The recordings served (all users). */
  recordings: FakeZoomRecording[];
  users: FakeZoomUser[];
  /** The next matching requests fail as told. */
  fail(rule: FaultRule): void;
  /** Forgets the planned failures not yet used (the provider is healthy again). */
  clearFaults(): void;
  close(): Promise<void>;
}

export const FAKE_ZOOM_DEFAULTS = {
  port: 47110,
  clientId: "fake-zoom-client-id",
  clientSecret: "fake-zoom-client-secret",
  groups: [
    { id: "grp_sales", name: "Sales", total_members: 12 },
    { id: "grp_support", name: "Customer Support", total_members: 7 },
  ],
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const fileIds = new WeakMap<FakeZoomRecording, string>();
/** A recording's transcript file id (a hash of its UUID, kept: a benchmark's fake holds 20,000 recordings). */
function transcriptFileId(r: FakeZoomRecording): string {
  let id = fileIds.get(r);
  if (id === undefined) fileIds.set(r, (id = createHash("sha256").update(`transcript:${r.uuid}`).digest("hex").slice(0, 24)));
  return id;
}

function recordingJson(r: FakeZoomRecording, origin: string) {
  const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");
  const end = new Date(r.start.getTime() + r.durationMinutes * 60_000);
  const files = [
    { id: createHash("sha256").update(`video:${r.uuid}`).digest("hex").slice(0, 24), file_type: "MP4", file_extension: "MP4", recording_type: "shared_screen_with_speaker_view" },
    ...(r.cues ? [{ id: transcriptFileId(r), file_type: "TRANSCRIPT", file_extension: "VTT", recording_type: "audio_transcript" }] : []),
  ].map((f) => ({ ...f, meeting_id: r.uuid, recording_start: iso(r.start), recording_end: iso(end), file_size: f.file_type === "TRANSCRIPT" ? Buffer.byteLength(zoomVtt(r)) : 4096, status: "completed", play_url: `${origin}/rec/play/${f.id}`, download_url: `${origin}/rec/download/${f.id}` }));
  return {
    uuid: r.uuid,
    id: r.meetingNumber,
    account_id: "q6gBJVO5TzexKYTb_I2rpg",
    host_id: r.hostId,
    topic: r.topic,
    type: 2,
    start_time: iso(r.start),
    timezone: "UTC",
    duration: r.durationMinutes,
    total_size: files.reduce((n, f) => n + f.file_size, 0),
    recording_count: files.length,
    share_url: `${origin}/rec/share/${r.meetingNumber}`,
    recording_files: files,
  };
}

export async function startFakeZoom(options: FakeZoomOptions = {}): Promise<FakeZoom> {
  const clientId = options.clientId ?? FAKE_ZOOM_DEFAULTS.clientId;
  const clientSecret = options.clientSecret ?? FAKE_ZOOM_DEFAULTS.clientSecret;
  const groups = options.groups ?? FAKE_ZOOM_DEFAULTS.groups;
  let ttl = options.accessTokenTtl ?? 3599;
  const codes = new Map<string, { redirectUri: string; expires: number }>();
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  const requests: FakeZoom["requests"] = [];
  const users = FAKE_ZOOM_USERS;
  const recordings = zoomRecordingsFixture(options.anchor ?? utcMidnight(), users);
  const maxPageSize = options.maxPageSize ?? 300;
  const pageTokens = new Map<string, number>();
  const byFileId = new Map<string, FakeZoomRecording>();
  /** Each host's recordings, newest first, with their UTC day; remade when the recordings or their starts change. */
  let hosts = new Map<string, { recording: FakeZoomRecording; day: string }[]>();
  let hostsKey = "";
  const hostedBy = (hostId: string) => {
    const key = `${recordings.length}:${recordings.reduce((n, r) => n + r.start.getTime(), 0)}`;
    if (key !== hostsKey) {
      hosts = new Map();
      for (const recording of [...recordings].sort((a, b) => b.start.getTime() - a.start.getTime())) {
        const list = hosts.get(recording.hostId) ?? [];
        list.push({ recording, day: recording.start.toISOString().slice(0, 10) });
        hosts.set(recording.hostId, list);
      }
      hostsKey = key;
    }
    return hosts.get(hostId) ?? [];
  };
  const faults = new Faults();
  const zoomError = (status: number) => ({ code: status === 429 ? 429 : status, message: status === 429 ? "You have reached the maximum per-second rate limit for this API. Try again later." : status >= 500 ? "Internal Error." : "Request refused." });
  const bearer = (req: http.IncomingMessage, url: URL) => /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? url.searchParams.get("access_token") ?? undefined;

  const issueCode = (redirectUri: string) => {
    const code = randomBytes(16).toString("hex");
    codes.set(code, { redirectUri, expires: Date.now() + 5 * 60_000 });
    return code;
  };
  const issueTokens = () => {
    const access = `zat_${randomBytes(16).toString("hex")}`;
    const refresh = `zrt_${randomBytes(16).toString("hex")}`;
    accessTokens.set(access, Date.now() + ttl * 1000);
    refreshTokens.add(refresh);
    return { access_token: access, token_type: "bearer", refresh_token: refresh, expires_in: ttl, scope: "user:read:user group:read:list_groups", api_url: "https://api.zoom.us" };
  };

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = "";
      req.on("data", (chunk) => (data += chunk));
      req.on("end", () => resolve(data));
    });
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const bearerOk = (req: http.IncomingMessage, url: URL) => {
    const token = bearer(req, url);
    const expires = token ? accessTokens.get(token) : undefined;
    return expires !== undefined && expires > Date.now();
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const body = req.method === "POST" ? await readBody(req) : "";
    const form = new URLSearchParams(body);
    requests.push({ method: req.method ?? "GET", path: url.pathname, grantType: form.get("grant_type") ?? undefined, query: Object.fromEntries(url.searchParams) });
    if (faults.apply(url.pathname, res, zoomError)) return;

    if (url.pathname === "/favicon.ico") {
      res.writeHead(204);
      return res.end();
    }
    if (url.pathname === "/oauth/authorize" && req.method === "GET") {
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      if (url.searchParams.get("client_id") !== clientId || url.searchParams.get("response_type") !== "code" || !/^https?:\/\//.test(redirectUri)) {
        res.writeHead(400, { "content-type": "text/html" });
        return res.end("<!doctype html><title>Zoom</title><h1>Invalid client_id or redirect_uri</h1>");
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><html lang="en"><head><title>Zoom - Authorize app</title></head><body>
<main><h1>Allow this app to use your Zoom account?</h1>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="redirect_uri" value="${escapeHtml(redirectUri)}">
<input type="hidden" name="state" value="${escapeHtml(url.searchParams.get("state") ?? "")}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Decline</button>
</form></main></body></html>`);
    }
    if (url.pathname === "/oauth/authorize" && req.method === "POST") {
      const back = new URL(form.get("redirect_uri") ?? "");
      if (form.get("decision") === "allow") back.searchParams.set("code", issueCode(back.href));
      else back.searchParams.set("error", "access_denied");
      if (form.get("state")) back.searchParams.set("state", form.get("state")!);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === "/oauth/token" && req.method === "POST") {
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const [id, secret] = basic ? Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent) : [];
      if (id !== clientId || secret !== clientSecret) return json(res, 401, { reason: "Invalid client_id or client_secret", error: "invalid_client" });
      const grant = form.get("grant_type");
      if (grant === "authorization_code") {
        const entry = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const redirectUri = form.get("redirect_uri") ?? "";
        if (!entry || entry.expires < Date.now() || !entry.redirectUri.startsWith(redirectUri)) {
          return json(res, 400, { reason: "Invalid authorization code", error: "invalid_grant", error_description: "Invalid authorization code" });
        }
        return json(res, 200, issueTokens());
      }
      if (grant === "refresh_token") {
        const refresh = form.get("refresh_token") ?? "";
        if (!refreshTokens.delete(refresh)) return json(res, 400, { reason: "Invalid Token!", error: "invalid_grant", error_description: "Invalid Token!" });
        return json(res, 200, issueTokens());
      }
      return json(res, 400, { reason: "Unsupported grant type", error: "unsupported_grant_type" });
    }
    const download = /^\/rec\/download\/([^/]+)$/.exec(url.pathname);
    if (download && req.method === "GET") {
      if (!bearerOk(req, url)) return json(res, 401, { code: 124, message: "Invalid access token." });
      // Looked up by file id through an index remade when recordings are added (tests add some as they go).
      if (byFileId.size !== recordings.length) {
        byFileId.clear();
        for (const r of recordings) byFileId.set(transcriptFileId(r), r);
      }
      const found = byFileId.get(download[1]!);
      const recording = found?.cues ? found : undefined;
      if (!recording) return json(res, 404, { code: 3301, message: "This recording does not exist." });
      res.writeHead(200, { "content-type": "text/vtt; charset=utf-8" });
      return res.end(zoomVtt(recording));
    }
    if (url.pathname.startsWith("/v2/")) {
      if (!bearerOk(req, url)) return json(res, 401, { code: 124, message: "Invalid access token." });
      const pageSize = Math.min(maxPageSize, Number(url.searchParams.get("page_size") ?? 30) || 30);
      const token = url.searchParams.get("next_page_token") || null;
      const userJson = (u: FakeZoomUser) => ({ id: u.id, email: u.email, first_name: u.first_name, last_name: u.last_name, display_name: `${u.first_name} ${u.last_name}`, type: 2, status: "active" });
      if (url.pathname === "/v2/users" && req.method === "GET") {
        const page = pageOf(users, pageSize, token, pageTokens);
        return json(res, 200, { page_size: pageSize, total_records: users.length, next_page_token: page.next, users: page.items.map(userJson) });
      }
      const members = /^\/v2\/groups\/([^/]+)\/members$/.exec(url.pathname);
      if (members && req.method === "GET") {
        const ids = FAKE_ZOOM_GROUP_MEMBERS[decodeURIComponent(members[1]!)];
        if (!ids) return json(res, 404, { code: 4130, message: `Group does not exist: ${decodeURIComponent(members[1]!)}.` });
        const page = pageOf(users.filter((u) => ids.includes(u.id)), pageSize, token, pageTokens);
        return json(res, 200, { page_size: pageSize, total_records: ids.length, next_page_token: page.next, members: page.items.map(userJson) });
      }
      const list = /^\/v2\/users\/([^/]+)\/recordings$/.exec(url.pathname);
      if (list && req.method === "GET") {
        const userId = decodeURIComponent(list[1]!);
        const user = users.find((u) => u.id === userId || u.email === userId || (userId === "me" && u === users[0]));
        if (!user) return json(res, 404, { code: 1001, message: `User does not exist: ${userId}.` });
        const from = url.searchParams.get("from") ?? new Date().toISOString().slice(0, 10);
        const to = url.searchParams.get("to") ?? new Date().toISOString().slice(0, 10);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to) || Date.parse(to) < Date.parse(from)) return json(res, 400, { code: 300, message: "Invalid date range." });
        if (Date.parse(to) - Date.parse(from) > 31 * 86_400_000) return json(res, 400, { code: 300, message: "The date range must be within one month." });
        // Newest first, as Zoom lists them; each user's list is kept sorted until recordings are added or changed.
        const selected = hostedBy(user.id).filter((r) => r.day >= from && r.day <= to).map((r) => r.recording);
        const page = pageOf(selected, pageSize, token, pageTokens);
        const origin = `http://${req.headers.host}`;
        return json(res, 200, {
          from,
          to,
          page_size: pageSize,
          total_records: selected.length,
          next_page_token: page.next,
          meetings: page.items.map((r) => recordingJson(r, origin)),
        });
      }
      if (url.pathname === "/v2/users/me" && req.method === "GET") {
        return json(res, 200, { id: "KDcuGIm1QgePTO8WbOqwIQ", first_name: "Jill", last_name: "Chill", email: "jill@example.com", account_id: "q6gBJVO5TzexKYTb_I2rpg", type: 2 });
      }
      if (url.pathname === "/v2/groups" && req.method === "GET") {
        return json(res, 200, { groups, total_records: groups.length, next_page_token: "" });
      }
    }
    json(res, 404, { code: 404, message: `No such fake Zoom endpoint: ${req.method} ${url.pathname}` });
  });

  const boundPort = await listen(server, options.port ?? 0);
  const port = boundPort;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    oauthBaseUrl: url,
    apiBaseUrl: `${url}/v2`,
    clientId,
    clientSecret,
    requests,
    issueCode,
    setAccessTokenTtl: (seconds) => {
      ttl = seconds;
    },
    revokeAll: () => {
      accessTokens.clear();
      refreshTokens.clear();
    },
    expireAccessTokens: () => accessTokens.clear(),
    recordings,
    users,
    fail: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// `npx tsx tests/fakes/zoom.ts` runs it on its fixed port for local use.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const fake = await startFakeZoom({ port: Number(process.env.FAKE_ZOOM_PORT ?? FAKE_ZOOM_DEFAULTS.port) });
  console.log(`Fake Zoom on ${fake.url} (ZOOM_OAUTH_BASE_URL=${fake.oauthBaseUrl} ZOOM_API_BASE_URL=${fake.apiBaseUrl} ZOOM_CLIENT_ID=${fake.clientId} ZOOM_CLIENT_SECRET=${fake.clientSecret})`);
}
