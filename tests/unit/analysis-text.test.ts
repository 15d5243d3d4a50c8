import { describe, expect, it } from "vitest";
import {
  actionItems,
  countQuestions,
  DEFAULT_ACTION_CUES,
  dueHint,
  keywordMentions,
  periodStart,
  sentimentOf,
  sentimentOverTime,
  speakerMetrics,
  tokenize,
  type Line,
} from "../../backend/transforms/analysis/index.js";

let seq = 0;
function line(partial: Partial<Line> & Pick<Line, "meeting_id" | "text">): Line {
  seq += 1;
  return {
    utterance_id: `u${seq}`,
    speaker_id: "s1",
    speaker_name: "Sam Seller",
    affiliation: "Internal",
    spoken_at: new Date("2026-11-16T10:00:00Z"),
    start_ms: 0,
    end_ms: 1000,
    ...partial,
  };
}

describe("tokenize", () => {
  it("lowercases, drops stop words, fillers, short words and numbers, and strips possessives", () => {
    const text = "Yeah, um, the PRICING was gonna be too expensive for Globex's team in 2026!";
    expect(tokenize(text)).toEqual(["pricing", "expensive", "globex", "team"]);
    expect(tokenize(text, { stem: true })).toEqual(["price", "expens", "globex", "team"]);
  });

  it("keeps apostrophes inside words, treats typographic ones alike, and drops contractions", () => {
    expect(tokenize("We don't think O’Brien's ‘quotes’ work")).toEqual(["o'brien", "quotes", "work"]);
    expect(tokenize("I’ll say we're done, it's fine")).toEqual([]);
  });

  it("splits on anything that is not a letter and keeps non-ASCII letters", () => {
    expect(tokenize("AI ML 42 go abc x2y café")).toEqual(["abc", "café"]);
    expect(tokenize("e-mail-based sync_failures")).toEqual(["mail", "based", "sync", "failures"]);
  });

  it("drops extra stop words, by stem too when stemming", () => {
    expect(tokenize("Meetings about meeting notes", { extraStopwords: ["meeting"] })).toEqual(["meetings", "notes"]);
    expect(tokenize("Meetings about meeting notes", { extraStopwords: [" Meeting "], stem: true })).toEqual(["note"]);
  });

  it("returns nothing for empty or stop-word-only text", () => {
    expect(tokenize("")).toEqual([]);
    expect(tokenize("okay so um yeah, I think we're gonna, like, you know")).toEqual([]);
  });
});

describe("sentimentOf", () => {
  it("scores with AFINN-165, with negation", () => {
    expect(sentimentOf("This is great, I love it")).toEqual({ score: 6, comparative: 1, positive: ["love", "great"], negative: [] });
    // failures −2, "not good" −3, cancel −1
    expect(sentimentOf("The sync failures were not good and we may cancel.")).toEqual({
      score: -6,
      comparative: -0.6,
      positive: [],
      negative: ["cancel", "good", "failures"],
    });
    expect(sentimentOf("")).toEqual({ score: 0, comparative: 0, positive: [], negative: [] });
  });
});

