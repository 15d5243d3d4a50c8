import { addressList, parseAddress, round2, senderOf, threadKey, type EmailRow, type Side } from "./email-addresses.js";

/**
 * Response times of e-mail threads. In a thread (its messages by time sent), a reply is a message whose sender differs
 * from the previous message's; its reply time is the time since that previous message. A reply is "from us" when its
 * sender is on our side (Side: the internal domains, else the mailbox's own domain), "from them" otherwise. Per
 * thread: the replies each way; per correspondent (an address not on our side): the messages each way and how fast we
 * answer them (our reply to a message of theirs) and they answer us (their reply to a message of ours).
 */

const MINUTE_MS = 60_000;

export interface ReplyTime {
  message_id: string;
  thread_id: string;
  /** The replying sender's address (lower-cased). */
  sender: string;
  /** The sender of the message replied to. */
  previous_sender: string;
  from_us: boolean;
  previous_from_us: boolean;
  minutes: number;
}

export interface ResponseOptions {
  /** Replies that come later than this (minutes) answer nothing any more: left out (absent: none are). */
  maxMinutes?: number;
}

/** The replies of one thread, given in its order (orderThread). */
export function repliesOf(thread: readonly EmailRow[], side: Side, options: ResponseOptions = {}): ReplyTime[] {
  const out: ReplyTime[] = [];
  for (let i = 1; i < thread.length; i += 1) {
    const previous = thread[i - 1]!;
    const message = thread[i]!;
    const sender = senderOf(message);
    const previousSender = senderOf(previous);
    if (sender === previousSender) continue;
    const minutes = (message.sent_at.getTime() - previous.sent_at.getTime()) / MINUTE_MS;
    if (options.maxMinutes !== undefined && minutes > options.maxMinutes) continue;
    out.push({
      message_id: message.message_id,
      thread_id: threadKey(message),
      sender,
      previous_sender: previousSender,
      from_us: side.isUs(sender, message.mailbox),
      previous_from_us: side.isUs(previousSender, previous.mailbox),
      minutes,
    });
  }
  return out;
}

/** The median of some numbers (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const mean = (values: readonly number[]) => (values.length ? values.reduce((s, v) => s + v, 0) / values.length : null);
const rounded = (v: number | null) => (v === null ? null : round2(v));

export interface ThreadResponse {
  thread_id: string;
  mailbox: string;
  subject: string;
  messages: number;
  /** Distinct addresses among the senders and recipients. */
  participants: number;
  first_message_at: Date;
  last_message_at: Date;
  replies_from_us: number;
  replies_from_them: number;
  avg_reply_minutes_us: number | null;
  median_reply_minutes_us: number | null;
  avg_reply_minutes_them: number | null;
  median_reply_minutes_them: number | null;
}

/** One thread's row (given in its order); null for no messages. */
export function threadResponse(thread: readonly EmailRow[], side: Side, options: ResponseOptions = {}): ThreadResponse | null {
  const first = thread[0];
  if (!first) return null;
  const replies = repliesOf(thread, side, options);
  const ours = replies.filter((r) => r.from_us).map((r) => r.minutes);
  const theirs = replies.filter((r) => !r.from_us).map((r) => r.minutes);
  const people = new Set<string>();
  for (const m of thread) for (const a of addressList([m.from_address, ...m.to_addresses, ...m.cc_addresses])) people.add(a.address);
  return {
    thread_id: threadKey(first),
    mailbox: first.mailbox,
    subject: thread.find((m) => m.subject.trim())?.subject.trim() ?? "",
    messages: thread.length,
    participants: people.size,
    first_message_at: first.sent_at,
    last_message_at: thread[thread.length - 1]!.sent_at,
    replies_from_us: ours.length,
    replies_from_them: theirs.length,
    avg_reply_minutes_us: rounded(mean(ours)),
    median_reply_minutes_us: rounded(median(ours)),
    avg_reply_minutes_them: rounded(mean(theirs)),
    median_reply_minutes_them: rounded(median(theirs)),
  };
}

/* ---- per correspondent, over every thread ------------------------------------------------------------ */

/** Values kept exactly up to this count per correspondent; beyond it, in buckets 1% wide. */
export const EXACT_MEDIAN_VALUES = 2_048;
const BUCKET = Math.log(1.01);

/**
 * Count, sum and median of non-negative numbers added one by one in bounded memory: exact up to EXACT_MEDIAN_VALUES
 * values, then from a histogram of buckets 1% wide (log scale), which gives the median within 0.5%.
 */
export class MedianSketch {
  count = 0;
  sum = 0;
  private values: number[] | null = [];
  private readonly buckets = new Map<number, number>();

