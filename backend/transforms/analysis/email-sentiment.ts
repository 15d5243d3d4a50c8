import { senderOf, threadKey, type EmailRow, type Side } from "./email-addresses.js";
import { slope } from "./risk.js";
import { periodStart, sentimentOf } from "./sentiment.js";
import { round4 } from "./types.js";

/**
 * Sentiment of e-mail: each message's own text (its body without the quoted messages it replies to) scored with the
 * AFINN-165 lexicon (sentimentOf: the sum of its words' scores), averaged per day or week and per thread, with the
 * thread's trend (the least-squares slope of its messages' scores against their place in the thread).
 */

export type SenderFilter = "all" | "internal" | "external";

/** A line that starts a quoted message: "On Mon, 5 Jan 2026 at 10:00, Ann <ann@x.com> wrote:" and its like. */
const QUOTE_HEADER = /^(On .{0,300}wrote:|-{2,}\s*(Original|Forwarded) Message\s*-{2,}|_{10,}|From: [^\n]*[@<][^\n]*)\s*$/i;

/**
 * A message's own words: its body up to the first quoted message (a "> " line, "On … wrote:", an "Original Message"
 * rule, an Outlook "From: … <address>" block), so a reply is not scored for what it quotes. The snippet when the body is empty.
 */
export function ownText(message: Pick<EmailRow, "body_text" | "snippet">): string {
  const lines = message.body_text.replace(/\r\n?/g, "\n").split("\n");
  const own: string[] = [];
  for (const line of lines) {
    const t = line.trim();
    if (t.startsWith(">") || QUOTE_HEADER.test(t)) break;
    own.push(line);
  }
  const text = own.join("\n").trim();
  return text || message.snippet.trim();
}

/** A message's AFINN score (of its own words). */
export const messageSentiment = (message: Pick<EmailRow, "body_text" | "snippet">) => sentimentOf(ownText(message)).score;

/** Whether the message's sender is of the chosen side. */
function counts(message: EmailRow, senders: SenderFilter, side: Side): boolean {
  if (senders === "all") return true;
  const us = side.isUs(senderOf(message), message.mailbox);
  return senders === "internal" ? us : !us;
}

export interface EmailSentimentPeriod {
  period_start: string;
  messages: number;
  threads: number;
  /** Mean AFINN score per message. */
  avg_sentiment: number;
  /** Share of messages scoring above 0, and below. */
  positive_share: number;
  negative_share: number;
}

export interface ThreadSentiment {
  thread_id: string;
  mailbox: string;
  subject: string;
  messages: number;
  first_message_at: Date;
  last_message_at: Date;
  avg_sentiment: number;
  first_sentiment: number;
  last_sentiment: number;
  /** Score change per message along the thread (least-squares slope); 0 for one message. */
  sentiment_trend: number;
  /** The trend in words: Improving, Worsening, Steady, or One message. */
  trend: string;
}

/** A slope this steep (score points per message) or steeper is a trend; flatter is steady. */
export const TREND_STEP = 0.5;

export function trendWord(messages: number, trend: number): string {
  if (messages < 2) return "One message";
  if (trend >= TREND_STEP) return "Improving";
  if (trend <= -TREND_STEP) return "Worsening";
  return "Steady";
}

/**
 * Per UTC day or ISO week and per thread, over threads added one whole thread at a time (each once, in its order):
 * the periods keep a few sums each; a thread's row is returned by `add` at once, so no thread is held.
 */
export class EmailSentiment {
  private readonly periods = new Map<string, { messages: number; threads: number; lastThread: string | null; sum: number; positive: number; negative: number }>();

  constructor(private readonly options: { granularity: "day" | "week"; senders: SenderFilter; side: Side }) {}

  /** Adds a thread's messages to their periods; its own row (null when none of its messages counts). */
  add(thread: readonly EmailRow[]): ThreadSentiment | null {
    const scored = thread.filter((m) => counts(m, this.options.senders, this.options.side)).map((m) => ({ m, score: messageSentiment(m) }));
    for (const { m, score } of scored) {
      if (Number.isNaN(m.sent_at.getTime())) continue;
      const key = periodStart(m.sent_at, this.options.granularity);
      let p = this.periods.get(key);
      if (!p) this.periods.set(key, (p = { messages: 0, threads: 0, lastThread: null, sum: 0, positive: 0, negative: 0 }));
      const id = threadKey(m);
      if (p.lastThread !== id) {
        p.threads += 1;
        p.lastThread = id;
      }
      p.messages += 1;
      p.sum += score;
      if (score > 0) p.positive += 1;
      if (score < 0) p.negative += 1;
    }
    const first = scored[0];
    if (!first) return null;
    const last = scored[scored.length - 1]!;
    const trend = slope(scored.map((s, i) => ({ x: i, y: s.score })));
    return {
      thread_id: threadKey(first.m),
      mailbox: first.m.mailbox,
      subject: thread.find((m) => m.subject.trim())?.subject.trim() ?? "",
      messages: scored.length,
      first_message_at: first.m.sent_at,
      last_message_at: last.m.sent_at,
      avg_sentiment: round4(scored.reduce((s, x) => s + x.score, 0) / scored.length),
      first_sentiment: first.score,
      last_sentiment: last.score,
      sentiment_trend: round4(trend),
      trend: trendWord(scored.length, trend),
    };
  }

  /** Oldest first; periods without messages are absent. */
  result(): EmailSentimentPeriod[] {
    return [...this.periods.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([period_start, p]) => ({
        period_start,
        messages: p.messages,
        threads: p.threads,
        avg_sentiment: round4(p.sum / p.messages),
        positive_share: round4(p.positive / p.messages),
        negative_share: round4(p.negative / p.messages),
      }));
  }
}
