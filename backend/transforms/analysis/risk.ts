/**
 * Deal risk per account: six signals, each scaled to 0..1 and weighted into a 0–100 score.
 *
 * | signal                   | weight | full at                                                        |
 * |--------------------------|--------|----------------------------------------------------------------|
 * | sentiment falling        | 20     | per-meeting average sentiment dropping 0.5 points a week        |
 * | negative sentiment       | 10     | average line sentiment of −2 (only a net-negative average counts) |
 * | competitor mentions      | 20     | one mention per meeting on average                              |
 * | risk keyword mentions    | 25     | one mention per meeting on average                              |
 * | open action items        | 10     | 5 action items with no follow-up meeting                        |
 * | customer barely talking  | 15     | external talk share of 0 (no points at 40% or more)            |
 *
 * - sentiment_trend: least-squares slope of the meetings' average line sentiment (AFINN score) against their
 *   start, in points per week; 0 with fewer than two meetings with lines.
 * - A mention counts once per line and keyword (whole words, case-insensitive).
 * - An action item (cue phrases, DEFAULT_ACTION_CUES unless given) is open when no later meeting of the same
 *   account starts within `followUpDays` (default 14) of the meeting where it was said.
 * - external_talk_ratio: external speakers' talk time over all talk time; the talk signal is only scored when
 *   some line of the account has a known affiliation.
 * - risk_level: "high" at or above the threshold, "medium" at or above half of it, else "low".
 * - reasons: the signals worth at least one point, heaviest first, in words.
 */
import { actionItems, DEFAULT_ACTION_CUES } from "./action-items.js";
import { countMentions } from "./keywords.js";
import { sentimentOf } from "./sentiment.js";
import { compareText, isExternal, isInternal, round4, timeOf, type Line, type MeetingMeta } from "./types.js";

export interface RiskOptions {
  competitorKeywords: string[];
  riskKeywords: string[];
  /** 0..100: a score at or above is "high", at or above half of it "medium". */
  threshold: number;
  /** Cue phrases of action items (default DEFAULT_ACTION_CUES). */
  actionCues?: string[];
  /** An action item is followed up by a meeting of the same account within this many days (default 14). */
  followUpDays?: number;
}

export interface DealRisk {
  account: string;
  meetings: number;
  last_meeting_at: Date;
  sentiment_trend: number;
  avg_sentiment: number;
  competitor_mentions: number;
  risk_mentions: number;
  open_action_items: number;
  external_talk_ratio: number;
  risk_score: number;
  risk_level: "low" | "medium" | "high";
  reasons: string[];
}

export const DEFAULT_RISK_KEYWORDS: readonly string[] = [
  "cancel",
  "cancellation",
  "churn",
  "terminate",
  "downgrade",
  "budget cut",
  "budget cuts",
  "cost cutting",
  "too expensive",
  "price increase",
  "switch",
  "switching",
  "renewal at risk",
  "not renew",
  "not renewing",
  "won't renew",
  "whether to renew",
  "under review",
  "escalate",
];

/** Competitors are the user's own list; none by default. */
export const DEFAULT_COMPETITORS: readonly string[] = [];

export const RISK_WEIGHTS = {
  sentimentFalling: 20,
  negativeSentiment: 10,
  competitorMentions: 20,
  riskMentions: 25,
  openActionItems: 10,
  lowExternalTalk: 15,
} as const;

/** Scale points of the signals (see the table above). */
const FULL_TREND_DROP_PER_WEEK = 0.5;
const FULL_NEGATIVE_AVERAGE = 2;
const FULL_OPEN_ITEMS = 5;
const HEALTHY_EXTERNAL_SHARE = 0.4;
const DEFAULT_FOLLOW_UP_DAYS = 14;

