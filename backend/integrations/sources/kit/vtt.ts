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