  add(value: number): void {
    const v = Math.max(0, value);
    this.count += 1;
    this.sum += v;
    if (this.values) {
      this.values.push(v);
      if (this.values.length <= EXACT_MEDIAN_VALUES) return;
      for (const x of this.values) this.bucket(x);
      this.values = null;
    } else this.bucket(v);
  }

  private bucket(v: number): void {
    const i = Math.floor(Math.log1p(v) / BUCKET);
    this.buckets.set(i, (this.buckets.get(i) ?? 0) + 1);
  }

  mean(): number | null {
    return this.count ? this.sum / this.count : null;
  }

  median(): number | null {
    if (this.values) return median(this.values);
    const order = [...this.buckets.keys()].sort((a, b) => a - b);
    const middle = (this.count - 1) / 2;
    let seen = 0;
    for (const i of order) {
      seen += this.buckets.get(i)!;
      if (seen > middle) return Math.expm1((i + 0.5) * BUCKET);
    }
    return null;
  }
}

export interface CorrespondentResponse {
  /** The correspondent's address (not on our side). */
  correspondent: string;
  /** The last display name they were seen with ("" when none). */
  name: string;
  domain: string;
  /** Messages they sent. */
  messages_received: number;
  /** Messages of ours with them among the recipients (To or Cc). */
  messages_sent: number;
  threads: number;
  first_message_at: Date;
  last_message_at: Date;
  /** Our replies to a message of theirs, and how long they took. */
  our_replies: number;
  avg_our_reply_minutes: number | null;
  median_our_reply_minutes: number | null;
  /** Their replies to a message of ours. */
  their_replies: number;
  avg_their_reply_minutes: number | null;
  median_their_reply_minutes: number | null;
}

interface Sums {
  name: string;
  received: number;
  sent: number;
  threads: number;
  lastThread: string | null;
  first: number;
  last: number;
  ours: MedianSketch;
  theirs: MedianSketch;
}

/** Per correspondent over threads added one whole thread at a time (each once, in its order): a few numbers each. */
export class CorrespondentResponses {
  private readonly sums = new Map<string, Sums>();

  constructor(
    private readonly side: Side,
    private readonly options: ResponseOptions = {},
  ) {}

  private of(address: string, thread: string, at: Date): Sums {
    let s = this.sums.get(address);
    if (!s) this.sums.set(address, (s = { name: "", received: 0, sent: 0, threads: 0, lastThread: null, first: Infinity, last: -Infinity, ours: new MedianSketch(), theirs: new MedianSketch() }));
    if (s.lastThread !== thread) {
      s.threads += 1;
      s.lastThread = thread;
    }
    s.first = Math.min(s.first, at.getTime());
    s.last = Math.max(s.last, at.getTime());
    return s;
  }

  add(thread: readonly EmailRow[]): void {
    for (const m of thread) {
      const key = threadKey(m);
      const sender = parseAddress(m.from_address);
      if (sender && !this.side.isUs(sender.address, m.mailbox)) {
        const s = this.of(sender.address, key, m.sent_at);
        s.received += 1;
        if (sender.name) s.name = sender.name;
      } else if (sender) {
        for (const r of addressList([...m.to_addresses, ...m.cc_addresses])) {
          if (this.side.isUs(r.address, m.mailbox)) continue;
          const s = this.of(r.address, key, m.sent_at);
          s.sent += 1;
          if (r.name && !s.name) s.name = r.name;
        }
      }
    }
    for (const reply of repliesOf(thread, this.side, this.options)) {
      if (reply.from_us && !reply.previous_from_us) this.sums.get(reply.previous_sender)?.ours.add(reply.minutes);
      if (!reply.from_us && reply.previous_from_us) this.sums.get(reply.sender)?.theirs.add(reply.minutes);
    }
  }

  /** By address. */
  result(): CorrespondentResponse[] {
    return [...this.sums.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([correspondent, s]) => ({
        correspondent,
        name: s.name,
        domain: correspondent.slice(correspondent.lastIndexOf("@") + 1),
        messages_received: s.received,
        messages_sent: s.sent,
        threads: s.threads,
        first_message_at: new Date(s.first),
        last_message_at: new Date(s.last),
        our_replies: s.ours.count,
        avg_our_reply_minutes: rounded(s.ours.mean()),
        median_our_reply_minutes: rounded(s.ours.median()),
        their_replies: s.theirs.count,
        avg_their_reply_minutes: rounded(s.theirs.mean()),
        median_their_reply_minutes: rounded(s.theirs.median()),
      }));
  }
}
