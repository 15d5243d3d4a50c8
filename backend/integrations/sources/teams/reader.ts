import { ProviderError } from "../kit/index.js";
import { teamsConfig, type TeamsConfig } from "./config.js";
import { graphToken } from "./auth.js";
import { fetchProvider, inWindow, meetingFromTranscript, parseVtt, PermanentReadError, safeId, type KnownPerson } from "../kit/index.js";
import type { ReaderContext } from "../plugin.js";
import type { Meeting } from "../records.js";
import { providerTimeoutMs } from "../../../lib/outbound.js";

/**
 * Microsoft Teams meeting transcripts through Microsoft Graph with the app-only
 * token of the consenting tenant (@azure/msal-node, client credentials): the
 * users in scope (GET /teams/{id}/members for a team, GET /users for the
 * organization), the transcripts of the meetings each one organized, the
 * meeting's subject (GET /users/{id}/onlineMeetings/{meetingId}) and the
 * transcript's content as WebVTT ($format=text/vtt, <v Speaker> voice tags).
 * The meeting record's id is the transcript's id.
 *
 * Incremental (issue 52): each organizer's transcripts come from Graph's change feed, callTranscript: delta (v1.0,
 * GET /users/{id}/onlineMeetings/getAllTranscripts(meetingOrganizerUserId='{id}',startDateTime=…)/delta). A first
 * round, from the window's start, lists what is there (pages by @odata.nextLink) and ends with an @odata.deltaLink;
 * the next sync follows that link and gets only the transcripts added since, however late Graph made them ready.
 * The links are the sync's token: a JSON map organizer id → deltaLink, saved by the engine once the records landed.
 * A link Graph no longer holds (410 Gone, syncStateNotFound) falls back to the window's listing,
 * getAllTranscripts(…,startDateTime,endDateTime), which the engine narrows to the last sync's end less the overlap.
 * Whatever the listing, a transcript that landed unchanged (its id, createdDateTime and endDateTime) is skipped
 * before its meeting or content is requested.
 */

interface GraphTranscript {
  id: string;
  meetingId: string;
  createdDateTime: string;
  endDateTime?: string | null;
  /** A delta feed's mark of an item taken away (Graph's delta convention; callTranscript's feed documents additions). */
  "@removed"?: unknown;
}

interface GraphMeeting {
  subject?: string | null;
  startDateTime?: string | null;
}

interface GraphError {
  error?: { code?: string; message?: string };
}

/** A page of a collection, or of a delta round (whose last page carries the round's @odata.deltaLink). */
interface GraphPage<T> {
  value?: T[];
  "@odata.nextLink"?: string;
  "@odata.deltaLink"?: string;
}

const ACCESS_HELP =
  "A Teams administrator must grant Tributary's application access policy to the users in scope (see the source's setup instructions), and the app needs the OnlineMeetings.Read.All and OnlineMeetingTranscript.Read.All permissions with admin consent.";

/** Error codes with which Graph refuses a delta link whose state it no longer holds (lower case): start over. */
const SYNC_RESET_CODES = new Set(["syncstatenotfound", "resyncrequired"]);

class GraphSession {
  private token: string | null = null;

  constructor(
    readonly config: TeamsConfig,
    private readonly tenantId: string,
  ) {}

  private async acquire(): Promise<string> {
    try {
      this.token = await graphToken(this.config, this.tenantId, providerTimeoutMs());
      return this.token;
    } catch (error) {
      if (error instanceof ProviderError && error.unauthorized) {
        throw new PermanentReadError(`${error.message.replace(/\.$/, "")}. An administrator of the Microsoft 365 organization must grant admin consent again: create the Teams source again.`);
      }
      throw new Error(error instanceof Error ? error.message : String(error));
    }
  }

