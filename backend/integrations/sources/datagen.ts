/**
 * The data generator source: meetings a real sales/customer-success team would
 * have, produced on demand and never stored. Everything is derived from the
 * source id (and the day), so the same source gives the same meetings on every
 * run, and a meeting's id does not depend on the window it was read in: re-runs
 * and overlapping lookback windows meet the very same records.
 *
 * The generator is a generator: meetings come one at a time in time order, so
 * memory stays flat whatever the volume.
 */

export type DatagenFormat = "zoom" | "gong";

export interface Person {
  id: string;
  name: string;
  email: string;
  title: string;
  company: string;
  affiliation: "Internal" | "External";
}

export interface Utterance {
  /** 0-based position in the meeting. */
  index: number;
  speaker: Person;
  /** Milliseconds from the meeting's start. */
  startMs: number;
  endMs: number;
  text: string;
  /** The agenda item this was said under. */
  topic: string;
}

export interface Meeting {
  /** Stable: derived from the source id, the day and the meeting's number that day. */
  id: string;
  title: string;
  startedAt: Date;
  durationMs: number;
  account: string;
  host: Person;
  participants: Person[];
  agenda: string[];
  utterances: Utterance[];
}

export interface DatagenOptions {
  sourceId: string;
  company: string;
  /** Meetings whose start falls in [from, to). */
  from: Date;
  to: Date;
  /** Average meetings per day (default 6). Each day varies a little around it, deterministically. */
  meetingsPerDay?: number;
}

export const DEFAULT_MEETINGS_PER_DAY = 6;
const DAY_MS = 86_400_000;

/* ---- deterministic randomness ------------------------------------------------------------------ */

/** FNV-1a, 32 bits: a seed from a string. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for synthetic data, and the same everywhere. */
export class Random {
  private state: number;
  constructor(seed: number | string) {
    this.state = typeof seed === "string" ? hashString(seed) : seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** k distinct items, in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, Math.min(k, copy.length));
  }
}

/* ---- the banks ---------------------------------------------------------------------------------- */

