/**
 * Sentiment with the `sentiment` library (AFINN-165 word scores, with its negation handling: "not good"
 * counts against). A line's sentiment is its AFINN score: the sum of its words' scores, -5..+5 each.
 */
import Sentiment from "sentiment";
import { isExternal, isInternal, normalizeQuotes, round4, type Line } from "./types.js";

const analyzer = new Sentiment();

export interface SentimentResult {
  score: number;
  /** score ÷ number of tokens, 4 decimals. */
  comparative: number;
  positive: string[];
  negative: string[];
}

export function sentimentOf(text: string): SentimentResult {
  const result = analyzer.analyze(normalizeQuotes(text ?? ""));
  return {
    score: result.score,
    comparative: round4(result.comparative),
    positive: result.positive,
    negative: result.negative,
  };
}

export type SpeakerFilter = "all" | "internal" | "external";

/** Lines said by the chosen side ("all" keeps every line, including those of unknown affiliation). */
export function filterBySpeakers(lines: readonly Line[], speakers: SpeakerFilter): Line[] {
  if (speakers === "internal") return lines.filter((l) => isInternal(l.affiliation));
  if (speakers === "external") return lines.filter((l) => isExternal(l.affiliation));
  return [...lines];
}

const DAY_MS = 86_400_000;

/** Start of the UTC day, or of the ISO week (Monday, UTC), as YYYY-MM-DD. */
export function periodStart(at: Date, granularity: "day" | "week"): string {
  const dayStart = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  const start = granularity === "week" ? dayStart - ((new Date(dayStart).getUTCDay() + 6) % 7) * DAY_MS : dayStart;
  return new Date(start).toISOString().slice(0, 10);
}

/** Whose lines a sentiment row holds: every chosen line ("all"), or one side's when split by side. */
export type SpeakerSide = "all" | "internal" | "external" | "unknown";

/** A line's side: your team (internal), customers (external), or unknown when the source does not say. */
export function sideOf(line: Line): Exclude<SpeakerSide, "all"> {
  return isInternal(line.affiliation) ? "internal" : isExternal(line.affiliation) ? "external" : "unknown";
}

export interface SentimentPeriod {
  period_start: string;
  speaker_side: SpeakerSide;
  meetings: number;
  utterances: number;
  /** Mean AFINN score per utterance. */
  avg_sentiment: number;
  /** Share of utterances scoring above 0. */
  positive_share: number;
  /** Share of utterances scoring below 0. */
  negative_share: number;
}

export interface SentimentOptions {
  granularity: "day" | "week";
  speakers: SpeakerFilter;
  /** A row per period and side (internal, external, unknown) instead of one per period ("all"). */
  splitBySide?: boolean;
}

/**
 * Per UTC day or ISO week (and side, when split): lines added in any order, in batches (a stream of meetings);
 * `result` gives the periods.
 */
export class SentimentPeriods {
  private readonly granularity: "day" | "week";
  private readonly groups = new Map<string, { period_start: string; speaker_side: SpeakerSide; meetings: Set<string>; utterances: number; sum: number; positive: number; negative: number }>();

  constructor(private readonly options: SentimentOptions) {
    this.granularity = options.granularity === "week" ? "week" : "day";
  }

  add(lines: readonly Line[]): void {
    for (const line of filterBySpeakers(lines, this.options.speakers)) {
      const at = new Date(line.spoken_at as Date | string);
      if (Number.isNaN(at.getTime())) continue;
      const period_start = periodStart(at, this.granularity);
      const speaker_side: SpeakerSide = this.options.splitBySide ? sideOf(line) : "all";
      const key = `${period_start} ${speaker_side}`;
      let group = this.groups.get(key);
      if (!group) this.groups.set(key, (group = { period_start, speaker_side, meetings: new Set(), utterances: 0, sum: 0, positive: 0, negative: 0 }));
      const score = sentimentOf(line.text).score;
      group.meetings.add(line.meeting_id);
      group.utterances += 1;
      group.sum += score;
      if (score > 0) group.positive += 1;
      if (score < 0) group.negative += 1;
    }
  }

  /** Oldest first (then by side); periods without lines are absent. */
  result(): SentimentPeriod[] {
    return [...this.groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, g]) => ({
        period_start: g.period_start,
        speaker_side: g.speaker_side,
        meetings: g.meetings.size,
        utterances: g.utterances,
        avg_sentiment: round4(g.sum / g.utterances),
        positive_share: round4(g.positive / g.utterances),
        negative_share: round4(g.negative / g.utterances),
      }));
  }
}

/** Per UTC day or ISO week (oldest first): how positive the chosen speakers were. Periods without lines are absent. */
export function sentimentOverTime(lines: Line[], options: SentimentOptions): SentimentPeriod[] {
  const periods = new SentimentPeriods(options);
  periods.add(lines);
  return periods.result();
}