  /** A Graph request; on 401 a fresh app token and one more try. */
  async get(pathOrUrl: string, accept = "application/json"): Promise<Response> {
    const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${this.config.graphBaseUrl}${pathOrUrl}`;
    for (let attempt = 0; ; attempt++) {
      const token = this.token ?? (await this.acquire());
      const response = await fetchProvider("Microsoft Graph", url, { headers: { authorization: `Bearer ${token}`, accept } });
      if (response.status !== 401 || attempt > 0) return response;
      await response.body?.cancel();
      this.token = null;
    }
  }

  /** The JSON answer, or null for 404 (the user or meeting is gone). */
  async json<T>(pathOrUrl: string, what: string): Promise<T | null> {
    const response = await this.get(pathOrUrl);
    if (response.ok) return (await response.json()) as T;
    return graphFailure(response.status, await errorBody(response), what);
  }

  /**
   * A page of a delta round: its JSON, null for 404 (the user is gone), or "reset" when Graph no longer holds the
   * round's state (the delta query documentation: 410 Gone, or a 4xx with syncStateNotFound when a link expired).
   */
  async deltaPage<T>(url: string, what: string): Promise<GraphPage<T> | null | "reset"> {
    const response = await this.get(url);
    if (response.ok) return (await response.json()) as GraphPage<T>;
    const body = await errorBody(response);
    const code = (body.error?.code ?? "").toLowerCase();
    if (response.status === 410 || (response.status >= 400 && response.status < 500 && SYNC_RESET_CODES.has(code))) return "reset";
    return graphFailure(response.status, body, what);
  }

  /** Every page of a collection (@odata.nextLink). */
  async *collection<T>(path: string, what: string, onMissing: () => never | null): AsyncGenerator<T> {
    let next: string | undefined = path;
    for (let page = 0; next && page < 10_000; page++) {
      const body: GraphPage<T> | null = await this.json(next, what);
      if (!body) {
        onMissing();
        return;
      }
      yield* body.value ?? [];
      next = body["@odata.nextLink"];
    }
  }
}

async function errorBody(response: Response): Promise<GraphError> {
  return (await response.json().catch(() => ({}))) as GraphError;
}

/** Null for 404 (the caller decides); otherwise throws the right kind of error. */
function graphFailure(status: number, body: GraphError, what: string): null {
  const detail = (body.error?.message ?? body.error?.code ?? `status ${status}`).replace(/\.$/, "");
  if (status === 404) return null;
  if (status >= 500) throw new Error(`Microsoft Graph answered ${status} while trying to ${what} (${detail}); the sync will try again.`);
  if (status === 401) throw new PermanentReadError(`Microsoft Graph refused Tributary's app token (${detail}). An administrator must grant admin consent again: create the Teams source again.`);
  if (status === 403) throw new PermanentReadError(`Microsoft Graph refused to ${what} (${detail}). ${ACCESS_HELP}`);
  throw new PermanentReadError(`Microsoft Graph refused to ${what} (${status}: ${detail}).`);
}

async function usersInScope(session: GraphSession, metadata: Record<string, unknown>): Promise<KnownPerson[]> {
  const users: KnownPerson[] = [];
  if (metadata.teams_extraction_scope === "TEAM") {
    const teamId = String(metadata.team_id ?? "");
    const teamName = String(metadata.team_name ?? teamId);
    const members = session.collection<{ userId?: string; displayName?: string; email?: string }>(
      `/teams/${encodeURIComponent(teamId)}/members`,
      `list the members of the team ${teamName}`,
      () => {
        throw new PermanentReadError(`The team ${teamName} no longer exists in Microsoft Teams. Edit the source to choose another team.`);
      },
    );
    for await (const m of members) if (m.userId) users.push({ id: m.userId, name: m.displayName ?? m.email ?? m.userId, email: m.email ?? "" });
  } else {
    const all = session.collection<{ id: string; displayName?: string; mail?: string; userPrincipalName?: string }>("/users?$select=id,displayName,mail,userPrincipalName&$top=999", "list the organization's users", () => null);
    for await (const u of all) users.push({ id: u.id, name: u.displayName ?? u.mail ?? u.id, email: u.mail ?? u.userPrincipalName ?? "" });
  }
  return users;
}

/** The sync's token: each organizer's @odata.deltaLink, by user id (JSON). */
type DeltaLinks = Record<string, string>;

/** The links an earlier sync saved. A token of another shape, or a link to another host than Graph, is not followed. */
function savedDeltaLinks(token: string | null, graphBaseUrl: string): DeltaLinks {
  const links: DeltaLinks = {};
  if (!token) return links;
  let saved: unknown;
  try {
    saved = JSON.parse(token);
  } catch {
    return links;
  }
  if (!saved || typeof saved !== "object") return links;
  const graph = new URL(graphBaseUrl).origin;
  for (const [organizer, link] of Object.entries(saved)) {
    // The app token goes with the link: only to Graph itself (a changed MICROSOFT_GRAPH_BASE_URL starts new rounds).
    if (typeof link === "string" && URL.parse(link)?.origin === graph) links[organizer] = link;
  }
  return links;
}

/** How an organizer's transcripts are listed: a saved link's delta round, a new round from the window's start, or the window. */
type Listing = "since" | "new round" | "window";

interface ListingEnd {
  /** Graph no longer holds the delta round's state. */
  reset: boolean;
  /** The round's @odata.deltaLink (null: the round did not end, or it was the window's listing). */
  deltaLink: string | null;
  /** The round listed a transcript from the window's end on, which this read leaves to a later one. */
  overran: boolean;
}

/** Reads the listed transcripts of one read: each one once, a meeting's subject once, nothing that landed unchanged. */
class TranscriptReader {
  private readonly seen = new Set<string>();
  private readonly meetings = new Map<string, GraphMeeting | null>();

  constructor(
    private readonly session: GraphSession,
    private readonly context: ReaderContext,
    private readonly users: KnownPerson[],
  ) {}

