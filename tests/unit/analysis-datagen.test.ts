/**
 * The analyses on the data generator's meetings: what a real user of the demo source would see.
 */
import { describe, expect, it } from "vitest";
import { generateMeetings, TOPICS, type Meeting } from "../../backend/integrations/sources/datagen/index.js";
import {
  actionItems,
  dealRisk,
  DEFAULT_ACTION_CUES,
  DEFAULT_RISK_KEYWORDS,
  keywordMentions,
  sentimentOf,
  sentimentOverTime,
  speakerMetrics,
  stem,
  tokenize,
  topicModel,
  type Line,
  type MeetingMeta,
} from "../../backend/transforms/analysis/index.js";

const SOURCE = "3c9d7e10-5a2b-4f61-8e0c-7d4b2a1f9e55";
const DAY = 86_400_000;
const start = new Date("2026-06-01T00:00:00Z");
const generate = (days: number): Meeting[] => [
  ...generateMeetings({ sourceId: SOURCE, company: "Tributary Demo Co", from: start, to: new Date(start.getTime() + days * DAY) }),
];
const COMPETITORS = ["Fivetran", "Airbyte", "Stitch", "Segment", "Hevo"];
const CHURN = "Renewal and churn risk";
const ONBOARDING = "Onboarding";
const ACTIONS = "Action items and next steps";

const toLines = (m: Meeting): Line[] =>
  m.utterances.map((u) => ({
    meeting_id: m.id,
    utterance_id: `${m.id}:${u.index}`,
    speaker_id: u.speaker.id,
    speaker_name: u.speaker.name,
    affiliation: u.speaker.affiliation,
    spoken_at: new Date(m.startedAt.getTime() + u.startMs),
    start_ms: u.startMs,
    end_ms: u.endMs,
    text: u.text,
  }));
const meetingText = (m: Meeting) => m.utterances.map((u) => u.text).join("\n");

const meetings = generate(60);
const lines = meetings.flatMap(toLines);

/** Each business topic's own words (stems): those said more often under it than under any other agenda item. */
const vocabulary = (() => {
  const counts = new Map<string, Map<string, number>>();
  for (const m of meetings) {
    for (const u of m.utterances) {
      for (const s of tokenize(u.text, { stem: true })) {
        const perTopic = counts.get(s) ?? new Map<string, number>();
        perTopic.set(u.topic, (perTopic.get(u.topic) ?? 0) + 1);
        counts.set(s, perTopic);
      }
    }
  }
  const out = new Map<string, Set<string>>(TOPICS.map((t) => [t.name, new Set()]));
  for (const [s, perTopic] of counts) {
    const [topic] = [...perTopic].sort((a, b) => b[1] - a[1])[0]!;
    out.get(topic)?.add(s);
  }
  return out;
})();

