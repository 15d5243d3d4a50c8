import { createHash } from "node:crypto";
import type { Database } from "../../db/client.js";
import type { sources } from "../../db/schema.js";
import { findCredential, setStatusByCredential, updateCredential, type CredentialRow } from "../../db/sources.js";
import type { SecretBox } from "../../lib/crypto.js";
import type { Row } from "../destinations/writer.js";
import { integrationLabel } from "../../../contract/sources.js";
import { NotConfigured } from "./config.js";
import { describeMs, isTimeoutError, providerTimeoutMs, timeoutSignal } from "../../lib/outbound.js";
import { generateMeetings, hashString, type Meeting, type Person, type Utterance } from "./datagen.js";
import { readZoom } from "./zoom-reader.js";
import { readTeams } from "./teams-reader.js";
import { readGmail } from "./gmail-reader.js";

/**
 * Reading a source: every record (a meeting with its transcript, or an e-mail)
 * in a window, one at a time, from the data generator or from the provider
 * itself (Zoom cloud recordings, Microsoft Teams transcripts through Graph,
 * Gmail through the Gmail API). The sync job writes what comes out.
 *
 * Failures come in two kinds. A PermanentReadError is one that retrying cannot
 * fix (consent revoked, a scope or policy missing, a user or group deleted):
 * its message says what to fix. Anything else (5xx, timeouts, a 429 whose
 * Retry-After is too long to wait for) is an ordinary Error and the job
 * retries with backoff. Record ids come from the provider's own ids, never
 * from the window, so overlapping reads meet the same records.
 */

export interface EmailMessage {
  /** Gmail's message id. */
  id: string;
  thread_id: string;
  /** The From header, as sent ("Name <address>"). */
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  sent_at: Date;
  snippet: string;
  /** The text/plain part, else the text/html part with its markup removed. */
  body_text: string;
  labels: string[];
  /** The mailbox the message was read from (an e-mail address). */
  mailbox: string;
}

export type SourceRecord = { kind: "meeting"; meeting: Meeting } | { kind: "message"; message: EmailMessage };

/** The source integrations a run can read. */
export const READABLE_INTEGRATIONS: string[] = ["datagen", "zoom", "teams", "gmail"];

/** A failure retrying cannot fix: the message names what to fix. */
export class PermanentReadError extends Error {}

export interface ReaderServices {
  db: Database;
  secrets: SecretBox;
}

export type SourceRow = typeof sources.$inferSelect;

export interface ReadWindow {
  from: Date;
  to: Date;
}

/** What a provider's reader gets: the source, its credential (the owner's), and how to re-seal refreshed tokens. */
export interface ReaderContext {
  services: ReaderServices;
  source: SourceRow;
  credential: CredentialRow;
  window: ReadWindow;
  /** Seals and stores the credential's new secret (a refreshed token). */
  saveSecret(value: unknown): Promise<void>;
}

/**
 * Every record of the source whose start (meetings) or sending time (e-mails)
 * falls in [window.from, window.to). A permanent failure marks the source's
 * credential (and so its sources) "error"; a complete read marks it "active".
 */
export async function* readRecords(
  services: ReaderServices,
  source: SourceRow,
  window: ReadWindow,
  options: { meetingsPerDay?: number } = {},
): AsyncIterable<SourceRecord> {
  if (source.integrationName === "datagen") {
    const meetings = generateMeetings({
      sourceId: source.id,
      company: typeof source.metadata.company === "string" ? source.metadata.company : "",
      from: window.from,
      to: window.to,
      // Volume: the caller's, else the source's own (a number in its metadata), else the default.
      meetingsPerDay: options.meetingsPerDay ?? (typeof source.metadata.meetings_per_day === "number" ? source.metadata.meetings_per_day : undefined),
    });
    for (const meeting of meetings) yield { kind: "meeting", meeting };
    return;
  }
  const label = integrationLabel(source.integrationName) ?? source.integrationName;
  if (!READABLE_INTEGRATIONS.includes(source.integrationName)) throw new PermanentReadError(`Reading from ${label} is not available on this server.`);
  const credential = source.credentialId ? await findCredential(services.db, source.ownerId, source.credentialId, source.integrationName) : null;
  if (!credential) throw new PermanentReadError(`The ${label} source "${source.name}" has no credential any more. Create the source again to authenticate with ${label}.`);
  const context: ReaderContext = {
    services,
    source,
    credential,
    window,
    async saveSecret(value) {
      const secret = services.secrets.seal(value);
      credential.secret = secret;
      await updateCredential(services.db, source.ownerId, credential.id, { secret });
    },
  };
  try {
    const records =
      source.integrationName === "zoom" ? readZoom(context) : source.integrationName === "teams" ? readTeams(context) : readGmail(context);
    yield* records;
  } catch (error) {
    const failure = error instanceof NotConfigured ? new PermanentReadError(error.message) : error;
    if (failure instanceof PermanentReadError) await setStatusByCredential(services.db, source.ownerId, credential.id, "error").catch(() => {});
    throw failure;
  }
  await setStatusByCredential(services.db, source.ownerId, credential.id, "active").catch(() => {});
}