describe("sentimentOverTime", () => {
  const lines = [
    line({ meeting_id: "m1", text: "I love this", spoken_at: new Date("2026-11-16T10:00:00Z") }), // +3, Monday
    line({ meeting_id: "m1", text: "This is bad", affiliation: "External", spoken_at: new Date("2026-11-16T10:01:00Z") }), // −3
    line({ meeting_id: "m2", text: "Great", affiliation: "external", spoken_at: new Date("2026-11-18T09:00:00Z") }), // +3, Wednesday
    line({ meeting_id: "m3", text: "Terrible", affiliation: "EXTERNAL", spoken_at: new Date("2026-11-22T23:30:00Z") }), // −3, Sunday
    line({ meeting_id: "m4", text: "Sure", affiliation: null, spoken_at: new Date("2026-11-23T00:10:00Z") }), // 0, next Monday
  ];

  it("groups by UTC day", () => {
    expect(sentimentOverTime(lines, { granularity: "day", speakers: "all" })).toEqual([
      { period_start: "2026-11-16", speaker_side: "all", meetings: 1, utterances: 2, avg_sentiment: 0, positive_share: 0.5, negative_share: 0.5 },
      { period_start: "2026-11-18", speaker_side: "all", meetings: 1, utterances: 1, avg_sentiment: 3, positive_share: 1, negative_share: 0 },
      { period_start: "2026-11-22", speaker_side: "all", meetings: 1, utterances: 1, avg_sentiment: -3, positive_share: 0, negative_share: 1 },
      { period_start: "2026-11-23", speaker_side: "all", meetings: 1, utterances: 1, avg_sentiment: 0, positive_share: 0, negative_share: 0 },
    ]);
  });

  it("groups by ISO week starting on Monday and filters by affiliation, case-insensitively", () => {
    expect(sentimentOverTime([...lines].reverse(), { granularity: "week", speakers: "all" })).toEqual([
      { period_start: "2026-11-16", speaker_side: "all", meetings: 3, utterances: 4, avg_sentiment: 0, positive_share: 0.5, negative_share: 0.5 },
      { period_start: "2026-11-23", speaker_side: "all", meetings: 1, utterances: 1, avg_sentiment: 0, positive_share: 0, negative_share: 0 },
    ]);
    expect(sentimentOverTime(lines, { granularity: "week", speakers: "external" })).toEqual([
      { period_start: "2026-11-16", speaker_side: "all", meetings: 3, utterances: 3, avg_sentiment: -1, positive_share: 0.3333, negative_share: 0.6667 },
    ]);
    expect(sentimentOverTime(lines, { granularity: "week", speakers: "internal" })).toEqual([
      { period_start: "2026-11-16", speaker_side: "all", meetings: 1, utterances: 1, avg_sentiment: 3, positive_share: 1, negative_share: 0 },
    ]);
  });

  it("splits by side when asked: our side, their side, and lines whose side is not known", () => {
    expect(sentimentOverTime(lines, { granularity: "week", speakers: "all", splitBySide: true })).toEqual([
      { period_start: "2026-11-16", speaker_side: "external", meetings: 3, utterances: 3, avg_sentiment: -1, positive_share: 0.3333, negative_share: 0.6667 },
      { period_start: "2026-11-16", speaker_side: "internal", meetings: 1, utterances: 1, avg_sentiment: 3, positive_share: 1, negative_share: 0 },
      { period_start: "2026-11-23", speaker_side: "unknown", meetings: 1, utterances: 1, avg_sentiment: 0, positive_share: 0, negative_share: 0 },
    ]);
    // With one side chosen, the split holds that side only.
    expect(sentimentOverTime(lines, { granularity: "week", speakers: "internal", splitBySide: true }).map((p) => p.speaker_side)).toEqual(["internal"]);
  });

  it("returns nothing for no lines, and reads timestamps handed over as strings", () => {
    expect(sentimentOverTime([], { granularity: "day", speakers: "all" })).toEqual([]);
    const asText = line({ meeting_id: "m9", text: "Great", spoken_at: "2026-11-18T09:00:00Z" as unknown as Date });
    const broken = line({ meeting_id: "m9", text: "Great", spoken_at: "not a date" as unknown as Date });
    expect(sentimentOverTime([asText, broken], { granularity: "week", speakers: "all" })).toEqual([
      { period_start: "2026-11-16", speaker_side: "all", meetings: 1, utterances: 1, avg_sentiment: 3, positive_share: 1, negative_share: 0 },
    ]);
  });

  it("computes the start of a week across month and year ends", () => {
    expect(periodStart(new Date("2027-01-01T12:00:00Z"), "week")).toBe("2026-12-28"); // a Friday
    expect(periodStart(new Date("2026-11-16T00:00:00Z"), "week")).toBe("2026-11-16"); // a Monday
    expect(periodStart(new Date("2026-11-22T23:59:59Z"), "week")).toBe("2026-11-16"); // a Sunday
    expect(periodStart(new Date("2026-11-22T23:59:59Z"), "day")).toBe("2026-11-22");
  });
});

