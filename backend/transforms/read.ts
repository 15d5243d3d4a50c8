import type { ScanColumn, Warehouse } from "../integrations/destinations/warehouse.js";
import type { Line, MeetingMeta } from "./analysis/types.js";

/**
 * What transforms read of a meeting source: its meetings, each with its transcript lines, streamed one meeting at a
 * time. No warehouse needs a join, and no pass holds more than a batch of meetings with their lines.
 */

export interface MeetingWithLines {
  meeting: MeetingMeta;
  /** In the meeting's order: by start, then id. */
  lines: Line[];
}

/** Rows per batch of a scan: bounded memory, few round trips. */
export const SCAN_BATCH_ROWS = 1_000;
/** Meetings whose lines are read with one scan (about 40,000 lines at a typical 20 a meeting). */
export const MEETINGS_PER_READ = 2_000;

/** The columns transforms read of the meeting streams (contract/integrations/streams.ts meetingStreams). */
export const MEETING_COLUMNS: ScanColumn[] = [
  { name: "meeting_id", type: "string" },
  { name: "title", type: "string" },
  { name: "account", type: "string" },
  { name: "started_at", type: "timestamp" },
];
export const LINE_COLUMNS: ScanColumn[] = [
  { name: "meeting_id", type: "string" },
  { name: "utterance_id", type: "string" },
  { name: "speaker_id", type: "string" },
  { name: "speaker_name", type: "string" },
  { name: "affiliation", type: "string" },
  { name: "spoken_at", type: "timestamp" },
  { name: "start_ms", type: "number" },
  { name: "end_ms", type: "number" },
  { name: "text", type: "string" },
];

const text = (v: unknown) => (typeof v === "string" ? v : v == null ? "" : String(v));
const orNull = (v: unknown) => (v == null || v === "" ? null : String(v));
const time = (v: unknown) => (v instanceof Date ? v : new Date(Number(v ?? 0)));

function meetingOf(r: Record<string, unknown>): MeetingMeta {
  return { meeting_id: text(r.meeting_id), title: text(r.title), started_at: time(r.started_at), account: orNull(r.account) };
}
function lineOf(r: Record<string, unknown>): Line {
  return {
    meeting_id: text(r.meeting_id),
    utterance_id: text(r.utterance_id),
    speaker_id: text(r.speaker_id),
    speaker_name: text(r.speaker_name),
    affiliation: orNull(r.affiliation),
    spoken_at: time(r.spoken_at),
    start_ms: Number(r.start_ms ?? 0),
    end_ms: Number(r.end_ms ?? 0),
    text: text(r.text),
  };
}

/**
 * The source's meetings of `platforms`, in id order, each with its lines. The meetings are read in batches of
 * `meetingsPerRead`; each batch's lines with one scan of those meetings' ids (bounded: the warehouse sorts a batch's
 * lines, never the whole table). A row a warehouse holds twice counts once (the last one read).
 */
export async function* meetingsWithLines(warehouse: Warehouse, sourceId: string, platforms: string[], batchRows = SCAN_BATCH_ROWS, meetingsPerRead = MEETINGS_PER_READ): AsyncGenerator<MeetingWithLines> {
  let group: MeetingMeta[] = [];
  const flush = async function* (): AsyncGenerator<MeetingWithLines> {
    // The lines come in the meetings' order (one warehouse orders both by the same column): each meeting's are
    // complete when the next line is another meeting's, so only one meeting's lines are held.
    const values = group.map((m) => m.meeting_id);
    const lines = rows(warehouse.scan({ table: "transcript_utterances", sourceId, columns: LINE_COLUMNS, in: { column: "meeting_id", values }, orderBy: ["meeting_id", "start_ms", "utterance_id"], batchRows }));
    let next = await lines.next();
    try {
      for (const meeting of group) {
        const own: Line[] = [];
        for (; !next.done && next.value.meeting_id === meeting.meeting_id; next = await lines.next()) {
          const line = lineOf(next.value);
          if (own.length && own[own.length - 1]!.utterance_id === line.utterance_id) own[own.length - 1] = line;
          else own.push(line);
        }
        yield { meeting, lines: own };
      }
      if (!next.done) throw new Error(`The warehouse gave the lines of meeting ${String(next.value.meeting_id)} out of the meetings' order`);
    } finally {
      await lines.return(undefined);
    }
    group = [];
  };
  for await (const batch of warehouse.scan({ table: "meetings", sourceId, platforms, columns: MEETING_COLUMNS, orderBy: ["meeting_id"], batchRows })) {
    for (const row of batch) {
      const meeting = meetingOf(row);
      const last = group[group.length - 1];
      if (last?.meeting_id === meeting.meeting_id) {
        group[group.length - 1] = meeting;
        continue;
      }
      if (group.length >= meetingsPerRead) yield* flush();
      group.push(meeting);
    }
  }
  if (group.length) yield* flush();
}

/** A scan's rows, one by one. */
async function* rows(batches: AsyncIterable<Record<string, unknown>[]>): AsyncGenerator<Record<string, unknown>> {
  for await (const batch of batches) yield* batch;
}
