/**
 * Talk metrics per meeting and speaker: talk time (end_ms − start_ms, never negative), share of the
 * meeting's talk time, monologues (a speaker's consecutive lines, by start_ms, merged: from the first
 * line's start to the last line's end) and questions (sentences ending in "?").
 */
import { compareText, round4, timeOf, type Line } from "./types.js";

export interface SpeakerMetrics {
  meeting_id: string;
  speaker_id: string;
  speaker_name: string;
  affiliation: string | null;
  utterances: number;
  talk_ms: number;
  talk_ratio: number;
  longest_monologue_ms: number;
  /** Monologues strictly longer than the threshold. */
  monologues_over_threshold: number;
  questions_asked: number;
}

/** Sentences of a text that end with a question mark (one per sentence: "Really??" and "Why not?!" count once). */
export function countQuestions(text: string): number {
  const sentences = (text ?? "").match(/[^.!?\n]+[.!?]*/g) ?? [];
  return sentences.filter((sentence) => /\?[!?]*\s*$/.test(sentence) && /[\p{L}\p{N}]/u.test(sentence)).length;
}

const talkOf = (line: Line) => Math.max(0, (line.end_ms ?? 0) - (line.start_ms ?? 0));

/** Meetings in order of their first line (then id); speakers by talk time, most first (then id). */
export function speakerMetrics(lines: Line[], options: { monologueThresholdMs: number }): SpeakerMetrics[] {
  const threshold = Number.isFinite(options.monologueThresholdMs) ? options.monologueThresholdMs : 0;
  const meetings = new Map<string, Line[]>();
  for (const line of lines) {
    let list = meetings.get(line.meeting_id);
    if (!list) meetings.set(line.meeting_id, (list = []));
    list.push(line);
  }
  const firstAt = (list: Line[]) => list.reduce((min, l) => Math.min(min, timeOf(l.spoken_at)), Infinity);
  const order = [...meetings.entries()]
    .map(([id, list]) => ({ id, list, at: firstAt(list) }))
    .sort((a, b) => a.at - b.at || compareText(a.id, b.id));

  const out: SpeakerMetrics[] = [];
  for (const { id, list } of order) {
    const ordered = [...list].sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms || compareText(a.utterance_id, b.utterance_id));
    const total = ordered.reduce((sum, l) => sum + talkOf(l), 0);
    const speakers = new Map<string, SpeakerMetrics>();
    const closeMonologue = (speaker: SpeakerMetrics, ms: number) => {
      speaker.longest_monologue_ms = Math.max(speaker.longest_monologue_ms, ms);
      if (ms > threshold) speaker.monologues_over_threshold += 1;
    };
    let run: { speaker: SpeakerMetrics; start: number; end: number } | null = null;
    for (const line of ordered) {
      let speaker = speakers.get(line.speaker_id);
      if (!speaker) {
        speaker = {
          meeting_id: id,
          speaker_id: line.speaker_id,
          speaker_name: line.speaker_name,
          affiliation: line.affiliation,
          utterances: 0,
          talk_ms: 0,
          talk_ratio: 0,
          longest_monologue_ms: 0,
          monologues_over_threshold: 0,
          questions_asked: 0,
        };
        speakers.set(line.speaker_id, speaker);
      }
      if (speaker.affiliation === null && line.affiliation !== null) speaker.affiliation = line.affiliation;
      speaker.utterances += 1;
      speaker.talk_ms += talkOf(line);
      speaker.questions_asked += countQuestions(line.text);
      const end = Math.max(line.start_ms, line.end_ms);
      if (run && run.speaker === speaker) {
        run.end = Math.max(run.end, end);
      } else {
        if (run) closeMonologue(run.speaker, run.end - run.start);
        run = { speaker, start: line.start_ms, end };
      }
    }
    if (run) closeMonologue(run.speaker, run.end - run.start);
    for (const speaker of speakers.values()) speaker.talk_ratio = total > 0 ? round4(speaker.talk_ms / total) : 0;
    out.push(...[...speakers.values()].sort((a, b) => b.talk_ms - a.talk_ms || compareText(a.speaker_id, b.speaker_id)));
  }
  return out;
}