/* ---- e-mail renderings ------------------------------------------------------------------------------ */

const day = (d: Date) => d.toISOString().slice(0, 10);

function messageJson(m: EmailMessage) {
  return { ...m, sent_at: m.sent_at.toISOString() };
}

function messageText(m: EmailMessage): string {
  const lines = [`From: ${m.from}`, `To: ${m.to.join(", ")}`];
  if (m.cc.length) lines.push(`Cc: ${m.cc.join(", ")}`);
  lines.push(`Subject: ${m.subject}`, `Date: ${m.sent_at.toISOString()}`, "", m.body_text);
  return lines.join("\n").replace(/\n*$/, "\n");
}

/** An e-mail's objects: `<platform>/<source id>/<yyyy-mm-dd>/<message id>.json` and `.txt`. */
export function messageFiles(platform: string, sourceId: string, m: EmailMessage): { path: string; body: string; contentType: string }[] {
  const base = `${platform}/${sourceId}/${day(m.sent_at)}/${safeId(m.id)}`;
  return [
    { path: `${base}.json`, body: JSON.stringify(messageJson(m)), contentType: "application/json" },
    { path: `${base}.txt`, body: messageText(m), contentType: "text/plain" },
  ];
}

/** An e-mail's row in `email_messages` (key `message_id`). */
export function messageRow(sourceId: string, m: EmailMessage): Row {
  return {
    message_id: m.id,
    source_id: sourceId,
    thread_id: m.thread_id,
    mailbox: m.mailbox,
    from_address: m.from,
    to_addresses: m.to,
    cc_addresses: m.cc,
    subject: m.subject,
    sent_at: m.sent_at,
    snippet: m.snippet,
    body_text: m.body_text,
    labels: m.labels,
  };
}

/* ---- shared by the provider readers ------------------------------------------------------------------ */

/**
 * A provider id usable as a file name and a row key: base64 ids (Zoom meeting
 * UUIDs, Graph ids) become their base64url form (same bytes, no "/" or "+"),
 * other ids with unsafe characters a digest of themselves.
 */
export function safeId(raw: string): string {
  if (/^[A-Za-z0-9_-]+$/.test(raw)) return raw;
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) return raw.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return createHash("sha256").update(raw).digest("base64url").slice(0, 32);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Longest Retry-After a reader waits for in place; a longer one fails the attempt (the job retries later). */
export const MAX_RETRY_AFTER_SECONDS = 30;
const RATE_LIMIT_ATTEMPTS = 4;

/** Seconds from a Retry-After value (delta-seconds or an HTTP date); 1 when absent or unreadable. */
export function retryAfterSeconds(value: string | null | undefined): number {
  if (!value) return 1;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : 1;
}

/**
 * Runs a request, waiting out 429 answers for as long as their Retry-After
 * asks (up to MAX_RETRY_AFTER_SECONDS, a few times). `rateLimited` tells a 429
 * and its Retry-After apart from anything else.
 */
export async function withRateLimit<T>(label: string, attempt: () => Promise<T>, rateLimited: (result: T | unknown) => string | null | undefined | false): Promise<T> {
  for (let n = 1; ; n++) {
    let result: T;
    try {
      result = await attempt();
    } catch (error) {
      const after = rateLimited(error);
      if (after === false || after === undefined) throw error;
      await waitOrGiveUp(label, after, n);
      continue;
    }
    const after = rateLimited(result);
    if (after === false || after === undefined) return result;
    await waitOrGiveUp(label, after, n);
  }
}

async function waitOrGiveUp(label: string, retryAfter: string | null, attempt: number) {
  const seconds = retryAfterSeconds(retryAfter);
  if (seconds > MAX_RETRY_AFTER_SECONDS || attempt >= RATE_LIMIT_ATTEMPTS) {
    throw new Error(`${label} is limiting Tributary's requests (429, retry after ${seconds} s); the sync will try again later.`);
  }
  await sleep(seconds * 1000);
}

/**
 * fetch with a timeout (PROVIDER_TIMEOUT_SECONDS unless given) and 429 handling; network failures become ordinary
 * (retryable) errors.
 */
