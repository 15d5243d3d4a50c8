import { admin } from "@googleapis/admin";
import type { meet_v2 } from "@googleapis/meet";
import { providerTimeoutMs } from "../../../lib/outbound.js";
import { inWindow, meetingFromTranscript, PermanentReadError, person, safeId, withRateLimit, type KnownPerson, type VttCue } from "../kit/index.js";
import type { ReaderContext } from "../plugin.js";
import type { Meeting } from "../records.js";
import { delegatedClient, DIRECTORY_SCOPE, DIRECTORY_USER_SCOPE } from "../gmail/auth.js";
import { meetApi, refusal, statusOf, type GoogleErrorLike } from "./auth.js";
import { meetConfig, type MeetConfig } from "./config.js";

/**
 * Google Meet through the official clients (@googleapis/meet v2, @googleapis/admin on google-auth-library): the
 * users in scope (the Workspace's, or one group's members, listed with the Directory API as the source's admin), then
 * as each user in turn (domain-wide delegation) conferenceRecords.list filtered by start time, every page. A
 * conference several of them took part in is read once (its record's name). Per conference: participants.list (their
 * names), transcripts.list and transcripts.entries.list, every page: the transcript's lines (speaker, text, start, end).
 *
 * The clients' own retries are off: a 429 waits as long as its Retry-After asks (within reason), a 5xx or a network
 * failure is an ordinary error (the run retries), any other refusal a PermanentReadError saying what to fix.
 */

const NO_RETRY = { retry: false } as const;
/** Google's largest pages: conference records and transcript entries 100, participants 250. */
const RECORDS_PAGE = 100;
const PARTICIPANTS_PAGE = 250;
const ENTRIES_PAGE = 100;
const MAX_PAGES = 10_000;

function header(headers: unknown, name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === "string" ? value : null;
}

/** A Google call as `who`, with 429 handling; its failure classified (transient, or permanent with a sentence). */
async function call<T>(work: () => Promise<T>, who: string, what: string): Promise<T> {
  try {
    return await withRateLimit("Google", work, (error) => (error instanceof Error && statusOf(error) === 429 ? header((error as GoogleErrorLike).response?.headers, "retry-after") : false));
  } catch (error) {
    if (error instanceof PermanentReadError || /limiting Tributary's requests/.test((error as Error)?.message ?? "")) throw error;
    const status = statusOf(error);
    const reached = (error as GoogleErrorLike)?.response !== undefined;
    const reason = String((error as GoogleErrorLike)?.message ?? "").replace(/\.$/, "");
    if (!reached) throw new Error(`Google could not be reached to ${what} (${reason}); the sync will try again.`);
    if (status !== undefined && status >= 500) throw new Error(`Google answered ${status} while trying to ${what}; the sync will try again.`);
    // A sync's refused delegation was granted once: the source was verified before it could be created.
    throw new PermanentReadError(refusal(error, who, what, true).message);
  }
}

/** A Workspace user in scope: their Directory id (Meet's signed-in participants name it) and e-mail. */
interface WorkspaceUser {
  id: string;
  email: string;
  name: string;
}

/** The users in scope, as the source's admin: a group's active members, or the Workspace's active users. */
async function usersInScope(config: MeetConfig, metadata: Record<string, unknown>): Promise<{ users: WorkspaceUser[]; directory: Map<string, WorkspaceUser> }> {
  const adminEmail = String(metadata.admin_email ?? "");
  if (!adminEmail) throw new PermanentReadError("The Google Meet source names no Workspace admin. Create the source again with the admin's e-mail.");
  const group = metadata.meet_extraction_scope === "GROUP" ? String(metadata.meet_group_id ?? "") : null;
  const scopes = group ? [DIRECTORY_SCOPE, DIRECTORY_USER_SCOPE] : [DIRECTORY_USER_SCOPE];
  const directoryApi = admin({ version: "directory_v1", auth: delegatedClient(config, adminEmail, scopes, providerTimeoutMs()) as any, rootUrl: `${config.adminBaseUrl}/`, timeout: providerTimeoutMs() });
  // The Workspace's users: their ids name the signed-in participants of a conference.
  const directory = new Map<string, WorkspaceUser>();
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { data } = await call(() => directoryApi.users.list({ customer: "my_customer", maxResults: 500, pageToken }, NO_RETRY), adminEmail, "list the Workspace's users");
    for (const u of data.users ?? []) {
      if (!u.id || !u.primaryEmail || u.suspended || u.archived) continue;
      const email = u.primaryEmail.toLowerCase();
      directory.set(u.id, { id: u.id, email, name: u.name?.fullName || email });
    }
    pageToken = data.nextPageToken ?? undefined;
    if (!pageToken) break;
  }
  let emails = [...directory.values()].map((u) => u.email);
  if (group) {
    const groupName = String(metadata.meet_group_email || metadata.meet_group_name || group);
    const members: string[] = [];
    pageToken = undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { data } = await call(
        () => directoryApi.members.list({ groupKey: group, maxResults: 200, pageToken, includeDerivedMembership: true }, NO_RETRY),
        adminEmail,
        `list the members of the group ${groupName}`,
      );
      for (const m of data.members ?? []) if (m.email && (m.type ?? "USER") === "USER" && (m.status ?? "ACTIVE") === "ACTIVE") members.push(m.email.toLowerCase());
      pageToken = data.nextPageToken ?? undefined;
      if (!pageToken) break;
    }
    const inGroup = new Set(members);
    emails = emails.filter((email) => inGroup.has(email));
  }
  const byEmail = new Map([...directory.values()].map((u) => [u.email, u]));
  const users = [...new Set(emails)].sort().map((email) => byEmail.get(email)!);
  return { users, directory };
}

