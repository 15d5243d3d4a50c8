import { ProviderError } from "../kit/index.js";
import { zoomConfig, type ZoomConfig } from "./config.js";
import { refreshStoredZoomTokens, usableZoomTokens, ZOOM_READ_SCOPES, type ZoomTokens } from "./auth.js";
import { fetchProvider, inWindow, meetingFromTranscript, parseVtt, PermanentReadError, safeId, type KnownPerson } from "../kit/index.js";
import type { ReaderContext } from "../plugin.js";
import type { Meeting } from "../records.js";

/**
 * Zoom cloud recordings: the users in scope (GET /users for the organization,
 * GET /groups/{groupId}/members for a group), each user's recordings in the
 * window (GET /users/{userId}/recordings?from&to, at most a month per call,
 * paged with next_page_token), and each meeting's TRANSCRIPT file (its
 * download_url with the access token), parsed from WebVTT. The meeting id is
 * the recording's meeting UUID (base64url), the same on every read. Incremental (issue 52): a transcript whose
 * file (id and size) landed before is skipped without a download.
 */

const DAY_MS = 86_400_000;
/** Zoom lists recordings for at most a month per request. */
const MAX_RANGE_DAYS = 30;
const PAGE_SIZE = "300";

interface ZoomUser {
  id: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  display_name?: string;
}

interface ZoomRecordingFile {
  id?: string;
  file_type?: string;
  file_extension?: string;
  download_url?: string;
  status?: string;
  recording_type?: string;
  file_size?: number;
}

interface ZoomRecordingMeeting {
  uuid: string;
  id?: number | string;
  host_id?: string;
  topic?: string;
  start_time: string;
  /** Minutes. */
  duration?: number;
  recording_files?: ZoomRecordingFile[];
}

class ZoomSession {
  private tokens: ZoomTokens;

  constructor(
    private readonly context: ReaderContext,
    readonly config: ZoomConfig,
  ) {
    if (!context.credential.secret) throw new PermanentReadError("The Zoom credential holds no token. Create the source again to authenticate with Zoom.");
    this.tokens = context.services.secrets.open<ZoomTokens>(context.credential.secret);
  }

  private async accessToken(): Promise<string> {
    if (!usableZoomTokens(this.tokens)) await this.refresh();
    return this.tokens.access_token;
  }

  /**
   * New tokens: the ones another run stored meanwhile, or the refresh_token grant (openid-client), stored at once
   * (Zoom rotates refresh tokens); one at a time per credential (refreshStoredZoomTokens).
   */
  private async refresh(refused?: string): Promise<void> {
    const { services, source, credential } = this.context;
    try {
      this.tokens = await refreshStoredZoomTokens(services, source.ownerId, credential.id, this.config, refused);
    } catch (error) {
      if (error instanceof ProviderError && error.unauthorized) {
        throw new PermanentReadError(`Zoom no longer accepts Tributary's authorization (${error.message.replace(/\.$/, "")}). Authenticate the Zoom source again.`);
      }
      throw new Error(error instanceof Error ? error.message : String(error));
    }
  }

  /** A request with the access token; on 401, one refresh and one more try. */
  async get(url: string, accept: string): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      const response = await fetchProvider("Zoom", url, { headers: { authorization: `Bearer ${token}`, accept } });
      if (response.status !== 401 || attempt > 0) return response;
      await response.body?.cancel();
      await this.refresh(token);
    }
  }

  async json<T>(path: string, query: Record<string, string>, what: string): Promise<T | null> {
    const url = new URL(`${this.config.apiBaseUrl}${path}`);
    for (const [k, v] of Object.entries(query)) if (v) url.searchParams.set(k, v);
    const response = await this.get(url.href, "application/json");
    if (response.ok) return (await response.json()) as T;
    return zoomFailure(response, what);
  }
}

/** Null for 404 (a user or group that is gone: the caller decides); otherwise throws the right kind of error. */
async function zoomFailure(response: Response, what: string): Promise<null> {
  const body = (await response.json().catch(() => ({}))) as { code?: number; message?: string };
  const detail = body.message ? body.message.replace(/\.$/, "") : `status ${response.status}`;
  const status = response.status;
  if (status === 404) return null;
  if (status >= 500) throw new Error(`Zoom answered ${status} while trying to ${what} (${detail}); the sync will try again.`);
  if (status === 401) throw new PermanentReadError(`Zoom no longer accepts Tributary's authorization (${detail}). Authenticate the Zoom source again.`);
  if (status === 403 || body.code === 4711 || body.code === 4700) {
    throw new PermanentReadError(
      `Zoom refused to ${what} (${detail}). The Zoom app needs the scopes ${ZOOM_READ_SCOPES.split(" ").join(", ")}: have an account admin approve them, then authenticate the Zoom source again.`,
    );
  }
  throw new PermanentReadError(`Zoom refused to ${what} (${status}: ${detail}).`);
}

const fullName = (u: ZoomUser) => u.display_name || [u.first_name, u.last_name].filter(Boolean).join(" ") || u.email || u.id;

