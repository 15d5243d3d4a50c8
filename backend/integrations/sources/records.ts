
/**
 * The meetings a meeting source yields (Zoom, Teams, the data generator) and the transcript files a sync makes of
 * them (kit/meetings.ts writes them as rows). Record ids come from the provider's own ids, never from the window read, so overlapping
 * reads meet the same records.
 */

export interface Person {
  id: string;
  name: string;
  email: string;
  title: string;
  company: string;
  affiliation: "Internal" | "External";
}

export interface Utterance {
  /** 0-based position in the meeting. */
  index: number;
  speaker: Person;
  /** Milliseconds from the meeting's start. */
  startMs: number;
  endMs: number;
  text: string;
  /** The agenda item this was said under. */
  topic: string;
}

export interface Meeting {
  /** Stable: derived from the source id, the day and the meeting's number that day. */
  id: string;
  title: string;
  startedAt: Date;
  durationMs: number;
  account: string;
  host: Person;
  participants: Person[];
  agenda: string[];
  utterances: Utterance[];
}

/* ---- meeting renderings ------------------------------------------------------------------------------ */

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function timestamp(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** Zoom's cloud-recording transcript: WebVTT, numbered cues, "Speaker Name: text". */
export function toVtt(meeting: Meeting): string {
  const cues = meeting.utterances.map((u) => `${u.index + 1}\n${timestamp(u.startMs)} --> ${timestamp(u.endMs)}\n${u.speaker.name}: ${u.text}\n`);
  return `WEBVTT\n\n${cues.join("\n")}`;
}

/** A plain-text transcript: "[hh:mm:ss] Speaker: text" per line. */
export function toText(meeting: Meeting): string {
  const lines = meeting.utterances.map((u) => `[${timestamp(u.startMs).slice(0, 8)}] ${u.speaker.name}: ${u.text}`);
  return lines.join("\n") + "\n";
}

/** Gong's call shape: metaData, parties, and the transcript as monologues of sentences. */
export function toGongCall(meeting: Meeting) {
  const monologues: { speakerId: string; topic: string; sentences: { start: number; end: number; text: string }[] }[] = [];
  for (const u of meeting.utterances) {
    const last = monologues[monologues.length - 1];
    const sentences = u.text.match(/[^.!?]+[.!?]*/g)?.map((s) => s.trim()).filter(Boolean) ?? [u.text];
    const span = u.endMs - u.startMs;
    const total = sentences.reduce((n, s) => n + s.length, 0);
    let at = u.startMs;
    const timed = sentences.map((text) => {
      const end = at + Math.round((span * text.length) / total);
      const sentence = { start: at, end, text };
      at = end;
      return sentence;
    });
    if (last && last.speakerId === u.speaker.id && last.topic === u.topic) last.sentences.push(...timed);
    else monologues.push({ speakerId: u.speaker.id, topic: u.topic, sentences: timed });
  }
  return {
    metaData: {
      id: meeting.id,
      title: meeting.title,
      started: meeting.startedAt.toISOString(),
      duration: Math.round(meeting.durationMs / 1000),
      primaryUserId: meeting.host.id,
      direction: "Conference",
      system: "Zoom",
      scope: "External",
      media: "Video",
      language: "eng",
    },
    parties: meeting.participants.map((p) => ({
      id: p.id,
      speakerId: p.id,
      name: p.name,
      emailAddress: p.email,
      title: p.title,
      affiliation: p.affiliation,
      methods: ["Attendee"],
    })),
    transcript: monologues,
  };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A meeting's objects: `<platform>/<source id>/<yyyy-mm-dd>/<meeting id>` as the platform's own transcript file (a
 * Gong call's JSON, else WebVTT) plus `.txt`.
 */
export function meetingFiles(platform: string, sourceId: string, meeting: Meeting): { path: string; body: string; contentType: string }[] {
  const base = `${platform}/${sourceId}/${day(meeting.startedAt)}/${meeting.id}`;
  const main =
    platform === "gong"
      ? { path: `${base}.json`, body: JSON.stringify(toGongCall(meeting)), contentType: "application/json" }
      : { path: `${base}.vtt`, body: toVtt(meeting), contentType: "text/vtt" };
  return [main, { path: `${base}.txt`, body: toText(meeting), contentType: "text/plain" }];
}
