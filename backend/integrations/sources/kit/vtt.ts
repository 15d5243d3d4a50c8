import { parse } from "@plussub/srt-vtt-parser";
import { decodeHTML } from "entities";

/* ---- transcripts: WebVTT ----------------------------------------------------------------------------- */

export interface VttCue {
  startMs: number;
  endMs: number;
  /** From a voice tag (<v Name>) or a "Name: " prefix; null when the cue names no one. */
  speaker: string | null;
  text: string;
}

/** HTML and WebVTT character references ("&amp;", "&#39;") as the characters they stand for (the entities library). */
export const decodeEntities = (text: string): string => decodeHTML(text);

/**
 * The cues of a WebVTT file (Zoom: "Name: text"; Teams: "<v Name>text</v>"): blocks and timings read by the
 * srt-vtt-parser library; the speaker from the cue's voice tag, or else from a "Name: " prefix (Zoom's), its markup
 * dropped and its character references decoded. A cue without words, or whose end is before its start, is left out.
 */
export function parseVtt(text: string): VttCue[] {
  const { entries } = parse(text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n"));
  const cues: VttCue[] = [];
  for (const entry of entries) {
    let payload = entry.text.trim();
    if (!payload || !(entry.to >= entry.from)) continue;
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
    if (payload) cues.push({ startMs: entry.from, endMs: entry.to, speaker, text: payload });
  }
  return cues;
}