describe("analyses on generated meetings", () => {
  it("finds topics made of the generator's business-topic words", () => {
    const result = topicModel(
      meetings.map((m) => ({ id: m.id, text: meetingText(m) })),
      { numTopics: 6, topWords: 8 },
    );
    expect(result.topics).toHaveLength(6);
    expect(result.assignments).toHaveLength(meetings.length);
    expect(result.topics.reduce((n, t) => n + t.documents, 0)).toBe(meetings.length);
    const covered = new Set<string>();
    for (const topic of result.topics) {
      const stems = topic.top_words.map((w) => stem(w.word));
      const [best, overlap] = [...vocabulary].map(([name, words]) => [name, stems.filter((s) => words.has(s)).length] as const).sort((a, b) => b[1] - a[1])[0]!;
      // Most of a topic's words come from one business topic of the generator.
      expect(overlap, `${topic.label} → ${best}`).toBeGreaterThanOrEqual(4);
      covered.add(best);
    }
    expect(covered.size, [...covered].join(", ")).toBeGreaterThanOrEqual(4);
    // Same input and seed, same topics.
    expect(topicModel(meetings.map((m) => ({ id: m.id, text: meetingText(m) })), { numTopics: 6, topWords: 8 })).toEqual(result);
  });

  it("rates churn-risk meetings riskier than onboarding ones", () => {
    // Two pseudo-accounts: meetings about churn but not onboarding, and the other way round.
    const metas: MeetingMeta[] = meetings.map((m) => {
      const churn = m.agenda.includes(CHURN);
      const onboarding = m.agenda.includes(ONBOARDING);
      return { meeting_id: m.id, title: m.title, started_at: m.startedAt, account: churn && !onboarding ? "churn" : onboarding && !churn ? "onboarding" : null };
    });
    const risks = dealRisk(metas, lines, { competitorKeywords: COMPETITORS, riskKeywords: [...DEFAULT_RISK_KEYWORDS], threshold: 60 });
    const churn = risks.find((r) => r.account === "churn")!;
    const onboarding = risks.find((r) => r.account === "onboarding")!;
    expect(churn.meetings).toBeGreaterThan(10);
    expect(onboarding.meetings).toBeGreaterThan(10);
    expect(churn.risk_mentions).toBeGreaterThan(onboarding.risk_mentions);
    expect(churn.risk_score).toBeGreaterThan(onboarding.risk_score);
    expect(churn.reasons.some((r) => r.endsWith("risk keyword mentions"))).toBe(true);

    // The customer's own words on churn: the cancellation line is negative, the happy renewal positive.
    const churnLines = lines.filter((l) => /cancel at the end of the term/.test(l.text));
    expect(churnLines.length).toBeGreaterThan(0);
    const mentions = keywordMentions(churnLines, { keywords: ["cancel"], caseSensitive: false });
    expect(mentions).toHaveLength(churnLines.length);
    for (const m of mentions) expect(m.sentiment).toBeLessThan(0);
  });

  it("reads the churn-risk talk as the most negative of the business topics", () => {
    const average = (topic: string) => {
      const scores = meetings.flatMap((m) => m.utterances.filter((u) => u.topic === topic)).map((u) => sentimentOf(u.text).score);
      expect(scores.length).toBeGreaterThan(20);
      return scores.reduce((a, b) => a + b, 0) / scores.length;
    };
    const churn = average(CHURN);
    expect(churn).toBeLessThan(0);
    for (const topic of TOPICS.map((t) => t.name).filter((name) => name !== CHURN)) expect(churn, topic).toBeLessThan(average(topic));
  });

  it("scores every real account, and sentiment over time covers every day", () => {
    const metas: MeetingMeta[] = meetings.map((m) => ({ meeting_id: m.id, title: m.title, started_at: m.startedAt, account: m.account }));
    const risks = dealRisk(metas, lines, { competitorKeywords: COMPETITORS, riskKeywords: [...DEFAULT_RISK_KEYWORDS], threshold: 60 });
    expect(risks.map((r) => r.account).sort()).toEqual([...new Set(meetings.map((m) => m.account))].sort());
    for (const r of risks) {
      expect(r.risk_score).toBeGreaterThanOrEqual(0);
      expect(r.risk_score).toBeLessThanOrEqual(100);
      expect(r.external_talk_ratio).toBeGreaterThan(0.2);
      expect(r.external_talk_ratio).toBeLessThan(0.8);
    }
    const days = sentimentOverTime(lines, { granularity: "day", speakers: "external" });
    expect(days.map((d) => d.period_start)).toEqual([...new Set(meetings.map((m) => m.startedAt.toISOString().slice(0, 10)))]);
    expect(days.reduce((n, d) => n + d.utterances, 0)).toBe(lines.filter((l) => l.affiliation === "External").length);
  });

  it("finds the action items of the next-steps agenda item, with owners and due hints", () => {
    const items = actionItems(lines, { cuePhrases: [...DEFAULT_ACTION_CUES] });
    const withItems = new Set(items.map((i) => i.meeting_id));
    for (const m of meetings.filter((m) => m.agenda.includes(ACTIONS))) expect(withItems.has(m.id), m.id).toBe(true);
    const speakers = new Map(lines.map((l) => [l.utterance_id, l.speaker_id]));
    for (const item of items) expect(item.owner_id).toBe(speakers.get(item.utterance_id));
    const hints = new Set(items.map((i) => i.due_hint));
    expect(hints).toContain("by Friday");
    expect(hints).toContain("next week");
    expect([...hints].some((h) => h !== null && /^by [A-Z][a-z]+ \d{1,2}$/.test(h))).toBe(true);
  });

  it("measures each speaker of each meeting", () => {
    const metrics = speakerMetrics(lines, { monologueThresholdMs: 60_000 });
    for (const m of meetings.slice(0, 20)) {
      const rows = metrics.filter((r) => r.meeting_id === m.id);
      expect(rows.map((r) => r.speaker_id).sort()).toEqual([...new Set(m.utterances.map((u) => u.speaker.id))].sort());
      expect(rows.reduce((n, r) => n + r.utterances, 0)).toBe(m.utterances.length);
      expect(rows.reduce((n, r) => n + r.talk_ratio, 0)).toBeCloseTo(1, 3);
    }
  });

  it("models topics over 1,000 meetings", () => {
    const many = generate(200).slice(0, 1000);
    expect(many).toHaveLength(1000);
    const started = performance.now();
    const result = topicModel(
      many.map((m) => ({ id: m.id, text: meetingText(m) })),
      { numTopics: 8, topWords: 10 },
    );
    console.log(`topicModel: 1,000 meetings in ${Math.round(performance.now() - started)} ms`);
    expect(result.assignments).toHaveLength(1000);
    expect(result.topics.length).toBeGreaterThan(1);
  });
});
