/**
 * Shapes shared by the analysis functions (agreed with the transform runner; see the interface note in
 * docs) and small helpers: rounding, stable ordering of lines, whole-word phrase matching.
 */

/** One transcript line as the sync engine stores it (warehouse table `transcript_utterances`). */
export interface Line {
  meeting_id: string;
  utterance_id: string;
  speaker_id: string;
  speaker_name: string;
  /** "Internal" | "External" for the data generator; null when unknown. */
  affiliation: string | null;
  spoken_at: Date;
  start_ms: number;
  end_ms: number;
  text: string;
}

/** One meeting (warehouse table `meetings`). */
export interface MeetingMeta {
  meeting_id: string;
  title: string;
  started_at: Date;
  account: string | null;
}

/** Ratios and scores are reported with 4 decimals. */
export function round4(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const rounded = Math.round(value * 10_000) / 10_000;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** Milliseconds of a timestamp; a Date or anything Date can parse (the warehouse may hand back strings), NaN → 0. */
export function timeOf(value: Date | string | number | null | undefined): number {
  const ms = value instanceof Date ? value.getTime() : value == null ? NaN : new Date(value).getTime();
  return Number.isFinite(ms) ? ms : 0;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export { compareText };

/**
 * Lines in a stable order whatever order the warehouse returned them in:
 * by spoken_at, then meeting, then start within the meeting, then utterance id.
 */
export function orderLines(lines: readonly Line[]): Line[] {
  return [...lines].sort(
    (a, b) =>
      timeOf(a.spoken_at) - timeOf(b.spoken_at) ||
      compareText(a.meeting_id, b.meeting_id) ||
      a.start_ms - b.start_ms ||
      compareText(a.utterance_id, b.utterance_id),
  );
}

/** Typographic apostrophes and quotes become ASCII ones, so "I’ll" matches "I'll". */
export function normalizeQuotes(text: string): string {
  return text.replace(/[\u2018\u2019\u02bc\u2032]/g, "'");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A whole-word (or whole-phrase) matcher: the phrase's own characters are literal, any run of spaces in it
 * matches any run of whitespace, and it must not be glued to a letter, digit or underscore on either side
 * ("cancel" does not match "cancellation", "renewal at risk" matches "renewal  at risk").
 * Returns null for a blank phrase.
 */
export function phraseRegExp(phrase: string, caseSensitive: boolean, global = false): RegExp | null {
  const words = normalizeQuotes(phrase).trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const body = words.map(escapeRegExp).join("\\s+");
  const flags = `u${caseSensitive ? "" : "i"}${global ? "g" : ""}`;
  return new RegExp(`(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])`, flags);
}

/** Phrases trimmed, blanks dropped, duplicates (by the matching rule) dropped, first spelling kept. */
export function uniquePhrases(phrases: readonly string[], caseSensitive: boolean): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of phrases) {
    const phrase = normalizeQuotes(raw).trim().replace(/\s+/g, " ");
    if (!phrase) continue;
    const key = caseSensitive ? phrase : phrase.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(phrase);
  }
  return out;
}

/** Case-insensitive "Internal"/"External" test; null or other values are neither. */
export function isInternal(affiliation: string | null): boolean {
  return affiliation?.trim().toLowerCase() === "internal";
}
export function isExternal(affiliation: string | null): boolean {
  return affiliation?.trim().toLowerCase() === "external";
}
