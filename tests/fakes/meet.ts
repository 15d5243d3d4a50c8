import { createHash, createPublicKey, randomBytes } from "node:crypto";
import http from "node:http";
import { jwtVerify } from "jose";
import { Faults, listen, pageOf, utcMidnight, type FaultRule } from "./zoom.js";
import type { ServiceAccountKeyFile } from "./google-admin.js";

/**
 * A local server speaking the parts of Google that Tributary's Google Meet source calls, with Google's documented
 * shapes and errors (https://developers.google.com/meet/api/reference/rest/v2):
 * - OAuth 2.0 token endpoint, JWT-bearer grant (RFC 7523), as a service account with domain-wide delegation uses it:
 *   the assertion is checked against the service account's public key (the key the fake Google of
 *   tests/fakes/google-admin.ts made, so one GMAIL_SERVICE_ACCOUNT_KEY serves both), its `sub` must be a Workspace
 *   user (else invalid_grant), and the client must have been granted the scopes it asks for (else unauthorized_client).
 *   Each access token remembers the user it acts as.
 * - Meet REST API v2, as the token's user: GET /v2/conferenceRecords (filter on start_time / end_time /
 *   space.meeting_code / space.name, pageSize, pageToken; newest first), …/{record}, …/{record}/participants,
 *   …/{record}/transcripts, …/{record}/transcripts/{t}/entries, and /v2/spaces/{space}. A user sees the conferences
 *   they organized or joined signed in.
 * The Directory API (who is in the Workspace, a group's members) is the fake Google's. The official clients
 * (@googleapis/meet on google-auth-library) run against it.
 */

export const MEET_SCOPE = "https://www.googleapis.com/auth/meetings.space.readonly";
const MEET_SCOPES = [MEET_SCOPE, "https://www.googleapis.com/auth/meetings.space.created", "https://www.googleapis.com/auth/meetings.space.settings"];
const GOOGLE_TOKEN_AUD = "https://oauth2.googleapis.com/token";

/** The Directory id of a Workspace user, as the fake Google gives it (admin.directory users.list's `id`). */
export const directoryId = (email: string) => createHash("md5").update(email).digest("hex").slice(0, 21);

export interface FakeMeetUser {
  email: string;
  /** The name Meet shows for them. */
  name: string;
}

export interface FakeMeetLine {
  /** A Workspace user's e-mail, or a guest's display name. */
  speaker: string;
  text: string;
  /** Seconds from the conference's start, and how long the line lasts. */
  at: number;
  seconds: number;
}

export interface FakeMeetAttendee {
  /** A Workspace user (signed in), or a guest: signed in to another Google account, anonymous, or dialled in. */
  email?: string;
  name: string;
  kind: "user" | "external" | "anonymous" | "phone";
}

export interface FakeConference {
  /** "conferenceRecords/<id>". */
  name: string;
  id: string;
  space: { name: string; meetingCode: string };
  organizer: string;
  startTime: Date;
  endTime: Date | null;
  attendees: FakeMeetAttendee[];
  /** Transcripts, each its lines (a meeting transcribed, stopped and started again has two). */
  transcripts: FakeMeetLine[][];
}

export interface FakeMeetOptions {
  port?: number;
  /** The service account whose assertions the token endpoint accepts (the fake Google's `key`). */
  key: ServiceAccountKeyFile;
  /** The Workspace's users (the fake Google's, by default): the only subjects the token endpoint accepts. */
  users?: FakeMeetUser[];
  /** The UTC midnight the conferences are placed before (default: today's). */
  anchor?: Date;
  /** Most items per page (records, participants, transcripts, entries), to exercise paging. */
  maxPageSize?: number;
  delegationGranted?: boolean;
}

export interface FakeMeet {
  url: string;
  /** Point MEET_TOKEN_URL here, MEET_API_URL at `url`. */
  tokenUrl: string;
  conferences: FakeConference[];
  requests: { method: string; path: string; query: Record<string, string>; subject?: string; status?: number }[];
  /** How many requests each kind got: token, records, record, participants, transcripts, entries, spaces. */
  count(kind: "token" | "records" | "record" | "participants" | "transcripts" | "entries" | "spaces"): number;
  /** The Workspace admin grants (or never granted) Tributary's client domain-wide delegation for Meet's scope. */
  setDelegationGranted(granted: boolean): void;
  /** The admin removes the delegation: the tokens given out stop working (401), new ones are refused (unauthorized_client). */
  revoke(): void;
  /** The next matching requests fail as told. */
  fail(rule: FaultRule): void;
  close(): Promise<void>;
}