const FIRST = ["Alice", "Bruno", "Chloe", "Dev", "Elena", "Farah", "George", "Hana", "Ivan", "Julia", "Kenji", "Lena", "Marco", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sam", "Tara", "Umar", "Vera", "Wes", "Ximena", "Yusuf", "Zoe"];
const LAST = ["Anders", "Baker", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Haddad", "Ito", "Jensen", "Khan", "Lopez", "Moreau", "Nakamura", "Okafor", "Patel", "Rossi", "Schmidt", "Tanaka", "Varga", "Walsh", "Young"];
const INTERNAL_TITLES = ["Account Executive", "Customer Success Manager", "Solutions Engineer", "Sales Director", "Support Lead"];
const EXTERNAL_TITLES = ["VP Operations", "Head of IT", "Procurement Manager", "Engineering Manager", "Finance Director", "Product Owner"];
const ACCOUNTS = ["Northwind Traders", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Retail", "Acme Foods", "Hooli Media", "Vandelay Imports", "Soylent Labs", "Cyberdyne Systems", "Tyrell Energy"];
const COMPETITORS = ["Fivetran", "Airbyte", "Stitch", "Segment", "Hevo"];
const FEATURES = ["SSO with Okta", "a Salesforce export", "custom retention rules", "audit logs", "a Slack alert when a sync fails", "role-based access", "an EU data region", "column-level masking"];
const PLANS = ["Starter", "Growth", "Enterprise"];

type Line = (s: { r: Random; company: string; account: string; competitor: string; feature: string; plan: string; seats: number; price: number; date: string }) => string;
interface Topic {
  name: string;
  /** Lines of the seller (internal) and of the customer (external), alternating. */
  internal: Line[];
  external: Line[];
}

/** The agenda bank: business topics, each with lines a rep and a customer would say. */
export const TOPICS: readonly Topic[] = [
  {
    name: "Pricing",
    internal: [
      (s) => `For ${s.seats} seats on the ${s.plan} plan we are looking at about $${s.price.toLocaleString("en-US")} a year.`,
      (s) => `If you sign before ${s.date} I can hold this year's price for ${s.company}'s ${s.plan} plan.`,
      () => `We can also move you to annual billing, which takes fifteen percent off the list price.`,
    ],
    external: [
      (s) => `Honestly the price is higher than we budgeted; $${s.price.toLocaleString("en-US")} is a hard sell to our finance team.`,
      () => `Is there any discount for a two year commitment?`,
      () => `The pricing is fair if the usage limits really are what you described.`,
    ],
  },
  {
    name: "Onboarding",
    internal: [
      () => `Onboarding usually takes two weeks: kickoff, connecting the sources, then a review of the first syncs.`,
      (s) => `I will set up a shared channel so your team at ${s.account} gets answers within the hour.`,
      () => `Our solutions engineer will join the kickoff to walk through the destination setup.`,
    ],
    external: [
      () => `Our team is small, so a guided onboarding matters a lot to us.`,
      () => `The first week went smoothly, the documentation was clear and the setup just worked.`,
      () => `We got stuck on the warehouse permissions and lost a few days there, which was frustrating.`,
    ],
  },
  {
    name: "Renewal and churn risk",
    internal: [
      (s) => `Your renewal comes up on ${s.date}; I wanted to check how things are going before then.`,
      () => `I am sorry about the outages last month; that is not the service we promised you.`,
      () => `I hear you. Let me escalate the reliability problems and come back with a plan this week.`,
    ],
    external: [
      () => `To be candid, we are evaluating whether to renew; adoption has been poor and the team is disappointed.`,
      () => `Leadership is asking about cost cutting, so every tool is under review and this one is at risk.`,
      () => `If the sync failures continue we may have to cancel at the end of the term; the outages hurt us badly.`,
      () => `We are happy overall and plan to renew, maybe even expand to another team.`,
    ],
  },
  {
    name: "Competitor mentions",
    internal: [
      (s) => `How does this compare with what you have seen from ${s.competitor}?`,
      (s) => `Unlike ${s.competitor}, we keep transcripts and e-mails in your own warehouse, not ours.`,
    ],
    external: [
      (s) => `${s.competitor} offered us a lower price and a free pilot, so we are comparing.`,
      (s) => `We used ${s.competitor} before and their support was slow, which is why we are talking to you.`,
      (s) => `${s.competitor} already has the connector we need, to be fair.`,
    ],
  },
  {
    name: "Feature requests",
    internal: [
      (s) => `Thanks for raising ${s.feature}; I will log it with product and share the roadmap.`,
      () => `That is on the roadmap for next quarter; I can put you in the beta.`,
    ],
    external: [
      (s) => `The one thing we really need is ${s.feature}; without it security will not sign off.`,
      (s) => `Could you add ${s.feature}? Our admins keep asking for it.`,
      () => `It would help if the dashboard showed which syncs are behind.`,
    ],
  },
  {
    name: "Action items and next steps",
    internal: [
      (s) => `Next step: I will send the proposal and the security questionnaire by ${s.date}.`,
      () => `Action item on my side: book a technical deep dive with your data team.`,
      () => `Let us schedule a follow-up next week to review the pilot results.`,
    ],
    external: [
      () => `On our side, I will get the legal review started and loop in procurement.`,
      (s) => `I will share the requirements document with the ${s.account} team by Friday.`,
      () => `Sounds good, send over the calendar invite and we will confirm attendees.`,
    ],
  },
];

const OPENERS_INTERNAL: Line[] = [(s) => `Thanks for making the time today. From ${s.company}, we have a few things on the agenda.`, () => `Hi everyone, good to see you again. Shall we get started?`];
const OPENERS_EXTERNAL: Line[] = [(s) => `Thanks, happy to be here on behalf of ${s.account}.`, () => `Hi, yes, let us dive in, we have about thirty minutes.`];
const CLOSERS: Line[] = [() => `Great, thanks all, talk soon.`, () => `Thank you, this was really helpful.`];

/* ---- the cast: recurring people per source ------------------------------------------------------- */

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "");

function person(r: Random, sourceId: string, company: string, affiliation: Person["affiliation"], n: number): Person {
  const name = `${r.pick(FIRST)} ${r.pick(LAST)}`;
  const domain = `${slug(company) || "example"}.example.com`;
  return {
    id: `${hashString(`${sourceId}:${company}:${n}`).toString(36)}${n}`,
    name,
    email: `${name.toLowerCase().replace(/\s+/g, ".")}@${domain}`,
    title: r.pick(affiliation === "Internal" ? INTERNAL_TITLES : EXTERNAL_TITLES),
    company,
    affiliation,
  };
}

export interface Cast {
  team: Person[];
  accounts: { name: string; contacts: Person[] }[];
}

/** The source's team and its customer accounts: the same people meet again and again. */
export function castFor(sourceId: string, company: string): Cast {
  const r = new Random(`cast:${sourceId}`);
  const team = Array.from({ length: 6 }, (_, i) => person(r, sourceId, company, "Internal", i));
  const accounts = r.sample(ACCOUNTS, 8).map((name, a) => ({
    name,
    contacts: Array.from({ length: 3 }, (_, i) => person(r, sourceId, name, "External", 100 + a * 10 + i)),
  }));
  return { team, accounts };
}

/* ---- meetings ------------------------------------------------------------------------------------- */

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const dayKey = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
};

/** `text.split(/\s+/).length` without making the array (every utterance of every meeting asks). */
function pieces(text: string): number {
  let n = 1;
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || (c >= 9 && c <= 13) || (c >= 128 && /\s/.test(text[i]!));
    if (space && !inSpace) n++;
    inSpace = space;
  }
  return n;
}