const WEEK_MS = 7 * 86_400_000;
const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Least-squares slope of y against x; 0 when x does not vary. */
export function slope(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const my = points.reduce((s, p) => s + p.y, 0) / points.length;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export function riskLevel(score: number, threshold: number): DealRisk["risk_level"] {
  const t = Number.isFinite(threshold) ? Math.min(100, Math.max(0, threshold)) : 70;
  if (score >= t) return "high";
  if (score >= t / 2) return "medium";
  return "low";
}

interface MeetingSummary {
  meeting_id: string;
  started_at_ms: number;
  lines: number;
  sentiment: number;
  actionItems: number;
}
interface AccountSums {
  meetings: MeetingSummary[];
  lines: number;
  sentiment: number;
  competitorMentions: number;
  riskMentions: number;
  externalMs: number;
  totalMs: number;
  knownAffiliation: boolean;
}

/**
 * Deal risk built one meeting at a time (a stream of meetings, in any order): each meeting is reduced to its sums as
 * it is added, so only a few numbers per meeting are held. `result` gives the accounts by risk, highest first (then
 * by name). Meetings without an account are left out; a meeting added twice counts once (the first).
 */
export class DealRiskBuilder {
  private readonly followUpMs: number;
  private readonly cues: string[];
  private readonly accounts = new Map<string, AccountSums>();
  private readonly seen = new Set<string>();

  constructor(private readonly options: RiskOptions) {
    this.followUpMs = (Number.isFinite(options.followUpDays) ? Math.max(0, options.followUpDays!) : DEFAULT_FOLLOW_UP_DAYS) * 86_400_000;
    this.cues = options.actionCues ?? [...DEFAULT_ACTION_CUES];
  }

  add(meeting: MeetingMeta, lines: readonly Line[]): void {
    const account = meeting.account?.trim();
    if (!account || this.seen.has(meeting.meeting_id)) return;
    this.seen.add(meeting.meeting_id);
    let sums = this.accounts.get(account);
    if (!sums) {
      sums = { meetings: [], lines: 0, sentiment: 0, competitorMentions: 0, riskMentions: 0, externalMs: 0, totalMs: 0, knownAffiliation: false };
      this.accounts.set(account, sums);
    }
    let sentiment = 0;
    for (const l of lines) {
      sentiment += sentimentOf(l.text).score;
      const ms = Math.max(0, l.end_ms - l.start_ms);
      sums.totalMs += ms;
      if (isExternal(l.affiliation)) sums.externalMs += ms;
      if (isExternal(l.affiliation) || isInternal(l.affiliation)) sums.knownAffiliation = true;
    }
    sums.lines += lines.length;
    sums.sentiment += sentiment;
    sums.competitorMentions += countMentions(lines, this.options.competitorKeywords ?? []);
    sums.riskMentions += countMentions(lines, this.options.riskKeywords ?? []);
    sums.meetings.push({
      meeting_id: meeting.meeting_id,
      started_at_ms: timeOf(meeting.started_at),
      lines: lines.length,
      sentiment,
      actionItems: actionItems([...lines], { cuePhrases: this.cues }).length,
    });
  }

  result(): DealRisk[] {
    const out: DealRisk[] = [];
    for (const [account, sums] of this.accounts) {
      const accountMeetings = [...sums.meetings].sort((a, b) => a.started_at_ms - b.started_at_ms || compareText(a.meeting_id, b.meeting_id));
      const avgSentiment = sums.lines ? sums.sentiment / sums.lines : 0;
      // The trend of the meetings' average line sentiment.
      const first = accountMeetings[0]!.started_at_ms;
      const perMeeting = accountMeetings.flatMap((m) => (m.lines === 0 ? [] : [{ x: (m.started_at_ms - first) / WEEK_MS, y: m.sentiment / m.lines }]));
      const trend = slope(perMeeting);
      // Action items with no follow-up meeting of the account soon after.
      const starts = accountMeetings.map((m) => m.started_at_ms);
      let openItems = 0;
      for (const m of accountMeetings) {
        if (m.actionItems === 0) continue;
        const at = m.started_at_ms;
        if (!starts.some((t) => t > at && t - at <= this.followUpMs)) openItems += m.actionItems;
      }
      const externalRatio = sums.totalMs > 0 ? sums.externalMs / sums.totalMs : 0;
      const { competitorMentions, riskMentions } = sums;

      const n = accountMeetings.length;
      const signals: { points: number; reason: string }[] = [
        { points: RISK_WEIGHTS.sentimentFalling * clamp01(-trend / FULL_TREND_DROP_PER_WEEK), reason: "sentiment falling" },
        { points: RISK_WEIGHTS.negativeSentiment * clamp01(-avgSentiment / FULL_NEGATIVE_AVERAGE), reason: "negative average sentiment" },
        { points: RISK_WEIGHTS.competitorMentions * clamp01(competitorMentions / n), reason: plural(competitorMentions, "competitor mention") },
        { points: RISK_WEIGHTS.riskMentions * clamp01(riskMentions / n), reason: plural(riskMentions, "risk keyword mention") },
        { points: RISK_WEIGHTS.openActionItems * clamp01(openItems / FULL_OPEN_ITEMS), reason: plural(openItems, "open action item") },
        {
          points:
            sums.knownAffiliation && sums.totalMs > 0 ? RISK_WEIGHTS.lowExternalTalk * clamp01((HEALTHY_EXTERNAL_SHARE - externalRatio) / HEALTHY_EXTERNAL_SHARE) : 0,
          reason: `customer talks ${Math.round(externalRatio * 100)}% of the time`,
        },
      ];
      const score = round4(Math.min(100, signals.reduce((s, sig) => s + sig.points, 0)));
      const reasons = signals
        .map((sig, order) => ({ ...sig, order }))
        .filter((sig) => sig.points >= 1)
        .sort((a, b) => b.points - a.points || a.order - b.order)
        .map((sig) => sig.reason);

      out.push({
        account,
        meetings: n,
        last_meeting_at: new Date(accountMeetings[n - 1]!.started_at_ms),
        sentiment_trend: round4(trend),
        avg_sentiment: round4(avgSentiment),
        competitor_mentions: competitorMentions,
        risk_mentions: riskMentions,
        open_action_items: openItems,
        external_talk_ratio: round4(externalRatio),
        risk_score: score,
        risk_level: riskLevel(score, this.options.threshold),
        reasons,
      });
    }
    return out.sort((a, b) => b.risk_score - a.risk_score || compareText(a.account, b.account));
  }
}

/** Accounts by risk, highest first (then by name), over meetings and lines held in memory. Meetings without an account are left out. */
export function dealRisk(meetings: MeetingMeta[], lines: Line[], options: RiskOptions): DealRisk[] {
  const linesByMeeting = new Map<string, Line[]>();
  for (const line of lines) {
    let list = linesByMeeting.get(line.meeting_id);
    if (!list) linesByMeeting.set(line.meeting_id, (list = []));
    list.push(line);
  }
  const builder = new DealRiskBuilder(options);
  for (const meeting of meetings) builder.add(meeting, linesByMeeting.get(meeting.meeting_id) ?? []);
  return builder.result();
}
