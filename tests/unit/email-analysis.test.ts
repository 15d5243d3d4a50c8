import { describe, expect, it } from "vitest";
import { addressList, domainOf, emailRowOf, orderThread, parseAddress, parseAddresses, Side, threadKey, type EmailRow } from "../../backend/transforms/analysis/email-addresses.js";
import { Correspondence, directionOf } from "../../backend/transforms/analysis/email-network.js";
import { CorrespondentResponses, EXACT_MEDIAN_VALUES, median, MedianSketch, repliesOf, threadResponse } from "../../backend/transforms/analysis/email-response.js";
import { EmailSentiment, messageSentiment, ownText, trendWord } from "../../backend/transforms/analysis/email-sentiment.js";

/**
 * The e-mail templates' analysis functions on a small mailbox whose numbers are worked out by hand:
 * sam@acme.example's mailbox; thread t1 with Ann (Globex, Bob of Initech copied once), thread t2 with Carl (Globex),
 * and one message of Dave (Initech) without a thread. AFINN scores of the bodies: 6, 7 (its own words only), -2, -2,
 * -1, 0, -5, 0, and 3 (an empty body: its snippet).
 */

const SAM = "Sam <sam@acme.example>";
const ANN = "Ann Buyer <ann@globex.example>";
const CARL = '"Carl" <carl@globex.example>';
const at = (iso: string) => new Date(`2026-03-${iso}Z`);
let n = 0;
function msg(fields: Partial<EmailRow> & { from_address: string; sent_at: Date }): EmailRow {
  n += 1;
  return { message_id: `m${n}`, thread_id: null, mailbox: "sam@acme.example", to_addresses: [], cc_addresses: [], subject: "", snippet: "", body_text: "", ...fields };
}

const m1 = msg({ thread_id: "t1", from_address: ANN, to_addresses: [SAM], subject: "Demo", sent_at: at("02T09:00:00"), body_text: "Great news, we love the demo!" });
const m2 = msg({
  thread_id: "t1",
  from_address: SAM,
  to_addresses: [ANN],
  cc_addresses: ["bob@initech.example"],
  subject: "Re: Demo",
  sent_at: at("02T10:30:00"),
  body_text: "Thanks Ann, glad you liked it.\n\nOn Mon, 2 Mar 2026 at 09:00, Ann Buyer <ann@globex.example> wrote:\n> Great news, we love the demo!",
});
const m3 = msg({ thread_id: "t1", from_address: ANN, to_addresses: [SAM], sent_at: at("02T12:30:00"), body_text: "The price is a problem." });
const m4 = msg({ thread_id: "t1", from_address: ANN, to_addresses: [SAM], sent_at: at("02T13:00:00"), body_text: "Honestly we are disappointed." });
const m5 = msg({ thread_id: "t1", from_address: SAM, to_addresses: [ANN], sent_at: at("03T13:00:00"), body_text: "Sorry to hear that. We can fix it." });
const m6 = msg({ thread_id: "t2", from_address: SAM, to_addresses: [CARL], subject: "Invoice", sent_at: at("04T08:00:00"), body_text: "Hello Carl, quick question about the invoice." });
const m7 = msg({ thread_id: "t2", from_address: CARL, to_addresses: [SAM], sent_at: at("04T08:30:00"), body_text: "The invoice is wrong, this is bad." });
const m8 = msg({ thread_id: "t2", from_address: SAM, to_addresses: [CARL], sent_at: at("04T09:00:00"), body_text: "Apologies, corrected invoice attached." });
const m9 = msg({ from_address: "dave@initech.example", to_addresses: ["sam@acme.example"], subject: "Hi", sent_at: at("10T10:00:00"), snippet: "Happy to connect" });
const T1 = [m1, m2, m3, m4, m5];
const T2 = [m6, m7, m8];
const THREADS = [T1, T2, [m9]];
const side = new Side();

