/**
 * Action items: lines containing a commitment cue ("I will", "next step", "action item", …), matched
 * case-insensitively on whole words. The owner is the speaker; the due hint is the first expression of a
 * day or time in the line ("by Friday", "tomorrow", "next week", "end of month", "December 3", "2026-12-03").
 */
import { normalizeQuotes, orderLines, phraseRegExp, uniquePhrases, type Line } from "./types.js";

/** Default cue phrases. "let us"/"let's" alone are left out: "let us dive in" is not a commitment. */
export const DEFAULT_ACTION_CUES: readonly string[] = [
  "action item",
  "action items",
  "next step",
  "next steps",
  "follow up",
  "follow-up",
  "i will",
  "i'll",
  "we will",
  "we'll",
  "i can send",
  "will send",
  "send over",
  "let me",
  "let us schedule",
  "let's schedule",
  "todo",
];

export interface ActionItem {
  meeting_id: string;
  utterance_id: string;
  owner_id: string;
  owner_name: string;
  /** When the line was said (the items per week). */
  spoken_at: Date;
  text: string;
  /** The cue as given in the options (the one found first in the text; the longer one on a tie). */
  cue: string;
  due_hint: string | null;
}

const DAY = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";
const MONTH = "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec";
const COUNT = "a|an|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few|\\d{1,2}";
const WHEN = [
  `(?:next|this|coming)\\s+(?:${DAY}|week|month|quarter|year)`,
  `(?:the\\s+)?end\\s+of\\s+(?:the\\s+|this\\s+|next\\s+)?(?:day|week|month|quarter|year)`,
  "eod|eow|eom|eoq|cob",
  "tomorrow|tonight|today|later\\s+today",
  `in\\s+(?:${COUNT})\\s+(?:business\\s+)?(?:days?|weeks?|months?)`,
  `(?:${MONTH})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?`,
  `\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTH})(?:\\s+\\d{4})?`,
  "\\d{4}-\\d{2}-\\d{2}",
  "\\d{1,2}/\\d{1,2}(?:/\\d{2,4})?",
  "\\d{1,2}(?::\\d{2})?\\s*(?:am|pm)",
  "noon|midnight",
  DAY,
].join("|");
const DUE = new RegExp(`(?<![\\p{L}\\p{N}])(?:(?:by|before|until|till|due|on)\\s+)?(?:${WHEN})(?![\\p{L}\\p{N}])`, "iu");

/** The first day/time expression of a text ("by Friday", "next week", …) as written, or null. */
export function dueHint(text: string): string | null {
  const match = DUE.exec(normalizeQuotes(text ?? ""));
  return match ? match[0].replace(/\s+/g, " ").trim() : null;
}

/** Lines holding a cue, in spoken order (one item per line). */
export function actionItems(lines: Line[], options: { cuePhrases: string[] }): ActionItem[] {
  const cues = uniquePhrases(options.cuePhrases ?? [], false)
    .map((cue) => ({ cue, re: phraseRegExp(cue, false)! }))
    .filter((c) => c.re !== null);
  if (cues.length === 0) return [];
  const items: ActionItem[] = [];
  for (const line of orderLines(lines)) {
    const text = normalizeQuotes(line.text ?? "");
    let best: { cue: string; at: number; length: number } | null = null;
    for (const { cue, re } of cues) {
      const match = re.exec(text);
      if (!match) continue;
      if (!best || match.index < best.at || (match.index === best.at && match[0].length > best.length)) {
        best = { cue, at: match.index, length: match[0].length };
      }
    }
    if (!best) continue;
    items.push({
      meeting_id: line.meeting_id,
      utterance_id: line.utterance_id,
      owner_id: line.speaker_id,
      owner_name: line.speaker_name,
      spoken_at: line.spoken_at,
      text: line.text,
      cue: best.cue,
      due_hint: dueHint(text),
    });
  }
  return items;
}