describe("actionItems", () => {
  it("finds cue phrases on whole words, the earliest cue first, with the owner and a due hint", () => {
    const lines = [
      line({ meeting_id: "m1", text: "We will follow up next week.", speaker_id: "b", speaker_name: "Bea", spoken_at: new Date("2026-11-16T10:02:00Z") }),
      line({ meeting_id: "m1", text: "Action item: I will send the deck by Friday.", speaker_id: "a", speaker_name: "Ann", spoken_at: new Date("2026-11-16T10:01:00Z") }),
      line({ meeting_id: "m1", text: "Hawaii willing, the followup is fine.", spoken_at: new Date("2026-11-16T10:03:00Z") }),
    ];
    expect(actionItems(lines, { cuePhrases: ["I will", "action item", "follow up", " ", "FOLLOW UP"] })).toEqual([
      { meeting_id: "m1", utterance_id: lines[1]!.utterance_id, owner_id: "a", owner_name: "Ann", spoken_at: new Date("2026-11-16T10:01:00Z"), text: "Action item: I will send the deck by Friday.", cue: "action item", due_hint: "by Friday" },
      { meeting_id: "m1", utterance_id: lines[0]!.utterance_id, owner_id: "b", owner_name: "Bea", spoken_at: new Date("2026-11-16T10:02:00Z"), text: "We will follow up next week.", cue: "follow up", due_hint: "next week" },
    ]);
  });

  it("matches typographic apostrophes with the default cues and gives null when no day is named", () => {
    const items = actionItems([line({ meeting_id: "m1", text: "I’ll loop in procurement." })], { cuePhrases: [...DEFAULT_ACTION_CUES] });
    expect(items.map((i) => [i.cue, i.due_hint])).toEqual([["i'll", null]]);
  });

  it("returns nothing without cues or lines", () => {
    expect(actionItems([line({ meeting_id: "m1", text: "I will" })], { cuePhrases: [] })).toEqual([]);
    expect(actionItems([], { cuePhrases: ["I will"] })).toEqual([]);
  });

  it("reads day and time expressions", () => {
    const cases: [string, string | null][] = [
      ["Let's meet tomorrow at 3pm", "tomorrow"],
      ["by end of month", "by end of month"],
      ["send the deck by December 3", "by December 3"],
      ["before 2026-12-03 please", "before 2026-12-03"],
      ["on 12/03", "on 12/03"],
      ["in two weeks", "in two weeks"],
      ["the 3rd of March works", "3rd of March"],
      ["by EOD", "by EOD"],
      ["Mayday, no date here", null],
    ];
    for (const [text, hint] of cases) expect(dueHint(text), text).toBe(hint);
  });
});

