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
 * organization), the transcripts of the meetings each one organized in the
 * window (onlineMeetings/getAllTranscripts, paged with @odata.nextLink), the
 * meeting's subject (GET /users/{id}/onlineMeetings/{meetingId}) and the
 * transcript's content as WebVTT ($format=text/vtt, <v Speaker> voice tags).
 * The meeting record's id is the transcript's id.
 */

interface GraphTranscript {
  id: string;
  meetingId: string;
  createdDateTime: string;
  endDateTime?: string | null;
}

interface GraphMeeting {
  subject?: string | null;
  startDateTime?: string | null;
}

interface GraphError {
  error?: { code?: string; message?: string };
}

const ACCESS_HELP =
  "A Teams administrator must grant Tributary's application access policy to the users in scope (see the source's setup instructions), and the app needs the OnlineMeetings.Read.All and OnlineMeetingTranscript.Read.All permissions with admin consent.";

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
    return graphFailure(response, what);
  }

  /** Every page of a collection (@odata.nextLink). */
  async *collection<T>(path: string, what: string, onMissing: () => never | null): AsyncGenerator<T> {
    let next: string | undefined = path;
    for (let page = 0; next && page < 10_000; page++) {
      const body: { value?: T[]; "@odata.nextLink"?: string } | null = await this.json(next, what);
      if (!body) {
        onMissing();
        return;
      }
      yield* body.value ?? [];
      next = body["@odata.nextLink"];
    }
  }
}

async function graphFailure(response: Response, what: string): Promise<null> {
  const body = (await response.json().catch(() => ({}))) as GraphError;
  const detail = (body.error?.message ?? body.error?.code ?? `status ${response.status}`).replace(/\.$/, "");
  const status = response.status;
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

export async function* readTeams(context: ReaderContext): AsyncGenerator<Meeting> {
  const tenantId = String(context.credential.metadata.tenant_id ?? "");
  if (!tenantId) throw new PermanentReadError("The Microsoft Teams credential names no tenant. Create the Teams source again to grant admin consent.");
  const session = new GraphSession(teamsConfig(), tenantId);
  const users = await usersInScope(session, context.source.metadata);
  const { from, to } = context.window;
  const seen = new Set<string>();
  /** A meeting transcribed more than once is read once. */
  const meetingsRead = new Map<string, GraphMeeting | null>();
  for (const user of users) {
    const organizer = encodeURIComponent(user.id);
    const transcripts = session.collection<GraphTranscript>(
      `/users/${organizer}/onlineMeetings/getAllTranscripts(meetingOrganizerUserId='${organizer}',startDateTime=${from.toISOString()},endDateTime=${to.toISOString()})`,
      `list the meeting transcripts of ${user.email || user.name}`,
      () => null, // the user was deleted meanwhile
    );
    for await (const transcript of transcripts) {
      const startedAt = new Date(transcript.createdDateTime);
      if (!transcript.id || seen.has(transcript.id) || Number.isNaN(startedAt.getTime()) || !inWindow(startedAt, context.window)) continue;
      seen.add(transcript.id);
      const meetingPath = `/users/${organizer}/onlineMeetings/${encodeURIComponent(transcript.meetingId)}`;
      if (!meetingsRead.has(meetingPath)) meetingsRead.set(meetingPath, await session.json<GraphMeeting>(meetingPath, `read a meeting of ${user.email || user.name}`));
      const meeting = meetingsRead.get(meetingPath);
      const content = await session.get(`${meetingPath}/transcripts/${encodeURIComponent(transcript.id)}/content?$format=text/vtt`, "text/vtt");
      if (content.status === 404) {
        await content.body?.cancel();
        continue; // the transcript was deleted since it was listed
      }
      if (!content.ok) {
        await graphFailure(content, `read a meeting transcript of ${user.email || user.name}`);
        continue;
      }
      const ended = transcript.endDateTime ? new Date(transcript.endDateTime).getTime() : NaN;
      yield meetingFromTranscript({
        id: safeId(transcript.id),
        title: meeting?.subject || "Teams meeting",
        startedAt,
        durationMs: Number.isFinite(ended) ? Math.max(0, ended - startedAt.getTime()) : undefined,
        host: user,
        known: users,
        company: "",
        cues: parseVtt(await content.text()),
      });
    }
  }
}