function wordsMs(text: string, r: Random): number {
  const words = pieces(text);
  return Math.round((words / 150) * 60_000 * (0.85 + r.next() * 0.3));
}

/** Renewal dates as "April 7": one formatter for every meeting (toLocaleDateString builds one per call, ~50 µs). */
const RENEWAL_DATE = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", timeZone: "UTC" });

/** The start seconds (within 08:00–18:00 UTC, sorted) of one UTC day's meetings: all that a day holds in memory. */
function startsOfDay(sourceId: string, key: string, meetingsPerDay: number): number[] {
  const r = new Random(`day:${sourceId}:${key}`);
  const spread = Math.max(1, Math.round(meetingsPerDay * 0.25));
  const count = Math.max(0, Math.round(meetingsPerDay) + r.int(-spread, spread));
  return Array.from({ length: count }, () => 8 * 3600 + r.int(0, 10 * 3600 - 1)).sort((a, b) => a - b);
}

/** The n-th meeting of a day: its own random stream, so it can be made alone. */
function meetingOf(sourceId: string, company: string, dayStartMs: number, key: string, second: number, n: number, cast: Cast): Meeting {
  const m = new Random(`meeting:${sourceId}:${key}:${n}`);
  const account = m.pick(cast.accounts);
  const reps = m.sample(cast.team, m.int(1, 2));
  const contacts = m.sample(account.contacts, m.int(1, 2));
  const agenda = m.sample(TOPICS, m.int(2, 4));
  const startedAt = new Date(dayStartMs + second * 1000);
  const renewal = new Date(startedAt.getTime() + m.int(10, 90) * DAY_MS);
  const ctx = {
    r: m,
    company,
    account: account.name,
    competitor: m.pick(COMPETITORS),
    feature: m.pick(FEATURES),
    plan: m.pick(PLANS),
    seats: m.int(2, 40) * 5,
    price: m.int(12, 240) * 500,
    date: RENEWAL_DATE.format(renewal),
  };
  const utterances: Utterance[] = [];
  let clock = m.int(0, 4000);
  const say = (speaker: Person, text: string, topic: string) => {
    const duration = wordsMs(text, m);
    utterances.push({ index: utterances.length, speaker, startMs: clock, endMs: clock + duration, text, topic });
    clock += duration + m.int(200, 1500);
  };
  say(reps[0]!, m.pick(OPENERS_INTERNAL)(ctx), "Introductions");
  say(contacts[0]!, m.pick(OPENERS_EXTERNAL)(ctx), "Introductions");
  for (const topic of agenda) {
    const exchanges = m.int(2, 4);
    for (let i = 0; i < exchanges; i++) {
      say(m.pick(reps), m.pick(topic.internal)(ctx), topic.name);
      say(m.pick(contacts), m.pick(topic.external)(ctx), topic.name);
    }
  }
  say(reps[0]!, m.pick(CLOSERS)(ctx), "Wrap-up");
  // Pushed, not made by map: TurboFan's inlined map makes a holey array where the builtin makes a packed one, and this
  // function, optimized on the one kind, was thrown away at the other.
  const topics: string[] = [];
  for (const topic of agenda) topics.push(topic.name);
  return {
    id: `dg-${sourceId.slice(0, 8)}-${key}-${pad(n, 3)}`,
    title: `${company} / ${account.name}: ${topics.join(", ")}`,
    startedAt,
    durationMs: clock,
    account: account.name,
    host: reps[0]!,
    participants: [...reps, ...contacts],
    agenda: topics,
    utterances,
  };
}

/**
 * The meetings of one UTC day starting in [from, to), in start order, one at a
 * time: a day of thousands of meetings is never held whole.
 */