describe("speakerMetrics", () => {
  it("measures talk, merges a speaker's consecutive lines into monologues, and counts questions", () => {
    const ann = { speaker_id: "a", speaker_name: "Ann", affiliation: "Internal" };
    const bob = { speaker_id: "b", speaker_name: "Bob", affiliation: "External" };
    const at = new Date("2026-11-16T10:00:00Z");
    const m1 = [
      line({ meeting_id: "m1", ...ann, start_ms: 27_000, end_ms: 30_000, text: "Good question.", spoken_at: at }),
      line({ meeting_id: "m1", ...ann, start_ms: 0, end_ms: 10_000, text: "Hello everyone. Shall we start?", spoken_at: at }),
      line({ meeting_id: "m1", ...bob, start_ms: 21_000, end_ms: 26_000, text: "Why so expensive? Is there a discount?", spoken_at: at }),
      line({ meeting_id: "m1", ...ann, start_ms: 11_000, end_ms: 20_000, text: "Pricing first.", spoken_at: at }),
    ];
    const m0 = [line({ meeting_id: "m0", speaker_id: "c", speaker_name: "Cy", affiliation: null, start_ms: 500, end_ms: 100, text: "Hm?", spoken_at: new Date("2026-11-15T10:00:00Z") })];
    expect(speakerMetrics([...m1, ...m0], { monologueThresholdMs: 15_000 })).toEqual([
      { meeting_id: "m0", speaker_id: "c", speaker_name: "Cy", affiliation: null, utterances: 1, talk_ms: 0, talk_ratio: 0, longest_monologue_ms: 0, monologues_over_threshold: 0, questions_asked: 1 },
      { meeting_id: "m1", ...ann, utterances: 3, talk_ms: 22_000, talk_ratio: 0.8148, longest_monologue_ms: 20_000, monologues_over_threshold: 1, questions_asked: 1 },
      { meeting_id: "m1", ...bob, utterances: 1, talk_ms: 5_000, talk_ratio: 0.1852, longest_monologue_ms: 5_000, monologues_over_threshold: 0, questions_asked: 2 },
    ]);
  });

  it("counts a monologue equal to the threshold as not over it, and handles no lines", () => {
    const lines = [line({ meeting_id: "m1", start_ms: 0, end_ms: 15_000, text: "Long." })];
    expect(speakerMetrics(lines, { monologueThresholdMs: 15_000 })[0]!.monologues_over_threshold).toBe(0);
    expect(speakerMetrics(lines, { monologueThresholdMs: 14_999 })[0]!.monologues_over_threshold).toBe(1);
    expect(speakerMetrics([], { monologueThresholdMs: 1 })).toEqual([]);
  });

  it("counts sentences that end in a question mark", () => {
    expect(countQuestions("Really?? OK. And you? ?")).toBe(2);
    expect(countQuestions("What? Why not?!")).toBe(2);
    expect(countQuestions("No questions here.")).toBe(0);
  });
});

describe("keywordMentions", () => {
  const at = new Date("2026-11-16T10:00:00Z");
  const lines = [
    line({ meeting_id: "m1", text: "We compared Fivetran and FIVETRAN again, it was bad", spoken_at: at }), // bad −3
    line({ meeting_id: "m1", text: "A budget  cut is coming", spoken_at: new Date(at.getTime() + 1000) }),
    line({ meeting_id: "m1", text: "Budget cuts and fivetranx do not count", spoken_at: new Date(at.getTime() + 2000) }),
    line({ meeting_id: "m2", text: "fivetran's pricing, great", speaker_id: "s9", spoken_at: new Date(at.getTime() + 3000) }), // great +3
  ];

  it("matches whole words and phrases, once per line and keyword, with the line's sentiment", () => {
    const found = keywordMentions(lines, { keywords: ["Fivetran", "budget cut", "fivetran", " "], caseSensitive: false });
    expect(found.map((m) => [m.meeting_id, m.utterance_id, m.keyword, m.speaker_id, m.spoken_at.toISOString(), m.sentiment])).toEqual([
      ["m1", lines[0]!.utterance_id, "Fivetran", "s1", "2026-11-16T10:00:00.000Z", -3],
      ["m1", lines[1]!.utterance_id, "budget cut", "s1", "2026-11-16T10:00:01.000Z", -1], // AFINN: cut −1
      ["m2", lines[3]!.utterance_id, "Fivetran", "s9", "2026-11-16T10:00:03.000Z", 3],
    ]);
    expect(found[1]!.text).toBe("A budget  cut is coming");
  });

  it("respects case when asked to", () => {
    const found = keywordMentions(lines, { keywords: ["Fivetran", "FIVETRAN"], caseSensitive: true });
    expect(found.map((m) => [m.utterance_id, m.keyword])).toEqual([
      [lines[0]!.utterance_id, "Fivetran"],
      [lines[0]!.utterance_id, "FIVETRAN"],
    ]);
    expect(keywordMentions(lines, { keywords: [], caseSensitive: false })).toEqual([]);
  });
});