async function usersInScope(session: ZoomSession, metadata: Record<string, unknown>): Promise<ZoomUser[]> {
  const group = metadata.zoom_extraction_scope === "GROUP" ? String(metadata.zoom_group_id ?? "") : null;
  const users: ZoomUser[] = [];
  let token = "";
  for (let page = 0; page < 1000; page++) {
    if (group) {
      const body = await session.json<{ members?: ZoomUser[]; next_page_token?: string }>(
        `/groups/${encodeURIComponent(group)}/members`,
        { page_size: PAGE_SIZE, next_page_token: token },
        `list the members of the group ${String(metadata.zoom_group_name ?? group)}`,
      );
      if (!body) throw new PermanentReadError(`The Zoom group ${String(metadata.zoom_group_name ?? group)} no longer exists. Edit the source to choose another group.`);
      users.push(...(body.members ?? []));
      token = body.next_page_token ?? "";
    } else {
      const body = await session.json<{ users?: ZoomUser[]; next_page_token?: string }>("/users", { status: "active", page_size: PAGE_SIZE, next_page_token: token }, "list the account's users");
      users.push(...(body?.users ?? []));
      token = body?.next_page_token ?? "";
    }
    if (!token) break;
  }
  return users;
}

/**
 * [from, to] date ranges (yyyy-mm-dd, inclusive) of at most a month covering
 * the window and a day on each side (should Zoom read the dates in the
 * account's time zone); start_time then decides exactly.
 */
function dateRanges(from: Date, to: Date): { from: string; to: string }[] {
  const ranges: { from: string; to: string }[] = [];
  const last = Math.floor((to.getTime() - 1) / DAY_MS) * DAY_MS + DAY_MS;
  for (let start = Math.floor(from.getTime() / DAY_MS) * DAY_MS - DAY_MS; start <= last; start += MAX_RANGE_DAYS * DAY_MS) {
    const end = Math.min(last, start + (MAX_RANGE_DAYS - 1) * DAY_MS);
    ranges.push({ from: new Date(start).toISOString().slice(0, 10), to: new Date(end).toISOString().slice(0, 10) });
  }
  return ranges;
}

export async function* readZoom(context: ReaderContext): AsyncGenerator<Meeting> {
  const session = new ZoomSession(context, zoomConfig());
  const users = await usersInScope(session, context.source.metadata);
  const known: KnownPerson[] = users.map((u) => ({ id: u.id, name: fullName(u), email: u.email ?? "" }));
  const seen = new Set<string>();
  for (const user of users) {
    for (const range of dateRanges(context.window.from, context.window.to)) {
      let token = "";
      for (let page = 0; page < 1000; page++) {
        const body = await session.json<{ meetings?: ZoomRecordingMeeting[]; next_page_token?: string }>(
          `/users/${encodeURIComponent(user.id)}/recordings`,
          { from: range.from, to: range.to, page_size: PAGE_SIZE, next_page_token: token },
          `list the cloud recordings of ${user.email ?? user.id}`,
        );
        if (!body) break; // the user was deleted meanwhile
        for (const recording of body.meetings ?? []) {
          const startedAt = new Date(recording.start_time);
          if (!recording.uuid || seen.has(recording.uuid) || Number.isNaN(startedAt.getTime()) || !inWindow(startedAt, context.window)) continue;
          const transcript = (recording.recording_files ?? []).find((f) => f.file_type === "TRANSCRIPT" && f.download_url && (f.status ?? "completed") === "completed");
          if (!transcript) continue;
          seen.add(recording.uuid);
          // A transcript file that landed before (the same file id and size) is not downloaded again.
          const fingerprint = `${transcript.id ?? transcript.download_url}:${transcript.file_size ?? ""}`;
          if (context.tracker.unchanged(recording.uuid, fingerprint, startedAt)) continue;
          const meeting = await transcriptMeeting(session, recording, transcript.download_url!, startedAt, known.find((k) => k.id === (recording.host_id ?? user.id)) ?? null, known);
          if (!meeting) continue;
          context.tracker.read(recording.uuid, fingerprint, startedAt);
          yield meeting;
        }
        token = body.next_page_token ?? "";
        if (!token) break;
      }
    }
  }
}

async function transcriptMeeting(session: ZoomSession, recording: ZoomRecordingMeeting, downloadUrl: string, startedAt: Date, host: KnownPerson | null, known: KnownPerson[]): Promise<Meeting | null> {
  const response = await session.get(downloadUrl, "text/vtt, */*");
  if (response.status === 404) {
    await response.body?.cancel();
    return null; // the recording was deleted since it was listed
  }
  if (!response.ok) {
    await zoomFailure(response, `download the transcript of "${recording.topic ?? recording.uuid}"`);
    return null;
  }
  return meetingFromTranscript({
    id: safeId(recording.uuid),
    title: recording.topic ?? "Zoom meeting",
    startedAt,
    durationMs: (recording.duration ?? 0) * 60_000,
    host,
    known,
    company: "",
    cues: parseVtt(await response.text()),
  });
}