function* eachMeetingOfDay(sourceId: string, company: string, dayStartMs: number, meetingsPerDay: number, cast: Cast, from = -Infinity, to = Infinity): Generator<Meeting> {
  const key = dayKey(dayStartMs);
  const starts = startsOfDay(sourceId, key, meetingsPerDay);
  for (let n = 0; n < starts.length; n++) {
    const t = dayStartMs + starts[n]! * 1000;
    if (t >= from && t < to) yield meetingOf(sourceId, company, dayStartMs, key, starts[n]!, n, cast);
  }
}

/** The meetings of one UTC day, in start order (independent of any window). */
export function meetingsOfDay(sourceId: string, company: string, dayStartMs: number, meetingsPerDay: number, cast = castFor(sourceId, company)): Meeting[] {
  return [...eachMeetingOfDay(sourceId, company, dayStartMs, meetingsPerDay, cast)];
}

/** Every meeting that starts in [from, to), oldest first, one at a time. */
export function* generateMeetings(options: DatagenOptions): Generator<Meeting> {
  const perDay = options.meetingsPerDay ?? DEFAULT_MEETINGS_PER_DAY;
  const company = options.company.trim() || "Tributary Demo Co";
  const cast = castFor(options.sourceId, company);
  const from = options.from.getTime();
  const to = options.to.getTime();
  for (let day = Math.floor(from / DAY_MS) * DAY_MS; day < to; day += DAY_MS) {
    yield* eachMeetingOfDay(options.sourceId, company, day, perDay, cast, from, to);
  }
}

/* ---- renderings ------------------------------------------------------------------------------------ */

/** "00" to "99" and "000" to "999", made once: a transcript's cue times take four of them per line. */
const PAD2 = Array.from({ length: 100 }, (_, i) => pad(i));
const PAD3 = Array.from({ length: 1000 }, (_, i) => pad(i, 3));

function timestamp(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${PAD2[h] ?? pad(h)}:${PAD2[m]}:${PAD2[s]}.${PAD3[ms % 1000] ?? pad(ms % 1000, 3)}`;
}

/** Zoom's cloud-recording transcript: WebVTT, numbered cues, "Speaker Name: text". */
export function toVtt(meeting: Meeting): string {
  // Lines are pushed, not mapped: see meetingOf (an inlined map's holey array threw the optimized join away).
  const cues: string[] = [];
  for (const u of meeting.utterances) cues.push(`${u.index + 1}\n${timestamp(u.startMs)} --> ${timestamp(u.endMs)}\n${u.speaker.name}: ${u.text}\n`);
  return `WEBVTT\n\n${cues.join("\n")}`;
}

/** A plain-text transcript: "[hh:mm:ss] Speaker: text" per line. */
export function toText(meeting: Meeting): string {
  const lines: string[] = [];
  for (const u of meeting.utterances) lines.push(`[${timestamp(u.startMs).slice(0, 8)}] ${u.speaker.name}: ${u.text}`);
  return lines.join("\n") + "\n";
}

/** Gong's call shape: metaData, parties, and the transcript as monologues of sentences. */
export function toGongCall(meeting: Meeting) {
  const monologues: { speakerId: string; topic: string; sentences: { start: number; end: number; text: string }[] }[] = [];
  for (const u of meeting.utterances) {
    const last = monologues[monologues.length - 1];
    const sentences = u.text.match(/[^.!?]+[.!?]*/g)?.map((s) => s.trim()).filter(Boolean) ?? [u.text];
    const span = u.endMs - u.startMs;
    const total = sentences.reduce((n, s) => n + s.length, 0);
    let at = u.startMs;
    const timed = sentences.map((text) => {
      const end = at + Math.round((span * text.length) / total);
      const sentence = { start: at, end, text };
      at = end;
      return sentence;
    });
    if (last && last.speakerId === u.speaker.id && last.topic === u.topic) last.sentences.push(...timed);
    else monologues.push({ speakerId: u.speaker.id, topic: u.topic, sentences: timed });
  }
  return {
    metaData: {
      id: meeting.id,
      title: meeting.title,
      started: meeting.startedAt.toISOString(),
      duration: Math.round(meeting.durationMs / 1000),
      primaryUserId: meeting.host.id,
      direction: "Conference",
      system: "Zoom",
      scope: "External",
      media: "Video",
      language: "eng",
    },
    parties: meeting.participants.map((p) => ({
      id: p.id,
      speakerId: p.id,
      name: p.name,
      emailAddress: p.email,
      title: p.title,
      affiliation: p.affiliation,
      methods: ["Attendee"],
    })),
    transcript: monologues,
  };
}
