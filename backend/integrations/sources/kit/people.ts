import type { Meeting, Person, Utterance } from "../records.js";
import type { ReadWindow } from "../plugin.js";
import { hashString } from "./hash.js";
import type { VttCue } from "./vtt.js";


/** Someone the provider knows (a user of the account/tenant/team): their speech is "Internal". */
export interface KnownPerson {
  id: string;
  name: string;
  email: string;
}

export function person(name: string, known: KnownPerson[], company: string): Person {
  const match = known.find((k) => k.name.toLowerCase() === name.toLowerCase());
  if (match) return { id: match.id, name: match.name, email: match.email, title: "", company, affiliation: "Internal" };
  return { id: `spk-${hashString(name.toLowerCase()).toString(36)}`, name, email: "", title: "", company: "", affiliation: "External" };
}

/** A meeting record from a provider's transcript. */
export function meetingFromTranscript(input: {
  id: string;
  title: string;
  startedAt: Date;
  durationMs?: number;
  host: KnownPerson | null;
  known: KnownPerson[];
  company: string;
  cues: VttCue[];
}): Meeting {
  const people = new Map<string, Person>();
  const personFor = (name: string) => {
    const key = name.toLowerCase();
    if (!people.has(key)) people.set(key, person(name, input.known, input.company));
    return people.get(key)!;
  };
  const host = input.host ? personFor(input.host.name) : null;
  const utterances: Utterance[] = input.cues.map((cue, index) => ({
    index,
    speaker: personFor(cue.speaker ?? "Unknown speaker"),
    startMs: cue.startMs,
    endMs: cue.endMs,
    text: cue.text,
    topic: "",
  }));
  const lastEnd = input.cues.reduce((max, c) => Math.max(max, c.endMs), 0);
  return {
    id: input.id,
    title: input.title,
    startedAt: input.startedAt,
    durationMs: Math.max(input.durationMs ?? 0, lastEnd),
    account: "",
    host: host ?? utterances[0]?.speaker ?? personFor("Unknown speaker"),
    participants: [...people.values()],
    agenda: [],
    utterances,
  };
}

export const inWindow = (at: Date, window: ReadWindow) => at.getTime() >= window.from.getTime() && at.getTime() < window.to.getTime();