export const FAKE_MEET_USERS: FakeMeetUser[] = [
  { email: "admin@acme.example", name: "Alex Admin" },
  { email: "sam@acme.example", name: "Sam Seller" },
  { email: "lee@acme.example", name: "Lee Engineer" },
];

const id = (seed: string, length = 22) => createHash("sha256").update(seed).digest("base64url").replace(/[-_]/g, "x").slice(0, length);
const meetingCode = (seed: string) => {
  const letters = createHash("sha256").update(seed).digest().subarray(0, 10);
  const s = [...letters].map((b) => String.fromCharCode(97 + (b % 26))).join("");
  return `${s.slice(0, 3)}-${s.slice(3, 7)}-${s.slice(7, 10)}`;
};

function conference(seed: string, organizer: string, start: Date, minutes: number, attendees: FakeMeetAttendee[], transcripts: FakeMeetLine[][]): FakeConference {
  const recordId = id(`record:${seed}`);
  return {
    name: `conferenceRecords/${recordId}`,
    id: recordId,
    space: { name: `spaces/${id(`space:${seed}`, 12)}`, meetingCode: meetingCode(seed) },
    organizer,
    startTime: start,
    endTime: new Date(start.getTime() + minutes * 60_000),
    attendees,
    transcripts,
  };
}

/** Lines said one after another from `from` seconds, each lasting a few seconds. */
function lines(from: number, said: [speaker: string, text: string][]): FakeMeetLine[] {
  let at = from;
  return said.map(([speaker, text]) => {
    const seconds = 4 + (text.length % 9);
    const line = { speaker, text, at, seconds };
    at += seconds + 2;
    return line;
  });
}

/**
 * Four conferences before `anchor` (a UTC midnight): a renewal call 6 hours before (admin organizes, Sam and a Globex
 * buyer join, a phone user listens; transcribed twice), a pricing call a day before (Lee with an anonymous guest; a long
 * transcript, to page through; Sam listens), a call 2 days before with no transcript, and one 8 days before.
 */
export function meetFixture(anchor: Date): FakeConference[] {
  const at = (hoursBefore: number) => new Date(anchor.getTime() - hoursBefore * 3_600_000);
  const dana: FakeMeetAttendee = { name: "Dana Buyer", kind: "external" };
  const renewal = conference(
    "renewal",
    "admin@acme.example",
    at(6),
    30,
    [{ email: "admin@acme.example", name: "Alex Admin", kind: "user" }, { email: "sam@acme.example", name: "Sam Seller", kind: "user" }, dana, { name: "+1 415-555-0100", kind: "phone" }],
    [
      lines(5, [
        ["sam@acme.example", "Thanks for joining, Dana. Today we want to walk through the renewal and the pricing for next year."],
        ["Dana Buyer", "Great, we love the product, but the budget is tight and the price went up again."],
        ["admin@acme.example", "We hear you. We can offer a discount if you commit to two years."],
        ["Dana Buyer", "A two year contract could work if the security review passes."],
      ]),
      lines(900, [
        ["sam@acme.example", "Let's schedule the security review next week and send the order form after it."],
        ["Dana Buyer", "Perfect. Please send the proposal and the order form to my team."],
        ["admin@acme.example", "Will do. Thanks everyone, talk soon."],
      ]),
    ],
  );
  const pricing = conference(
    "pricing",
    "lee@acme.example",
    at(24),
    45,
    [{ email: "lee@acme.example", name: "Lee Engineer", kind: "user" }, { name: "Anonymous Jaguar", kind: "anonymous" }, { email: "sam@acme.example", name: "Sam Seller", kind: "user" }],
    [
      lines(
        10,
        Array.from({ length: 12 }, (_, n): [string, string] =>
          n % 2 === 0
            ? ["lee@acme.example", ["The integration syncs every hour.", "Pricing depends on the number of seats.", "Onboarding takes about two weeks.", "Support is included in every plan.", "We can start a pilot on Monday.", "I will share the roadmap after this call."][n / 2]!]
            : ["Anonymous Jaguar", ["How often does the data sync?", "What does it cost for fifty seats?", "How long is onboarding?", "Is support extra?", "Can we try it first?", "Sounds good, thank you."][(n - 1) / 2]!],
        ),
      ),
    ],
  );
  const silent = conference("standup", "sam@acme.example", at(48), 15, [{ email: "sam@acme.example", name: "Sam Seller", kind: "user" }, { email: "lee@acme.example", name: "Lee Engineer", kind: "user" }], []);
  const old = conference(
    "kickoff",
    "admin@acme.example",
    at(8 * 24),
    20,
    [{ email: "admin@acme.example", name: "Alex Admin", kind: "user" }],
    [lines(3, [["admin@acme.example", "Kickoff notes for the quarter."]])],
  );
  return [renewal, pricing, silent, old];
}

