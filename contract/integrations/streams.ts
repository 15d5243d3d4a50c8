/**
 * What a source moves, as Airbyte's CDK streams and dlt's resources declare it: each stream has a name (its table at a
 * warehouse), a primary key (the merge key every destination upserts by), typed columns, a cursor field (the time a
 * record's window is read by), and the files each of its records writes, by platform. A source plug-in's manifest
 * lists its streams; the sync engine, the destinations' words and the connector's Schema section all read them from
 * there, so a new stream needs no change anywhere else.
 */

export type StreamColumnType = "string" | "number" | "boolean" | "timestamp" | "json";

export interface StreamColumn {
  name: string;
  type: StreamColumnType;
  /** One short phrase, shown in the Schema section. */
  description: string;
}

export interface StreamManifest {
  /** The stream's name, and its table's at a warehouse ("meetings"). */
  name: string;
  /** Shown in the Schema section ("Meetings"). */
  label: string;
  /** The columns whose values identify a record: a record written twice leaves one row. */
  primaryKey: readonly string[];
  /** The column holding the time a sync's window selects records by. */
  cursorField: string;
  columns: readonly StreamColumn[];
  /**
   * The files each record writes at a storage destination, by platform (their types, ".vtt"), under
   * `<platform>/<source id>/<yyyy-mm-dd>/`. Absent: the stream writes rows only.
   */
  files?: Readonly<Record<string, readonly string[]>>;
}

/** Shorthand for a column. */
const c = (name: string, type: StreamColumnType, description: string): StreamColumn => ({ name, type, description });

/** A meeting source's streams (Zoom, Teams, the data generator): `files` is what each meeting writes, by platform. */
export function meetingStreams(files: Record<string, readonly string[]>): readonly StreamManifest[] {
  return [
    {
      name: "meetings",
      label: "Meetings",
      primaryKey: ["meeting_id"],
      cursorField: "started_at",
      columns: [
        c("meeting_id", "string", "The provider's meeting id"),
        c("source_id", "string", "The source it was read from"),
        c("platform", "string", "Where the meeting took place"),
        c("title", "string", "The meeting's topic"),
        c("account", "string", "The account that held it"),
        c("started_at", "timestamp", "When it started"),
        c("duration_ms", "number", "How long it lasted, in milliseconds"),
        c("host_id", "string", "The host's id"),
        c("participants", "json", "Who took part: id, name, e-mail, internal or external"),
        c("agenda", "json", "The agenda items"),
      ],
      files,
    },
    {
      name: "transcript_utterances",
      label: "Transcript lines",
      primaryKey: ["utterance_id"],
      cursorField: "spoken_at",
      columns: [
        c("utterance_id", "string", "The meeting's id and the line's number"),
        c("meeting_id", "string", "The meeting it was said in"),
        c("source_id", "string", "The source it was read from"),
        c("utterance_index", "number", "Its place in the transcript, from 0"),
        c("speaker_id", "string", "The speaker's id"),
        c("speaker_name", "string", "The speaker's name"),
        c("speaker_email", "string", "The speaker's e-mail address"),
        c("affiliation", "string", "Internal or External"),
        c("topic", "string", "The agenda item it was said under"),
        c("spoken_at", "timestamp", "When it was said"),
        c("start_ms", "number", "Its start, in milliseconds from the meeting's start"),
        c("end_ms", "number", "Its end, in milliseconds from the meeting's start"),
        c("text", "string", "What was said"),
      ],
    },
  ];
}

/** Gmail's stream: each message writes its JSON and its text. */
export const EMAIL_STREAMS: readonly StreamManifest[] = [
  {
    name: "email_messages",
    label: "E-mail messages",
    primaryKey: ["message_id"],
    cursorField: "sent_at",
    columns: [
      c("message_id", "string", "Gmail's message id"),
      c("source_id", "string", "The source it was read from"),
      c("thread_id", "string", "The conversation it belongs to"),
      c("mailbox", "string", "The mailbox it was read from"),
      c("from_address", "string", "The sender, as sent"),
      c("to_addresses", "json", "The recipients"),
      c("cc_addresses", "json", "The copied recipients"),
      c("subject", "string", "The subject line"),
      c("sent_at", "timestamp", "When it was sent"),
      c("snippet", "string", "Gmail's short preview"),
      c("body_text", "string", "The message's text"),
      c("labels", "json", "Gmail's labels"),
    ],
    files: { gmail: [".json", ".txt"] },
  },
];

/** The file types a manifest's streams write, for one platform or for any. */
export function streamFileTypes(streams: readonly StreamManifest[], platform?: string): string[] {
  const types = new Set<string>();
  for (const stream of streams) {
    for (const [p, list] of Object.entries(stream.files ?? {})) if (platform === undefined || p === platform) list.forEach((t) => types.add(t));
  }
  return [...types];
}