export async function fetchProvider(label: string, url: string | URL, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
  const timeoutMs = init.timeoutMs ?? providerTimeoutMs();
  return withRateLimit(
    label,
    async () => {
      try {
        return await fetch(url, { ...init, signal: timeoutSignal(timeoutMs, init.signal) });
      } catch (error) {
        const e = error as Error;
        throw new Error(`${label} could not be reached (${isTimeoutError(e) ? `no answer within ${describeMs(timeoutMs)}` : e.message}); the sync will try again.`);
      }
    },
    (result) => {
      const response = result as Response;
      if (typeof response?.status !== "number" || response.status !== 429 || typeof response.headers?.get !== "function") return false;
      void response.body?.cancel();
      return response.headers.get("retry-after");
    },
  );
}

/* ---- transcripts: WebVTT ----------------------------------------------------------------------------- */

export interface VttCue {
  startMs: number;
  endMs: number;
  /** From a voice tag (<v Name>) or a "Name: " prefix; null when the cue names no one. */
  speaker: string | null;
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", lrm: "", rlm: "" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function vttTime(value: string): number | null {
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})$/.exec(value.trim());
  if (!m) return null;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]!.padEnd(3, "0"));
}

/** The cues of a WebVTT file (Zoom: "Name: text"; Teams: "<v Name>text</v>"). */
export function parseVtt(text: string): VttCue[] {
  const blocks = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split(/\n{2,}/);
  const cues: VttCue[] = [];
  for (const block of blocks) {
    const lines = block.split("\n");
    const timing = lines.findIndex((l) => l.includes("-->"));
    if (timing < 0 || /^(WEBVTT|NOTE|STYLE|REGION)\b/.test(lines[0]!)) continue;
    const [start, rest] = lines[timing]!.split("-->");
    const startMs = vttTime(start!);
    const endMs = vttTime((rest ?? "").trim().split(/\s+/)[0] ?? "");
    if (startMs === null || endMs === null) continue;
    let payload = lines.slice(timing + 1).join("\n").trim();
    if (!payload) continue;
    let speaker: string | null = null;
    const voice = /<v(?:\.[^\s>]*)?\s+([^>]+)>/.exec(payload);
    if (voice) speaker = decodeEntities(voice[1]!.trim());
    payload = decodeEntities(payload.replace(/<[^>]*>/g, "")).trim();
    if (!speaker) {
      const prefixed = /^([^:\n]{1,80}):\s+([\s\S]*)$/.exec(payload);
      if (prefixed) {
        speaker = prefixed[1]!.trim();
        payload = prefixed[2]!.trim();
      }
    }
    if (payload) cues.push({ startMs, endMs, speaker, text: payload });
  }
  return cues;
}

/** Someone the provider knows (a user of the account/tenant/team): their speech is "Internal". */
export interface KnownPerson {
  id: string;
  name: string;
  email: string;
}

export function person(name: string, known: KnownPerson[], company: string): Person {
  const match = known.find((k) => k.name.toLowerCase() === name.toLowerCase());
  if (match) return { id: match.id, name: match.name, email: match.email, title: "", company, affiliation: "Internal" };
  return { id: `spk-${hashString(name.toLowerCase()).toString(36)}`, name, email: "", title: "", company: "", affiliation: "External" };
}

/** A meeting record from a provider's transcript. */
export function meetingFromTranscript(input: {
  id: string;
  title: string;
  startedAt: Date;
  durationMs?: number;
  host: KnownPerson | null;
  known: KnownPerson[];
  company: string;
  cues: VttCue[];
}): Meeting {
  const people = new Map<string, Person>();
  const personFor = (name: string) => {
    const key = name.toLowerCase();
    if (!people.has(key)) people.set(key, person(name, input.known, input.company));
    return people.get(key)!;
  };
  const host = input.host ? personFor(input.host.name) : null;
  const utterances: Utterance[] = input.cues.map((cue, index) => ({
    index,
    speaker: personFor(cue.speaker ?? "Unknown speaker"),
    startMs: cue.startMs,
    endMs: cue.endMs,
    text: cue.text,
    topic: "",
  }));
  const lastEnd = input.cues.reduce((max, c) => Math.max(max, c.endMs), 0);
  return {
    id: input.id,
    title: input.title,
    startedAt: input.startedAt,
    durationMs: Math.max(input.durationMs ?? 0, lastEnd),
    account: "",
    host: host ?? utterances[0]?.speaker ?? personFor("Unknown speaker"),
    participants: [...people.values()],
    agenda: [],
    utterances,
  };
}

export const inWindow = (at: Date, window: ReadWindow) => at.getTime() >= window.from.getTime() && at.getTime() < window.to.getTime();