type Clause = { field: string; op: string; value: string };

/** Meet's list filter (EBNF of AIP-160, the fields conferenceRecords.list documents), or null when it is not one. */
function parseFilter(filter: string): Clause[] | null {
  if (!filter.trim()) return [];
  const clauses: Clause[] = [];
  for (const part of filter.split(/\s+AND\s+/)) {
    const m = /^\s*(start_time|end_time|space\.meeting_code|space\.name)\s*(>=|<=|=|>|<)\s*"([^"]*)"\s*$/.exec(part);
    if (!m) return null;
    if (m[1]!.endsWith("_time") && Number.isNaN(Date.parse(m[3]!))) return null;
    clauses.push({ field: m[1]!, op: m[2]!, value: m[3]! });
  }
  return clauses;
}

function matches(c: FakeConference, clauses: Clause[]): boolean {
  return clauses.every(({ field, op, value }) => {
    if (field === "space.meeting_code") return op === "=" && c.space.meetingCode === value;
    if (field === "space.name") return op === "=" && c.space.name === value;
    const time = field === "start_time" ? c.startTime : c.endTime;
    if (!time) return false;
    const [a, b] = [time.getTime(), Date.parse(value)];
    return op === ">=" ? a >= b : op === ">" ? a > b : op === "<=" ? a <= b : op === "<" ? a < b : a === b;
  });
}