describe("addresses", () => {
  it("parses the Name <address> form, quoted names with commas, bare addresses and groups; lower-cases addresses and domains", () => {
    expect(parseAddress('"Globex, Buyer 0" <Customer0@Globex.Example>')).toEqual({ address: "customer0@globex.example", name: "Globex, Buyer 0", domain: "globex.example" });
    expect(parseAddresses('"Buyer, Globex" <a@x.example>, ops@x.example, Team: b@y.example, c@y.example;').map((a) => a.address)).toEqual(["a@x.example", "ops@x.example", "b@y.example", "c@y.example"]);
    expect(parseAddress("<<a@b.example>>")?.address).toBe("a@b.example");
  });

  it("gives no address for text that holds none", () => {
    for (const odd of ["", "   ", "undisclosed-recipients:;", "Just A Name", '"x" <>', null, undefined]) expect(parseAddress(odd as string)).toBeNull();
    expect(domainOf("no-at-sign")).toBe("");
    expect(domainOf("a@b@Example.COM")).toBe("example.com");
  });

  it("lists distinct addresses of several header values, first spelling kept", () => {
    expect(addressList(["Ann <ANN@x.example>, bob@x.example", "ann@x.example", "nobody"]).map((a) => [a.address, a.name])).toEqual([
      ["ann@x.example", "Ann"],
      ["bob@x.example", ""],
    ]);
  });

  it("tells our side: the mailbox's domain by default, else the internal domains and their subdomains", () => {
    expect(side.isUs("lee@acme.example", "sam@acme.example")).toBe(true);
    expect(side.isUs("ann@globex.example", "sam@acme.example")).toBe(false);
    expect(side.isUs("", "sam@acme.example")).toBe(false);
    const domains = new Side([" @Acme.com ", "acme.io"]);
    expect(domains.isUs("x@mail.acme.com", "sam@other.example")).toBe(true);
    expect(domains.isUs("x@acme.io", "sam@other.example")).toBe(true);
    expect(domains.isUs("x@notacme.com", "sam@other.example")).toBe(false);
    expect(domains.isUs("sam@other.example", "sam@other.example")).toBe(true);
  });

  it("reads a scanned row: JSON text or arrays of recipients, a blank thread as none, a string time", () => {
    const row = emailRowOf({ message_id: "x", thread_id: " ", mailbox: "m@a.example", from_address: "a@b.example", to_addresses: '["c@d.example", "e@f.example"]', cc_addresses: null, sent_at: "2026-03-02T09:00:00Z" });
    expect(row).toMatchObject({ thread_id: null, to_addresses: ["c@d.example", "e@f.example"], cc_addresses: [], subject: "", body_text: "" });
    expect(row.sent_at.toISOString()).toBe("2026-03-02T09:00:00.000Z");
    expect(threadKey(row)).toBe("x");
    expect(emailRowOf({ to_addresses: "Ann <a@b.example>" }).to_addresses).toEqual(["Ann <a@b.example>"]);
    expect(orderThread([m3, m1, m2]).map((m) => m.message_id)).toEqual(["m1", "m2", "m3"]);
  });
});

