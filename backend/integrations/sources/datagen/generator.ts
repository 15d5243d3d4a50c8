import type { Meeting, Person, Utterance } from "../records.js";
import { hashString } from "../kit/hash.js";
import { Random } from "./random.js";
import { ACCOUNTS, CLOSERS, COMPETITORS, EXTERNAL_TITLES, FEATURES, FIRST, INTERNAL_TITLES, LAST, OPENERS_EXTERNAL, OPENERS_INTERNAL, PLANS, TOPICS } from "./banks.js";

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
  const topics = agenda.map((topic) => topic.name);
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