export async function startFakeMeet(options: FakeMeetOptions): Promise<FakeMeet> {
  const users = options.users ?? FAKE_MEET_USERS;
  const workspace = new Set(users.map((u) => u.email));
  const publicKey = createPublicKey(options.key.private_key);
  const conferences = meetFixture(options.anchor ?? utcMidnight());
  const maxPageSize = options.maxPageSize ?? 1000;
  let delegationGranted = options.delegationGranted ?? true;
  const tokens = new Map<string, { sub: string; scopes: string[]; expires: number }>();
  const requests: FakeMeet["requests"] = [];
  const pageTokens = new Map<string, number>();
  const faults = new Faults();

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    requests[requests.length - 1]!.status = status;
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify(body));
  };
  const statusName = (code: number) =>
    code === 429 ? "RESOURCE_EXHAUSTED" : code >= 500 ? "INTERNAL" : code === 404 ? "NOT_FOUND" : code === 403 ? "PERMISSION_DENIED" : code === 401 ? "UNAUTHENTICATED" : "INVALID_ARGUMENT";
  /** Google's JSON error envelope. */
  const apiError = (res: http.ServerResponse, code: number, message: string) => json(res, code, { error: { code, message, status: statusName(code) } });
  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = "";
      req.on("data", (chunk) => (data += chunk));
      req.on("end", () => resolve(data));
    });
  const size = (url: URL, fallback: number, max: number) => {
    const asked = Number(url.searchParams.get("pageSize") ?? fallback) || fallback;
    return Math.min(asked, max, maxPageSize);
  };
  /** Whether `email` may see the conference: its organizer, or a participant signed in with that account. */
  const sees = (c: FakeConference, email: string) => c.organizer === email || c.attendees.some((a) => a.kind === "user" && a.email === email);
  const participantId = (c: FakeConference, a: FakeMeetAttendee) => id(`${c.id}:participant:${a.email ?? a.name}`, 16);
  const participant = (c: FakeConference, a: FakeMeetAttendee) => {
    const name = `${c.name}/participants/${participantId(c, a)}`;
    const joined = new Date(c.startTime.getTime() + 30_000).toISOString();
    const left = c.endTime?.toISOString();
    const base = { name, earliestStartTime: joined, ...(left ? { latestEndTime: left } : {}) };
    if (a.kind === "user") return { ...base, signedinUser: { user: `users/${directoryId(a.email!)}`, displayName: a.name } };
    if (a.kind === "external") return { ...base, signedinUser: { user: `users/${id(`external:${a.name}`, 21)}`, displayName: a.name } };
    if (a.kind === "anonymous") return { ...base, anonymousUser: { displayName: a.name } };
    return { ...base, phoneUser: { displayName: a.name } };
  };
  const speakerOf = (c: FakeConference, speaker: string) => c.attendees.find((a) => a.email === speaker || a.name === speaker)!;
  const transcriptName = (c: FakeConference, n: number) => `${c.name}/transcripts/${id(`${c.id}:transcript:${n}`, 16)}`;
  const transcript = (c: FakeConference, n: number) => {
    const said = c.transcripts[n]!;
    const first = said[0]!;
    const last = said[said.length - 1]!;
    const start = new Date(c.startTime.getTime() + first.at * 1000 - 1000);
    const end = new Date(c.startTime.getTime() + (last.at + last.seconds) * 1000 + 1000);
    return {
      name: transcriptName(c, n),
      state: "FILE_GENERATED",
      startTime: start.toISOString(),
      endTime: end.toISOString(),
      docsDestination: { document: id(`${c.id}:doc:${n}`, 44), exportUri: `https://docs.google.com/document/d/${id(`${c.id}:doc:${n}`, 44)}` },
    };
  };
  const record = (c: FakeConference) => ({
    name: c.name,
    startTime: c.startTime.toISOString(),
    ...(c.endTime ? { endTime: c.endTime.toISOString() } : {}),
    expireTime: new Date(c.startTime.getTime() + 30 * 86_400_000).toISOString(),
    space: c.space.name,
  });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const body = req.method === "POST" ? await readBody(req) : "";
    requests.push({ method: req.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams) });
    if (faults.apply(url.pathname, res, (code) => ({ error: { code, message: code === 429 ? "Quota exceeded for quota metric 'Read requests'." : code >= 500 ? "Internal error encountered." : "The caller does not have permission", status: statusName(code) } }))) return;

    if (url.pathname === "/token" && req.method === "POST") {
      const form = new URLSearchParams(body);
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return json(res, 400, { error: "unsupported_grant_type", error_description: "Invalid grant_type: " + form.get("grant_type") });
      let claims: { sub?: string; scope?: string };
      try {
        ({ payload: claims } = await jwtVerify(form.get("assertion") ?? "", publicKey, { audience: GOOGLE_TOKEN_AUD, issuer: options.key.client_email }));
      } catch {
        return json(res, 400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
      }
      requests[requests.length - 1]!.subject = claims.sub;
      if (!claims.sub || !workspace.has(claims.sub)) return json(res, 400, { error: "invalid_grant", error_description: "Invalid email or User ID" });
      const scopes = String(claims.scope ?? "").split(" ").filter(Boolean);
      if (!delegationGranted || !scopes.length || scopes.some((s) => !MEET_SCOPES.includes(s))) {
        return json(res, 401, { error: "unauthorized_client", error_description: "Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested." });
      }
      const access = `ya29.meet-${randomBytes(16).toString("hex")}`;
      tokens.set(access, { sub: claims.sub, scopes, expires: Date.now() + 3600_000 });
      return json(res, 200, { access_token: access, expires_in: 3599, token_type: "Bearer" });
    }

    if (req.method !== "GET" || !url.pathname.startsWith("/v2/")) return apiError(res, 404, `No such fake Meet endpoint: ${req.method} ${url.pathname}`);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const grant = token ? tokens.get(token) : undefined;
    if (!grant || grant.expires <= Date.now()) {
      return apiError(res, 401, "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.");
    }
    requests[requests.length - 1]!.subject = grant.sub;
    if (!grant.scopes.some((s) => MEET_SCOPES.includes(s))) return apiError(res, 403, "Request had insufficient authentication scopes.");
    const who = grant.sub;
    const path = url.pathname.slice("/v2/".length);

    if (path === "conferenceRecords") {
      const clauses = parseFilter(url.searchParams.get("filter") ?? "");
      if (!clauses) return apiError(res, 400, `Invalid filter: ${url.searchParams.get("filter")}`);
      const visible = conferences.filter((c) => sees(c, who) && matches(c, clauses)).sort((a, b) => b.startTime.getTime() - a.startTime.getTime());
      const page = pageOf(visible, size(url, 25, 100), url.searchParams.get("pageToken"), pageTokens);
      return json(res, 200, { conferenceRecords: page.items.map(record), ...(page.next ? { nextPageToken: page.next } : {}) });
    }
    const space = /^spaces\/([^/]+)$/.exec(path);
    if (space) {
      const c = conferences.find((x) => x.space.name === `spaces/${space[1]}`);
      if (!c || !sees(c, who)) return apiError(res, 404, "Requested entity was not found.");
      return json(res, 200, { name: c.space.name, meetingUri: `https://meet.google.com/${c.space.meetingCode}`, meetingCode: c.space.meetingCode, config: { accessType: "TRUSTED", entryPointAccess: "ALL" } });
    }
    const m = /^conferenceRecords\/([^/]+)(?:\/(participants|transcripts)(?:\/([^/]+)(?:\/(entries))?)?)?$/.exec(path);
    const c = m ? conferences.find((x) => x.id === m[1]) : undefined;
    if (!m || !c || !sees(c, who)) return apiError(res, 404, "Requested entity was not found.");
    const [, , collection, item, entries] = m;
    if (!collection) return json(res, 200, record(c));
    if (collection === "participants" && !item) {
      const page = pageOf(c.attendees.map((a) => participant(c, a)), size(url, 100, 250), url.searchParams.get("pageToken"), pageTokens);
      return json(res, 200, { participants: page.items, totalSize: c.attendees.length, ...(page.next ? { nextPageToken: page.next } : {}) });
    }
    if (collection === "transcripts" && !item) {
      const page = pageOf(c.transcripts.map((_, n) => transcript(c, n)), size(url, 10, 100), url.searchParams.get("pageToken"), pageTokens);
      return json(res, 200, { transcripts: page.items, ...(page.next ? { nextPageToken: page.next } : {}) });
    }
    const n = c.transcripts.findIndex((_, i) => transcriptName(c, i) === `${c.name}/transcripts/${item}`);
    if (collection === "transcripts" && n >= 0 && entries) {
      const all = c.transcripts[n]!.map((line, i) => {
        const start = new Date(c.startTime.getTime() + line.at * 1000);
        return {
          name: `${transcriptName(c, n)}/entries/${id(`${c.id}:${n}:${i}`, 16)}`,
          participant: `${c.name}/participants/${participantId(c, speakerOf(c, line.speaker))}`,
          text: line.text,
          languageCode: "en-US",
          startTime: start.toISOString(),
          endTime: new Date(start.getTime() + line.seconds * 1000).toISOString(),
        };
      });
      const page = pageOf(all, size(url, 10, 100), url.searchParams.get("pageToken"), pageTokens);
      return json(res, 200, { transcriptEntries: page.items, ...(page.next ? { nextPageToken: page.next } : {}) });
    }
    if (collection === "transcripts" && n >= 0 && !entries) return json(res, 200, transcript(c, n));
    return apiError(res, 404, "Requested entity was not found.");
  });

  const boundPort = await listen(server, options.port ?? 0);
  const url = `http://127.0.0.1:${boundPort}`;
  const kinds: Record<Parameters<FakeMeet["count"]>[0], RegExp> = {
    token: /^\/token$/,
    records: /^\/v2\/conferenceRecords$/,
    record: /^\/v2\/conferenceRecords\/[^/]+$/,
    participants: /\/participants$/,
    transcripts: /\/transcripts$/,
    entries: /\/entries$/,
    spaces: /^\/v2\/spaces\//,
  };
  return {
    url,
    tokenUrl: `${url}/token`,
    conferences,
    requests,
    count: (kind) => requests.filter((r) => kinds[kind].test(r.path)).length,
    setDelegationGranted: (granted) => {
      delegationGranted = granted;
    },
    revoke: () => {
      delegationGranted = false;
      tokens.clear();
    },
    fail: (rule) => faults.add(rule),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The names Meet shows for the fixture's speakers, by the fixture's speaker key (a user's e-mail, or a guest's name). */
export function speakerName(speaker: string, users: FakeMeetUser[] = FAKE_MEET_USERS): string {
  return users.find((u) => u.email === speaker)?.name ?? speaker;
}

