/**
 * Keyword mentions: whole-word or whole-phrase matches ("cancel" does not match "cancellation"; spaces in a
 * phrase match any whitespace). One mention per line and keyword, with the line's AFINN sentiment score.
 */
import { sentimentOf } from "./sentiment.js";
import { normalizeQuotes, orderLines, phraseRegExp, uniquePhrases, type Line } from "./types.js";

export interface KeywordMention {
  meeting_id: string;
  utterance_id: string;
  /** The keyword as given in the options. */
  keyword: string;
  speaker_id: string;
  spoken_at: Date;
  sentiment: number;
  text: string;
}

/** Mentions in spoken order; per line, in the order of the keywords. Blank and duplicate keywords are ignored. */
export function keywordMentions(lines: Line[], options: { keywords: string[]; caseSensitive: boolean }): KeywordMention[] {
  const caseSensitive = options.caseSensitive === true;
  const keywords = uniquePhrases(options.keywords ?? [], caseSensitive).map((keyword) => ({
    keyword,
    re: phraseRegExp(keyword, caseSensitive)!,
  }));
  if (keywords.length === 0) return [];
  const out: KeywordMention[] = [];
  for (const line of orderLines(lines)) {
    const text = normalizeQuotes(line.text ?? "");
    let sentiment: number | null = null;
    for (const { keyword, re } of keywords) {
      if (!re.test(text)) continue;
      sentiment ??= sentimentOf(text).score;
      out.push({
        meeting_id: line.meeting_id,
        utterance_id: line.utterance_id,
        keyword,
        speaker_id: line.speaker_id,
        spoken_at: line.spoken_at,
        sentiment,
        text: line.text,
      });
    }
  }
  return out;
}

/** Mentions of any of the keywords per line, counted once per (line, keyword). */
export function countMentions(lines: readonly Line[], keywords: readonly string[]): number {
  const res = uniquePhrases(keywords, false).map((k) => phraseRegExp(k, false)!);
  let count = 0;
  for (const line of lines) {
    const text = normalizeQuotes(line.text ?? "");
    for (const re of res) if (re.test(text)) count += 1;
  }
  return count;
}