  /** The meetings of one listing of the organizer's transcripts (every page); answers how it ended. */
  async *list(user: KnownPerson, url: string, listing: Listing): AsyncGenerator<Meeting, ListingEnd> {
    const { window } = this.context;
    const what = `list the meeting transcripts of ${user.email || user.name}`;
    const end: ListingEnd = { reset: false, deltaLink: null, overran: false };
    let next: string | undefined = url;
    for (let page = 0; next && page < 10_000; page++) {
      const body: GraphPage<GraphTranscript> | null | "reset" = listing === "window" ? await this.session.json<GraphPage<GraphTranscript>>(next, what) : await this.session.deltaPage<GraphTranscript>(next, what);
      if (body === "reset") return { ...end, reset: true };
      if (!body) return end; // the user was deleted meanwhile
      for (const transcript of body.value ?? []) {
        const startedAt = new Date(transcript.createdDateTime);
        if (!transcript.id || transcript["@removed"] !== undefined || Number.isNaN(startedAt.getTime())) continue;
        if (startedAt.getTime() >= window.to.getTime()) {
          end.overran = true;
          continue;
        }
        // A saved link's round holds what Graph added since the last sync, however long before it the meeting was (a
        // transcript made ready late): it is read whatever its time. A listing of the window keeps to the window.
        if (listing !== "since" && !inWindow(startedAt, window)) continue;
        if (this.seen.has(transcript.id)) continue;
        this.seen.add(transcript.id);
        const meeting = await this.read(user, transcript, startedAt);
        if (meeting) yield meeting;
      }
      end.deltaLink = body["@odata.deltaLink"] ?? null;
      next = body["@odata.nextLink"];
    }
    return end;
  }

  /** The transcript as a meeting record; null when it landed unchanged (nothing is requested) or was deleted meanwhile. */
  private async read(user: KnownPerson, transcript: GraphTranscript, startedAt: Date): Promise<Meeting | null> {
    const { tracker } = this.context;
    // v1.0's callTranscript has no lastModifiedDateTime: its id and times, as Graph gives them, tell it from the one that landed.
    const fingerprint = `${transcript.id}|${transcript.createdDateTime}|${transcript.endDateTime ?? ""}`;
    if (tracker.unchanged(transcript.id, fingerprint, startedAt)) return null;
    const who = user.email || user.name;
    const meetingPath = `/users/${encodeURIComponent(user.id)}/onlineMeetings/${encodeURIComponent(transcript.meetingId)}`;
    // A meeting transcribed more than once is read once.
    if (!this.meetings.has(meetingPath)) this.meetings.set(meetingPath, await this.session.json<GraphMeeting>(meetingPath, `read a meeting of ${who}`));
    const meeting = this.meetings.get(meetingPath);
    const content = await this.session.get(`${meetingPath}/transcripts/${encodeURIComponent(transcript.id)}/content?$format=text/vtt`, "text/vtt");
    if (content.status === 404) {
      await content.body?.cancel();
      return null; // the transcript was deleted since it was listed
    }
    if (!content.ok) return graphFailure(content.status, await errorBody(content), `read a meeting transcript of ${who}`);
    const ended = transcript.endDateTime ? new Date(transcript.endDateTime).getTime() : NaN;
    const record = meetingFromTranscript({
      id: safeId(transcript.id),
      title: meeting?.subject || "Teams meeting",
      startedAt,
      durationMs: Number.isFinite(ended) ? Math.max(0, ended - startedAt.getTime()) : undefined,
      host: user,
      known: this.users,
      company: "",
      cues: parseVtt(await content.text()),
    });
    tracker.read(transcript.id, fingerprint, startedAt);
    return record;
  }
}

export async function* readTeams(context: ReaderContext): AsyncGenerator<Meeting> {
  const tenantId = String(context.credential.metadata.tenant_id ?? "");
  if (!tenantId) throw new PermanentReadError("The Microsoft Teams credential names no tenant. Create the Teams source again to grant admin consent.");
  const session = new GraphSession(teamsConfig(), tenantId);
  const users = await usersInScope(session, context.source.metadata);
  const { from, to } = context.window;
  const saved = savedDeltaLinks(context.tracker.token, session.config.graphBaseUrl);
  const links: DeltaLinks = {};
  const reader = new TranscriptReader(session, context, users);
  for (const user of users) {
    const organizer = encodeURIComponent(user.id);
    const transcripts = `/users/${organizer}/onlineMeetings/getAllTranscripts(meetingOrganizerUserId='${organizer}',startDateTime=${from.toISOString()}`;
    const link = saved[user.id];
    const round = yield* reader.list(user, link ?? `${transcripts})/delta`, link ? "since" : "new round");
    if (round.reset) {
      // Graph no longer holds the round (its link expired, or the tenant moved): the window's listing instead, of what
      // the engine narrowed it to (what landed there is skipped); the next sync starts a new round.
      yield* reader.list(user, `${transcripts},endDateTime=${to.toISOString()})`, "window");
      continue;
    }
    // A round that listed a transcript past the window's end ends at a link past it: not kept, so that the next sync
    // follows the link it started from again (what landed is skipped) or starts a new round.
    const keep = round.overran ? link : round.deltaLink;
    if (keep) links[user.id] = keep;
  }
  // Saved by the engine only once every record read landed at every destination.
  context.tracker.setToken(JSON.stringify(links));
}
