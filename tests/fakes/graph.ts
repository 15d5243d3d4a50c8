import { createHash, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import { pathToFileURL } from "node:url";
import { identityPlatform } from "./microsoft-identity.js";
import { Faults, listen, pageOf, utcMidnight, type FaultRule } from "./zoom.js";

/**
 * A local server speaking the parts of the Microsoft identity platform and
 * Microsoft Graph that Tributary's Teams source calls:
 * - identity (https://login.microsoftonline.com): the admin-consent page
 *   GET /organizations/v2.0/adminconsent (Accept → redirect_uri?admin_consent=True&tenant=…&state=…),
 *   the tenant's OpenID configuration, and POST /{tenant}/oauth2/v2.0/token (client credentials),
 *   which @azure/msal-node uses;
 * - Graph (https://graph.microsoft.com/v1.0): GET /teams, /teams/{id}/members, /users,
 *   /users/{id}/onlineMeetings (403 until a Teams application access policy covers the user);
 *   for reading: /users/{id}/onlineMeetings/getAllTranscripts(meetingOrganizerUserId='{id}',startDateTime=…,endDateTime=…),
 *   its change feed …/getAllTranscripts(meetingOrganizerUserId='{id}',startDateTime=…)/delta (callTranscript: delta,
 *   v1.0: a round's pages by @odata.nextLink, then an @odata.deltaLink whose next round holds the transcripts added
 *   since; a link of an expired state answers 410 Gone with syncStateNotFound),
 *   /users/{id}/onlineMeetings/{meetingId}, …/transcripts/{transcriptId}/content?$format=text/vtt
 *   (the same policy applies), collections paged with @odata.nextLink.
 */
export interface FakeMicrosoftOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** The UTC midnight the meetings are placed before (default: today's). */
  anchor?: Date;
  /** Most items per page of a collection (Graph: 100 or more), to exercise paging. */
  maxPageSize?: number;
}

export interface FakeGraphUser {
  id: string;
  displayName: string;
  mail: string;
}

export const FAKE_GRAPH_USERS: FakeGraphUser[] = [
  { id: "a1b2c3d4-0000-4000-8000-000000000001", displayName: "Adele Vance", mail: "adele@contoso.example" },
  { id: "a1b2c3d4-0000-4000-8000-000000000002", displayName: "Alex Wilber", mail: "alex@contoso.example" },
  { id: "a1b2c3d4-0000-4000-8000-000000000003", displayName: "Megan Bowen", mail: "megan@contoso.example" },
];

export interface FakeTeamsTranscript {
  id: string;
  meetingId: string;
  organizerId: string;
  subject: string;
  created: Date;
  ended: Date;
  cues: { speaker: string; text: string; startMs: number; endMs: number }[];
}

const GUEST = "Kim Guest (Fabrikam)";
const LINES = [
  "Good morning, thanks for joining.",
  "Can we review the Q3 numbers & the roadmap?",
  "The integration is live in staging.",
  "We still need sign-off from security.",
  "Let's schedule the follow-up for next week.",
  "Sounds good, I'll send the notes.",
];

/**
 * Every user's meeting transcripts around `anchor` (a UTC midnight): meetings
 * 1, 3, 6 and 12 days before it; the one 3 days before was transcribed twice
 * (the transcription restarted), so it has two transcripts.
 */
export function teamsTranscriptsFixture(anchor: Date, users: FakeGraphUser[] = FAKE_GRAPH_USERS): FakeTeamsTranscript[] {
  const out: FakeTeamsTranscript[] = [];
  users.forEach((user, u) => {
    [1, 3, 6, 12].forEach((daysBefore, n) => {
      const meetingId = Buffer.from(`1*${user.id}*0**19:meeting_${createHash("sha256").update(`${user.id}:${n}`).digest("hex").slice(0, 20)}@thread.v2`).toString("base64");
      const start = anchor.getTime() - daysBefore * 86_400_000 + (14 + u) * 3_600_000;
      for (let part = 0; part < (n === 1 ? 2 : 1); part++) {
        const count = 2 + ((u + n + part) % 4);
        let clock = 0;
        const cues = Array.from({ length: count }, (_, i) => {
          const startMs = clock;
          const endMs = startMs + 3000 + i * 250;
          clock = endMs + 400;
          return { speaker: i % 2 === 0 ? user.displayName : GUEST, text: LINES[(i + u + n) % LINES.length]!, startMs, endMs };
        });
        const created = new Date(start + part * 20 * 60_000);
        out.push({
          id: Buffer.from(`1*#${part}*#${createHash("md5").update(`${meetingId}:${part}`).digest("hex")}`).toString("base64"),
          meetingId,
          organizerId: user.id,
          subject: `${user.displayName}: Fabrikam review ${n + 1}`,
          created,
          ended: new Date(created.getTime() + clock),
          cues,
        });
      }
    });
  });
  return out;
}

const vttTime = (ms: number) => new Date(ms).toISOString().slice(11, 23);
const escapeVtt = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A transcript's content as Graph serves it with $format=text/vtt: voice tags. */
export function teamsVtt(t: FakeTeamsTranscript): string {
  return `WEBVTT\n\n${t.cues.map((c, i) => `${t.id.slice(0, 8)}/${i + 10}-0\n${vttTime(c.startMs)} --> ${vttTime(c.endMs)}\n<v ${c.speaker}>${escapeVtt(c.text)}</v>\n`).join("\n")}`;
}

export interface FakeMicrosoft {
  url: string;
  loginBaseUrl: string;
  graphBaseUrl: string;
  clientId: string;
  clientSecret: string;
  tenantId: string;
  teams: { id: string; displayName: string; members: string[] }[];
  /** Applies the application access policy the setup instructions describe: to everyone or one team. */
  grantPolicy(to: "global" | string): void;
  revokePolicies(): void;
  requests: { method: string; path: string; query?: Record<string, string> }[];
  users: FakeGraphUser[];
  transcripts: FakeTeamsTranscript[];
  /**
   * Adds a transcript as Teams makes one ready, maybe late: of the organizer's meeting `meetingId` (a meeting transcribed
   * again; default: a new meeting), created at `created`. Pushing onto `transcripts` does the same.
   */
  addTranscript(options: { organizerId: string; created: Date; meetingId?: string; subject?: string }): FakeTeamsTranscript;
  /** Forgets every delta round: a saved @odata.deltaLink (or a round's @odata.nextLink) answers 410 Gone, syncStateNotFound. */
  expireDeltaLinks(): void;
  /** Invalidates every issued app token (a new one is needed). */
  expireTokens(): void;
  /** The next matching requests fail as told. */
  fail(rule: FaultRule): void;
  close(): Promise<void>;
}

export const FAKE_MICROSOFT_DEFAULTS = {
  port: 47120,
  clientId: "5f3c2a1e-7b9d-4c2e-9a1f-0d3e5b7c9a11",
  clientSecret: "fake-teams-client-secret",
  tenantId: "72f988bf-86f1-41af-91ab-2d7cd011db47",
};


export async function startFakeMicrosoft(options: FakeMicrosoftOptions = {}): Promise<FakeMicrosoft> {
  const clientId = options.clientId ?? FAKE_MICROSOFT_DEFAULTS.clientId;
  const clientSecret = options.clientSecret ?? FAKE_MICROSOFT_DEFAULTS.clientSecret;
  const tenantId = FAKE_MICROSOFT_DEFAULTS.tenantId;
  const people = FAKE_GRAPH_USERS;
  const users = people.map((p) => p.id);
  const transcripts = teamsTranscriptsFixture(options.anchor ?? utcMidnight(), people);
  const maxPageSize = options.maxPageSize ?? 100;
  const pageTokens = new Map<string, number>();
  const faults = new Faults();
  const teams = [
    { id: "19d1f4b2-6b3a-4c55-9e8d-2a7f0c1e3b01", displayName: "Sales Team", members: [users[0]!, users[1]!] },
    { id: "19d1f4b2-6b3a-4c55-9e8d-2a7f0c1e3b02", displayName: "Engineering", members: [users[2]!] },
  ];
  const identity = identityPlatform({ clientId, clientSecret, tenantId, permissions: "read teams, users and online meetings in Contoso", tokenTag: "fake" });
  const { tokens } = identity;
  const policies = new Set<string>();
  const requests: FakeMicrosoft["requests"] = [];
  /**
   * callTranscript delta: what a state has delivered (an organizer's transcripts from its startDateTime), by the
   * $deltatoken of the @odata.deltaLink that ends its round; and a round's remaining pages by $skiptoken. A round holds
   * the transcripts as they were at its first request; one added meanwhile comes in the next round.
   */
  interface DeltaState {
    userId: string;
    from: number;
    delivered: Set<string>;
  }
  const deltaStates = new Map<string, DeltaState>();
  const deltaRounds = new Map<string, { state: DeltaState; items: FakeTeamsTranscript[]; offset: number }>();
  let added = 0;
  let host = "";

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  };
  const graphError = (res: http.ServerResponse, status: number, code: string, message: string) =>
    json(res, status, { error: { code, message, innerError: { date: new Date().toISOString(), "request-id": randomUUID() } } });
  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = "";
      req.on("data", (chunk) => (data += chunk));
      req.on("end", () => resolve(data));
    });
  const covered = (userId: string) => policies.has("global") || teams.some((t) => policies.has(t.id) && t.members.includes(userId));
  /** A function call's parameters: meetingOrganizerUserId='…',startDateTime=… */
  const functionParams = (text: string): Record<string, string> => Object.fromEntries([...text.matchAll(/(\w+)=('([^']*)'|[^,]*)/g)].map((m) => [m[1]!, m[3] ?? m[2]!]));
  /** A callTranscript as Graph lists it (getAllTranscripts and its delta). */
  const transcriptJson = (t: FakeTeamsTranscript, userId: string) => ({
    id: t.id,
    meetingId: t.meetingId,
    callId: null,
    contentCorrelationId: randomUUID(),
    transcriptContentUrl: `https://graph.microsoft.com/v1.0/users/${userId}/onlineMeetings/${t.meetingId}/transcripts/${t.id}/content`,
    createdDateTime: t.created.toISOString(),
    endDateTime: t.ended.toISOString(),
    meetingOrganizer: { application: null, device: null, user: { id: userId, displayName: null, userIdentityType: "aadUser", tenantId } },
  });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const body = req.method === "POST" ? await readBody(req) : "";
    requests.push({ method: req.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams) });
    const path = url.pathname;
    if (
      faults.apply(path, res, (status) => ({
        error: { code: status === 429 ? "TooManyRequests" : status >= 500 ? "InternalServerError" : "Forbidden", message: status === 429 ? "Too many requests." : status >= 500 ? "An internal server error occurred." : "Access denied.", innerError: { date: new Date().toISOString(), "request-id": randomUUID() } },
      }))
    ) {
      return;
    }

    if (path === "/favicon.ico") {
      res.writeHead(204);
      return res.end();
    }
    // Test control (not Microsoft's): apply or remove the Teams application access policy.
    if (path === "/_fake/policy" && req.method === "POST") {
      policies.add(url.searchParams.get("to") ?? "global");
      return json(res, 200, { policies: [...policies] });
    }
    if (path === "/_fake/policy" && req.method === "DELETE") {
      policies.clear();
      return json(res, 200, { policies: [] });
    }
    // ---- identity platform (microsoft-identity.ts) ----
    if (identity.handle(req, res, url, body)) return;
    // ---- Graph ----
    if (path.startsWith("/v1.0/")) {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const grant = bearer ? tokens.get(bearer) : undefined;
      if (!grant || grant.expires < Date.now()) return graphError(res, 401, "InvalidAuthenticationToken", "Access token validation failure. Invalid audience.");
      const rest = path.slice("/v1.0".length);
      const d = decodeURIComponent;
      /** One page of a collection, with @odata.nextLink when more remain. */
      const collection = <T>(items: T[], top = maxPageSize) => {
        const page = pageOf(items, Math.min(top, maxPageSize), url.searchParams.get("$skiptoken"), pageTokens);
        const next = new URL(`http://${host}${path}`);
        for (const [k, v] of url.searchParams) if (k !== "$skiptoken") next.searchParams.set(k, v);
        next.searchParams.set("$skiptoken", page.next);
        return json(res, 200, { value: page.items, ...(page.next ? { "@odata.nextLink": next.href } : {}) });
      };
      const top = Number(url.searchParams.get("$top")) || maxPageSize;
      if (rest === "/teams") return json(res, 200, { "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#teams", value: teams.map((t) => ({ id: t.id, displayName: t.displayName })) });
      const members = /^\/teams\/([^/]+)\/members$/.exec(rest);
      if (members) {
        const team = teams.find((t) => t.id === d(members[1]!));
        if (!team) return graphError(res, 404, "NotFound", "No team found with Group Id " + members[1]);
        return collection(
          team.members.map((userId, i) => {
            const p = people.find((x) => x.id === userId);
            return { id: `member-${i}`, displayName: p?.displayName ?? `Member ${i + 1}`, userId, email: p?.mail ?? null, roles: [] };
          }),
        );
      }
      if (rest === "/users") {
        if (url.searchParams.get("$top") === "1") return json(res, 200, { value: users.slice(0, 1).map((id) => ({ id })) });
        return collection(people.map((p) => ({ id: p.id, displayName: p.displayName, mail: p.mail, userPrincipalName: p.mail })), top);
      }
      const meetings = /^\/users\/([^/]+)\/onlineMeetings$/.exec(rest);
      if (meetings) {
        if (!covered(d(meetings[1]!))) return graphError(res, 403, "Forbidden", "No application access policy found for this app.");
        return json(res, 200, { value: [] });
      }
      const delta = /^\/users\/([^/]+)\/onlineMeetings\/getAllTranscripts\((.*)\)\/delta$/.exec(rest);
      if (delta) {
        const userId = d(delta[1]!);
        const params = functionParams(d(delta[2]!));
        if (!users.includes(userId)) return graphError(res, 404, "NotFound", `User ${userId} was not found.`);
        if (params.meetingOrganizerUserId !== userId) return graphError(res, 400, "BadRequest", "meetingOrganizerUserId must be the user in the path.");
        if (!covered(userId)) return graphError(res, 403, "Forbidden", "No application access policy found for this app.");
        if ("endDateTime" in params) return graphError(res, 400, "BadRequest", "endDateTime is not a parameter of the delta function.");
        const skipToken = url.searchParams.get("$skiptoken");
        const deltaToken = url.searchParams.get("$deltatoken");
        let round = skipToken ? deltaRounds.get(skipToken) : undefined;
        if (!round) {
          const state = deltaToken ? deltaStates.get(deltaToken) : skipToken ? undefined : { userId, from: params.startDateTime ? Date.parse(params.startDateTime) : -Infinity, delivered: new Set<string>() };
          if (!state || state.userId !== userId) {
            // Graph's answer to a state it no longer holds: start over with a full round (the initial request, in Location).
            res.writeHead(410, { "content-type": "application/json; charset=utf-8", location: `http://${host}${path}` });
            return res.end(JSON.stringify({ error: { code: "syncStateNotFound", message: "The sync state is not found or has expired. Please do a full sync.", innerError: { date: new Date().toISOString(), "request-id": randomUUID() } } }));
          }
          if (Number.isNaN(state.from)) return graphError(res, 400, "BadRequest", "Invalid startDateTime.");
          round = { state, items: transcripts.filter((t) => t.organizerId === userId && t.created.getTime() >= state.from && !state.delivered.has(t.id)), offset: 0 };
        }
        const page = round.items.slice(round.offset, round.offset + maxPageSize);
        const end = round.offset + page.length;
        const link = new URL(`http://${host}${path}`);
        const token = randomBytes(12).toString("base64url");
        let tail: Record<string, string>;
        if (end < round.items.length) {
          deltaRounds.set(token, { ...round, offset: end });
          link.searchParams.set("$skiptoken", token);
          tail = { "@odata.nextLink": link.href };
        } else {
          deltaStates.set(token, { userId, from: round.state.from, delivered: new Set([...round.state.delivered, ...round.items.map((t) => t.id)]) });
          link.searchParams.set("$deltatoken", token);
          tail = { "@odata.deltaLink": link.href };
        }
        return json(res, 200, {
          "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#Collection(callTranscript)",
          ...tail,
          value: page.map((t) => ({ "@odata.type": "#microsoft.graph.callTranscript", ...transcriptJson(t, userId) })),
        });
      }
      const all = /^\/users\/([^/]+)\/onlineMeetings\/getAllTranscripts\((.*)\)$/.exec(rest);
      if (all) {
        const userId = d(all[1]!);
        const params = functionParams(d(all[2]!));
        if (!users.includes(userId)) return graphError(res, 404, "NotFound", `User ${userId} was not found.`);
        if (params.meetingOrganizerUserId !== userId) return graphError(res, 400, "BadRequest", "meetingOrganizerUserId must be the user in the path.");
        if (!covered(userId)) return graphError(res, 403, "Forbidden", "No application access policy found for this app.");
        const from = params.startDateTime ? Date.parse(params.startDateTime) : -Infinity;
        const to = params.endDateTime ? Date.parse(params.endDateTime) : Infinity;
        if (Number.isNaN(from) || Number.isNaN(to)) return graphError(res, 400, "BadRequest", "Invalid startDateTime or endDateTime.");
        const selected = transcripts.filter((t) => t.organizerId === userId && t.created.getTime() >= from && t.created.getTime() <= to);
        return collection(selected.map((t) => transcriptJson(t, userId)));
      }
      const meetingPath = /^\/users\/([^/]+)\/onlineMeetings\/([^/]+)(\/transcripts\/([^/]+)\/content)?$/.exec(rest);
      if (meetingPath) {
        const [userId, meetingId, transcriptId] = [meetingPath[1], meetingPath[2], meetingPath[4]].map((x) => (x === undefined ? undefined : d(x)));
        const content = meetingPath[3];
        if (!covered(userId!)) return graphError(res, 403, "Forbidden", "No application access policy found for this app.");
        const mine = transcripts.filter((t) => t.organizerId === userId && t.meetingId === meetingId);
        if (!mine.length) return graphError(res, 404, "NotFound", "The meeting was not found.");
        if (!content) {
          const organizer = people.find((p) => p.id === userId)!;
          return json(res, 200, {
            id: meetingId,
            subject: mine[0]!.subject,
            startDateTime: mine[0]!.created.toISOString(),
            endDateTime: mine[mine.length - 1]!.ended.toISOString(),
            participants: { organizer: { upn: organizer.mail, role: "presenter", identity: { user: { id: organizer.id, displayName: organizer.displayName } } }, attendees: [] },
          });
        }
        const transcript = mine.find((t) => t.id === transcriptId);
        if (!transcript) return graphError(res, 404, "NotFound", "The transcript was not found.");
        if (url.searchParams.get("$format") !== "text/vtt") return graphError(res, 400, "BadRequest", "Only $format=text/vtt is served by this fake.");
        res.writeHead(200, { "content-type": "text/vtt" });
        return res.end(teamsVtt(transcript));
      }
      return graphError(res, 404, "UnknownError", `No such fake Graph endpoint: ${req.method} ${path}`);
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
    teams,
    grantPolicy: (to) => {
      policies.add(to);
    },
    revokePolicies: () => policies.clear(),
    requests,
    users: people,
    transcripts,
    addTranscript: ({ organizerId, created, meetingId, subject }) => {
      const organizer = people.find((p) => p.id === organizerId);
      if (!organizer) throw new Error(`No fake Graph user ${organizerId}`);
      const n = ++added;
      const meeting = meetingId ?? Buffer.from(`1*${organizerId}*0**19:meeting_added${createHash("sha256").update(`${organizerId}:added:${n}`).digest("hex").slice(0, 20)}@thread.v2`).toString("base64");
      const cues = [
        { speaker: organizer.displayName, text: `Added transcript ${n}: ${LINES[n % LINES.length]!}`, startMs: 0, endMs: 3000 },
        { speaker: GUEST, text: LINES[(n + 1) % LINES.length]!, startMs: 3400, endMs: 6400 },
      ];
      const transcript: FakeTeamsTranscript = {
        id: Buffer.from(`1*#added${n}*#${createHash("md5").update(`${meeting}:added:${n}`).digest("hex")}`).toString("base64"),
        meetingId: meeting,
        organizerId,
        subject: transcripts.find((t) => t.organizerId === organizerId && t.meetingId === meeting)?.subject ?? subject ?? `${organizer.displayName}: Follow-up ${n}`,
        created,
        ended: new Date(created.getTime() + 6400),
        cues,
      };
      transcripts.push(transcript);
      return transcript;
    },
    expireDeltaLinks: () => {
      deltaStates.clear();
      deltaRounds.clear();
    },
    expireTokens: () => tokens.clear(),
    fail: (rule) => faults.add(rule),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// `npx tsx tests/fakes/graph.ts` runs it on its fixed port for local use.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const fake = await startFakeMicrosoft({ port: Number(process.env.FAKE_MICROSOFT_PORT ?? FAKE_MICROSOFT_DEFAULTS.port) });
  console.log(`Fake Microsoft identity + Graph on ${fake.url}`);
  console.log(`TEAMS_CLIENT_ID=${fake.clientId} TEAMS_CLIENT_SECRET=${fake.clientSecret} MICROSOFT_LOGIN_BASE_URL=${fake.loginBaseUrl} MICROSOFT_GRAPH_BASE_URL=${fake.graphBaseUrl}`);
}
