import type { DestinationObject, Row } from "../integrations/destinations/index.js";
import { meetingFiles, messageFiles, messageRow, type EmailMessage, type Meeting, type SourceRecord } from "../integrations/sources/index.js";

/**
 * What a batch of source records becomes at every destination: files (.vtt or Gong .json plus .txt per meeting, the
 * e-mail's files) and rows of `meetings`, `transcript_utterances` and `email_messages`. What the destinations receive
 * does not depend on the source. Object paths and merge keys come from the record ids, so writes are idempotent.
 */

/**
 * Records per batch, unless every writer asks for fewer (`batchRecords`): each batch is one upsertRows call per
 * table and one round of files per destination (a cloud warehouse merges each call).
 */
export const BATCH_MEETINGS = 200;

/** What one batch writes to each destination: its objects, then its rows table by table. */
export interface SyncBatch {
  /** Records (meetings, e-mails) in the batch. */
  records: number;
  objects: DestinationObject[];
  tables: { table: string; rows: Row[]; key: string[] }[];
}

function meetingRow(sourceId: string, platform: string, m: Meeting): Row {
  return {
    meeting_id: m.id,
    source_id: sourceId,
    platform,
    title: m.title,
    account: m.account,
    started_at: m.startedAt,
    duration_ms: m.durationMs,
    host_id: m.host.id,
    participants: m.participants.map((p) => ({ id: p.id, name: p.name, email: p.email, affiliation: p.affiliation })),
    agenda: m.agenda,
  };
}

/** "-0000" to "-9999": an utterance id's suffix, made once (padStart made two strings per transcript line). */
const INDEX_SUFFIXES = Array.from({ length: 10_000 }, (_, i) => `-${String(i).padStart(4, "0")}`);

/** Adds the meeting's transcript lines to `rows` (see meetingBatch). */
function pushUtteranceRows(rows: Row[], sourceId: string, m: Meeting): void {
  for (const u of m.utterances) {
    rows.push({
      utterance_id: m.id + (INDEX_SUFFIXES[u.index] ?? `-${u.index}`),
      meeting_id: m.id,
      source_id: sourceId,
      utterance_index: u.index,
      speaker_id: u.speaker.id,
      speaker_name: u.speaker.name,
      speaker_email: u.speaker.email,
      affiliation: u.speaker.affiliation,
      topic: u.topic,
      spoken_at: new Date(m.startedAt.getTime() + u.startMs),
      start_ms: u.startMs,
      end_ms: u.endMs,
      text: u.text,
    });
  }
}

/** A batch of meetings as files (.vtt or Gong .json, plus .txt) and rows of `meetings` and `transcript_utterances`. */
export function meetingBatch(platform: string, sourceId: string, meetings: Meeting[]): SyncBatch {
  const meetingRows = meetings.map((m) => meetingRow(sourceId, platform, m));
  const utterances: Row[] = [];
  for (const m of meetings) pushUtteranceRows(utterances, sourceId, m);
  return {
    records: meetings.length,
    objects: meetings.flatMap((m) => meetingFiles(platform, sourceId, m)),
    tables: [
      { table: "meetings", rows: meetingRows, key: ["meeting_id"] },
      { table: "transcript_utterances", rows: utterances, key: ["utterance_id"] },
    ],
  };
}

/**
 * A batch of source records: meetings as files and rows of `meetings` and
 * `transcript_utterances`, e-mails as files and rows of `email_messages`.
 */
export function recordBatch(platform: string, sourceId: string, records: SourceRecord[]): SyncBatch {
  const meetings: Meeting[] = [];
  const messages: EmailMessage[] = [];
  for (const record of records) {
    if (record.kind === "meeting") meetings.push(record.meeting);
    else messages.push(record.message);
  }
  const batch = meetingBatch(platform, sourceId, meetings);
  if (messages.length > 0) {
    batch.records += messages.length;
    batch.objects.push(...messages.flatMap((m) => messageFiles(platform, sourceId, m)));
    batch.tables.push({ table: "email_messages", rows: messages.map((m) => messageRow(sourceId, m)), key: ["message_id"] });
  }
  batch.tables = batch.tables.filter((t) => t.rows.length > 0);
  return batch;
}
