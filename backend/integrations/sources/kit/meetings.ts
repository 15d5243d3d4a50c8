import type { Row } from "../../destinations/writer.js";
import type { EmitContext, RecordSink } from "../plugin.js";
import { meetingFiles, type Meeting } from "../records.js";

/**
 * How a meeting source (Zoom, Teams, the data generator) writes a meeting: a row of `meetings`, a row of
 * `transcript_utterances` per line (the streams of contract/integrations/streams.ts meetingStreams), and its
 * transcript files with the meetings stream. Ids come from the provider's, so a meeting read twice lands once.
 */

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

/** A meeting's rows and files, into the sync's batch. */
export function emitMeeting(m: Meeting, { platform, sourceId }: EmitContext, out: RecordSink): void {
  out.row("meetings", meetingRow(sourceId, platform, m));
  for (const file of meetingFiles(platform, sourceId, m)) out.file("meetings", file);
  for (const u of m.utterances) {
    out.row("transcript_utterances", {
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