describe("response times", () => {
  it("finds the replies: a different sender than the previous message's, timed from it", () => {
    expect(repliesOf([], side)).toEqual([]);
    expect(repliesOf([m1], side)).toEqual([]);
    expect(repliesOf(T1, side).map((r) => [r.message_id, r.from_us, r.previous_from_us, r.minutes])).toEqual([
      ["m2", true, false, 90],
      ["m3", false, true, 120],
      ["m5", true, false, 1440],
    ]);
    // Longer than the longest reply: no reply.
    expect(repliesOf(T1, side, { maxMinutes: 600 }).map((r) => r.message_id)).toEqual(["m2", "m3"]);
  });

  it("sums up a thread: messages, participants, replies each way with their average and median minutes", () => {
    expect(threadResponse([], side)).toBeNull();
    expect(threadResponse(T1, side)).toEqual({
      thread_id: "t1",
      mailbox: "sam@acme.example",
      subject: "Demo",
      messages: 5,
      participants: 3,
      first_message_at: at("02T09:00:00"),
      last_message_at: at("03T13:00:00"),
      replies_from_us: 2,
      replies_from_them: 1,
      avg_reply_minutes_us: 765,
      median_reply_minutes_us: 765,
      avg_reply_minutes_them: 120,
      median_reply_minutes_them: 120,
    });
    // A message without a thread is a thread of its own, with no replies.
    expect(threadResponse([m9], side)).toMatchObject({ thread_id: "m9", messages: 1, participants: 2, replies_from_us: 0, avg_reply_minutes_us: null, median_reply_minutes_them: null });
  });

  it("sums up each correspondent over the threads", () => {
    const c = new CorrespondentResponses(side);
    expect(c.result()).toEqual([]);
    for (const t of THREADS) c.add(t);
    const rows = c.result();
    expect(rows.map((r) => r.correspondent)).toEqual(["ann@globex.example", "bob@initech.example", "carl@globex.example", "dave@initech.example"]);
    expect(rows[0]).toEqual({
      correspondent: "ann@globex.example",
      name: "Ann Buyer",
      domain: "globex.example",
      messages_received: 3,
      messages_sent: 2,
      threads: 1,
      first_message_at: at("02T09:00:00"),
      last_message_at: at("03T13:00:00"),
      our_replies: 2,
      avg_our_reply_minutes: 765,
      median_our_reply_minutes: 765,
      their_replies: 1,
      avg_their_reply_minutes: 120,
      median_their_reply_minutes: 120,
    });
    expect(rows[1]).toMatchObject({ name: "", messages_received: 0, messages_sent: 1, threads: 1, our_replies: 0, avg_our_reply_minutes: null, first_message_at: at("02T10:30:00") });
    expect(rows[2]).toMatchObject({ name: "Carl", messages_received: 1, messages_sent: 2, our_replies: 1, median_our_reply_minutes: 30, their_replies: 1, avg_their_reply_minutes: 30 });
    expect(rows[3]).toMatchObject({ messages_received: 1, messages_sent: 0, threads: 1, our_replies: 0, their_replies: 0 });
  });

  it("a median: exact for few values, within 0.5% from the buckets beyond", () => {
    expect(median([])).toBeNull();
    expect(median([5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    const sketch = new MedianSketch();
    expect(sketch.median()).toBeNull();
    const values = Array.from({ length: EXACT_MEDIAN_VALUES * 3 + 1 }, (_, i) => (i * 7919) % 10_000);
    for (const v of values) sketch.add(v);
    const exact = median(values)!;
    expect(sketch.count).toBe(values.length);
    expect(sketch.mean()).toBeCloseTo(values.reduce((s, v) => s + v, 0) / values.length, 6);
    expect(Math.abs(sketch.median()! - exact) / exact).toBeLessThan(0.005);
  });
});

describe("sentiment", () => {
  it("scores a message's own words, not what it quotes; an empty body by its snippet", () => {
    expect(ownText(m2)).toBe("Thanks Ann, glad you liked it.");
    expect(ownText({ body_text: "Fine.\r\n-----Original Message-----\r\nFrom: x\r\nawful", snippet: "" })).toBe("Fine.");
    expect(ownText({ body_text: "Ok\nFrom: Ann <ann@globex.example>\nSent: Monday", snippet: "" })).toBe("Ok");
    expect(ownText({ body_text: "From: our side, all good", snippet: "" })).toBe("From: our side, all good");
    expect(ownText({ body_text: "", snippet: "" })).toBe("");
    expect(THREADS.flat().map(messageSentiment)).toEqual([6, 7, -2, -2, -1, 0, -5, 0, 3]);
  });

  it("per week: messages, threads, average and shares; per thread: average, first, last and trend", () => {
    const s = new EmailSentiment({ granularity: "week", senders: "all", side });
    expect(s.add([])).toBeNull();
    expect(s.add(T1)).toEqual({
      thread_id: "t1",
      mailbox: "sam@acme.example",
      subject: "Demo",
      messages: 5,
      first_message_at: at("02T09:00:00"),
      last_message_at: at("03T13:00:00"),
      avg_sentiment: 1.6,
      first_sentiment: 6,
      last_sentiment: -1,
      sentiment_trend: -2.3,
      trend: "Worsening",
    });
    expect(s.add(T2)).toMatchObject({ messages: 3, avg_sentiment: -1.6667, sentiment_trend: 0, trend: "Steady" });
    expect(s.add([m9])).toMatchObject({ thread_id: "m9", messages: 1, avg_sentiment: 3, sentiment_trend: 0, trend: "One message" });
    expect(s.result()).toEqual([
      { period_start: "2026-03-02", messages: 8, threads: 2, avg_sentiment: 0.375, positive_share: 0.25, negative_share: 0.5 },
      { period_start: "2026-03-09", messages: 1, threads: 1, avg_sentiment: 3, positive_share: 1, negative_share: 0 },
    ]);
  });

  it("per day, and only our side's messages", () => {
    const days = new EmailSentiment({ granularity: "day", senders: "all", side });
    for (const t of THREADS) days.add(t);
    expect(days.result().map((p) => [p.period_start, p.messages, p.threads, p.avg_sentiment])).toEqual([
      ["2026-03-02", 4, 1, 2.25],
      ["2026-03-03", 1, 1, -1],
      ["2026-03-04", 3, 1, -1.6667],
      ["2026-03-10", 1, 1, 3],
    ]);
    const ours = new EmailSentiment({ granularity: "week", senders: "internal", side });
    expect(ours.add(T1)).toMatchObject({ messages: 2, avg_sentiment: 3, first_sentiment: 7, last_sentiment: -1, sentiment_trend: -8, trend: "Worsening" });
    ours.add(T2);
    expect(ours.add([m9])).toBeNull();
    expect(ours.result()).toEqual([{ period_start: "2026-03-02", messages: 4, threads: 2, avg_sentiment: 1.5, positive_share: 0.25, negative_share: 0.25 }]);
    const theirs = new EmailSentiment({ granularity: "week", senders: "external", side });
    expect(theirs.add(T1)).toMatchObject({ messages: 3, first_sentiment: 6, last_sentiment: -2 });
    expect(trendWord(2, 0.5)).toBe("Improving");
    expect(trendWord(2, 0.49)).toBe("Steady");
  });
});

describe("who writes to whom", () => {
  it("counts pairs with their direction and external domains, busiest first", () => {
    const c = new Correspondence({ side, includeCc: true });
    expect(c.pairs(10)).toEqual([]);
    expect(c.domains(10)).toEqual([]);
    for (const t of THREADS) c.add(t);
    expect(c.pairs(10).map((p) => [p.from_address, p.to_address, p.direction, p.messages, p.threads])).toEqual([
      ["ann@globex.example", "sam@acme.example", "Inbound", 3, 1],
      ["sam@acme.example", "ann@globex.example", "Outbound", 2, 1],
      ["sam@acme.example", "carl@globex.example", "Outbound", 2, 1],
      ["carl@globex.example", "sam@acme.example", "Inbound", 1, 1],
      ["dave@initech.example", "sam@acme.example", "Inbound", 1, 1],
      ["sam@acme.example", "bob@initech.example", "Outbound", 1, 1],
    ]);
    expect(c.pairs(1)[0]).toMatchObject({ first_message_at: at("02T09:00:00"), last_message_at: at("02T13:00:00") });
    expect(c.domains(10)).toEqual([
      { rank: 1, domain: "globex.example", messages: 8, messages_from: 4, messages_to: 4, correspondents: 2, threads: 2, first_message_at: at("02T09:00:00"), last_message_at: at("04T09:00:00") },
      { rank: 2, domain: "initech.example", messages: 2, messages_from: 1, messages_to: 1, correspondents: 2, threads: 2, first_message_at: at("02T10:30:00"), last_message_at: at("10T10:00:00") },
    ]);
    expect(c.domains(1).map((d) => d.domain)).toEqual(["globex.example"]);
  });

  it("leaves out copied recipients when asked, messages without a sender, and messages to oneself", () => {
    const c = new Correspondence({ side, includeCc: false });
    for (const t of THREADS) c.add(t);
    c.add([msg({ from_address: "undisclosed-recipients:;", to_addresses: ["x@y.example"], sent_at: at("05T00:00:00") })]);
    c.add([msg({ from_address: SAM, to_addresses: [SAM], sent_at: at("05T00:00:00") })]);
    expect(c.pairs(10).some((p) => p.to_address === "bob@initech.example" || p.to_address === "x@y.example" || p.from_address === p.to_address)).toBe(false);
    expect(c.domains(10).find((d) => d.domain === "initech.example")).toMatchObject({ messages: 1, messages_to: 0, correspondents: 1 });
    expect([directionOf(true, true), directionOf(false, false)]).toEqual(["Internal", "External"]);
  });
});