/** Every item of a paged list call. */
async function allPages<T, P extends { nextPageToken?: string | null }>(fetchPage: (pageToken: string | undefined) => Promise<P>, items: (page: P) => T[] | undefined): Promise<T[]> {
  const out: T[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const data = await fetchPage(pageToken);
    out.push(...(items(data) ?? []));
    pageToken = data.nextPageToken ?? undefined;
    if (!pageToken) break;
  }
  return out;
}

const displayName = (p: meet_v2.Schema$Participant) => p.signedinUser?.displayName || p.anonymousUser?.displayName || p.phoneUser?.displayName || "Unknown speaker";
const directoryId = (p: meet_v2.Schema$Participant) => p.signedinUser?.user?.replace(/^users\//, "") ?? null;
const ms = (value: string | null | undefined) => (value ? new Date(value).getTime() : NaN);

/** One conference record as a meeting: its participants and its transcripts' lines, in time order. */
async function readConference(api: meet_v2.Meet, user: WorkspaceUser, directory: Map<string, WorkspaceUser>, record: meet_v2.Schema$ConferenceRecord, startedAt: Date): Promise<Meeting> {
  const parent = record.name!;
  const who = user.email;
  const participants = await call(
    () => allPages((pageToken) => api.conferenceRecords.participants.list({ parent, pageSize: PARTICIPANTS_PAGE, pageToken }, NO_RETRY).then((r) => r.data), (d) => d.participants),
    who,
    `list the participants of a Google Meet conference of ${who}`,
  );
  // Signed-in participants who are users of the Workspace are "Internal"; guests, anonymous and phone users are not.
  const known: KnownPerson[] = [];
  const names = new Map<string, string>();
  for (const p of participants) {
    if (!p.name) continue;
    const name = displayName(p);
    names.set(p.name, name);
    const member = directory.get(directoryId(p) ?? "");
    if (member && !known.some((k) => k.id === member.id)) known.push({ id: member.id, name, email: member.email });
  }
  const transcripts = await call(
    () => allPages((pageToken) => api.conferenceRecords.transcripts.list({ parent, pageToken }, NO_RETRY).then((r) => r.data), (d) => d.transcripts),
    who,
    `list the transcripts of a Google Meet conference of ${who}`,
  );
  const cues: VttCue[] = [];
  for (const transcript of transcripts) {
    if (!transcript.name) continue;
    const entries = await call(
      () => allPages((pageToken) => api.conferenceRecords.transcripts.entries.list({ parent: transcript.name!, pageSize: ENTRIES_PAGE, pageToken }, NO_RETRY).then((r) => r.data), (d) => d.transcriptEntries),
      who,
      `read a Google Meet transcript of ${who}`,
    );
    for (const entry of entries) {
      const start = ms(entry.startTime);
      const end = ms(entry.endTime);
      if (!entry.text || Number.isNaN(start)) continue;
      const startMs = Math.max(0, start - startedAt.getTime());
      cues.push({ startMs, endMs: Number.isNaN(end) ? startMs : Math.max(startMs, end - startedAt.getTime()), speaker: names.get(entry.participant ?? "") ?? "Unknown speaker", text: entry.text });
    }
  }
  cues.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  // The space's meeting code names the meeting (a conference record has no title); a space deleted since has none.
  const space = record.space
    ? await call(
        async () => {
          try {
            return (await api.spaces.get({ name: record.space! }, NO_RETRY)).data;
          } catch (error) {
            if (statusOf(error) === 404) return null;
            throw error;
          }
        },
        who,
        `read a Google Meet space of ${who}`,
      )
    : null;
  const ended = ms(record.endTime);
  const host = known.find((k) => k.id === user.id) ?? null;
  const meeting = meetingFromTranscript({
    id: safeId(parent.replace(/^conferenceRecords\//, "")),
    title: space?.meetingCode ? `Google Meet ${space.meetingCode}` : "Google Meet meeting",
    startedAt,
    durationMs: Number.isNaN(ended) ? undefined : Math.max(0, ended - startedAt.getTime()),
    host,
    known,
    company: "",
    cues,
  });
  // Everyone who took part, whether they spoke or not.
  for (const name of new Set(names.values())) {
    if (!meeting.participants.some((p) => p.name.toLowerCase() === name.toLowerCase())) meeting.participants.push(person(name, known, ""));
  }
  return { ...meeting, account: user.email };
}

export async function* readMeet(context: ReaderContext): AsyncGenerator<Meeting> {
  const config = meetConfig();
  const { window } = context;
  const { users, directory } = await usersInScope(config, context.source.metadata);
  const filter = `start_time>="${window.from.toISOString()}" AND start_time<"${window.to.toISOString()}"`;
  const seen = new Set<string>();
  for (const user of users) {
    const api = meetApi(config, user.email, providerTimeoutMs());
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { data } = await call(
        () => api.conferenceRecords.list({ filter, pageSize: RECORDS_PAGE, pageToken }, NO_RETRY),
        user.email,
        `list the Google Meet conference records of ${user.email}`,
      );
      for (const record of data.conferenceRecords ?? []) {
        const startedAt = new Date(record.startTime ?? "");
        if (!record.name || seen.has(record.name) || Number.isNaN(startedAt.getTime()) || !inWindow(startedAt, window)) continue;
        seen.add(record.name);
        yield await readConference(api, user, directory, record, startedAt);
      }
      pageToken = data.nextPageToken ?? undefined;
      if (!pageToken) break;
    }
  }
}
