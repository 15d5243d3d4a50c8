import { actionItems, keywordMentions, round4, speakerMetrics, type Line, type MeetingMeta } from "../analysis/index.js";
import { DealRiskBuilder } from "../analysis/risk.js";
import { SentimentPeriods, type SpeakerFilter } from "../analysis/sentiment.js";
import { TopicModelBuilder } from "../analysis/topics.js";
import { uniquePhrases } from "../analysis/types.js";
import { HOSTED_PROVIDER } from "../catalogue.js";
import { hostedProvider, HOSTED_UNAVAILABLE, labelTopicsWithHostedModel } from "../provider.js";
import { PipelineConfigError } from "./errors.js";
import type { ScanColumn } from "../../integrations/destinations/warehouse.js";
import { list, type ProgramContext, type TemplateProgram } from "./types.js";

/**
 * The transcript templates' programs. Each is a pass (or three, for topics) over the meetings one at a time; rows
 * computed per meeting are written as they come, rows computed over all meetings (periods, keywords, accounts,
 * topics) from a few numbers kept per meeting, at the end.
 */

const affiliationIs = (line: Line, who: SpeakerFilter) => who === "all" || (line.affiliation ?? "").toLowerCase() === who;

/** Every meeting of the pass, after the run's checkpoint; the log gets the count. */
async function* eachMeeting(context: ProgramContext) {
  let meetings = 0;
  let lines = 0;
  for await (const item of context.meetings()) {
    context.checkpoint();
    meetings += 1;
    lines += item.lines.length;
    yield item;
  }
  context.readDone(meetings, lines);
}

/** Meeting title, for the rows of meeting-level outputs. */
const titled = <T extends { meeting_id: string }>(rows: T[], meeting: MeetingMeta) => rows.map((r) => ({ ...r, meeting_title: meeting.title }));

/** The words of people's and companies' names: a meeting's topic is what is discussed, not who discusses it. */
function addNameWords(words: Set<string>, meeting: { account: string | null; title: string }, speaker?: string) {
  const add = (text: string | null | undefined) => {
    for (const word of (text ?? "").toLowerCase().split(/[^a-z']+/)) if (word.length > 1) words.add(word);
  };
  add(meeting.account);
  if (meeting.title.includes(" / ")) add(meeting.title.split(" / ")[0]);
  add(speaker);
}
const SPEAKER_NAMES: ScanColumn[] = [{ name: "speaker_name", type: "string" }];

const MEETING_NAMES: ScanColumn[] = [
  { name: "meeting_id", type: "string" },
  { name: "title", type: "string" },
  { name: "account", type: "string" },
];

const topicModeling: TemplateProgram = {
  stream: "meetings",
  async run(context) {
    const { values, stamp } = context;
    const speakers = (values.speakers ?? "all") as SpeakerFilter;
    // The names to leave out: accounts and host companies (a scan of the meetings), speakers (one DISTINCT query).
    context.step("tokenize");
    const names = new Set<string>();
    for await (const batch of context.scan("meetings", MEETING_NAMES, ["meeting_id"])) {
      for (const row of batch) addNameWords(names, { account: row.account as string | null, title: String(row.title ?? "") });
    }
    for await (const batch of context.scan("transcript_utterances", SPEAKER_NAMES, ["speaker_name"], { distinct: true })) {
      for (const row of batch) addNameWords(names, { account: null, title: "" }, String(row.speaker_name ?? ""));
    }
    const model = new TopicModelBuilder({
      numTopics: Number(values.num_topics),
      topWords: Number(values.top_words),
      seed: Number(values.seed ?? 42),
      extraStopwords: [...list(values.extra_stopwords), ...names],
      minDocumentWords: Number(values.min_document_words ?? 20),
    });
    names.clear();
    // One pass: each meeting's chosen lines are one document, kept as its terms' counts.
    const titles = new Map<string, string>();
    for await (const { meeting, lines } of eachMeeting(context)) {
      const texts = lines.filter((l) => affiliationIs(l, speakers)).map((l) => l.text);
      if (texts.length === 0) continue;
      const before = model.documents;
      model.add(meeting.meeting_id, texts.join("\n"));
      if (model.documents > before) titles.set(meeting.meeting_id, meeting.title);
    }
    // k-means, then the labels (a hosted model's when chosen).
    context.step("cluster", "topic_words", "topic_share");
    const result = model.result();
    const labels = new Map(result.topics.map((t) => [t.topic_id, t.label]));
    if (values.provider === HOSTED_PROVIDER && result.topics.length) {
      const provider = hostedProvider();
      if (!provider) throw new PipelineConfigError(HOSTED_UNAVAILABLE);
      const named = await labelTopicsWithHostedModel(provider, result.topics.map((t) => ({ topic_id: t.topic_id, words: t.top_words.map((w) => w.word) })));
      for (const [id, label] of named) labels.set(id, label);
    } else if (values.provider === HOSTED_PROVIDER && !hostedProvider()) {
      throw new PipelineConfigError(HOSTED_UNAVAILABLE);
    }
    context.checkpoint();
    context.step("topic_tables");
    await context.write(
      "topics",
      result.topics.map((t) => ({ topic_id: t.topic_id, label: labels.get(t.topic_id) ?? t.label, top_words: t.top_words, documents: t.documents, ...stamp })),
    );
    await context.write(
      "topic_assignments",
      result.assignments.map((a) => ({ meeting_id: a.id, meeting_title: titles.get(a.id) ?? null, topic_id: a.topic_id, topic_label: labels.get(a.topic_id) ?? null, score: a.score, ...stamp })),
    );
  },
};

const sentimentOverTime: TemplateProgram = {
  stream: "meetings",
  async run(context) {
    const granularity = context.values.granularity === "day" ? "day" : "week";
    const periods = new SentimentPeriods({ granularity, speakers: (context.values.speakers ?? "all") as SpeakerFilter, splitBySide: context.values.split_by_side === true });
    context.step("score_lines", "by_period");
    for await (const { lines } of eachMeeting(context)) periods.add(lines);
    context.step("shares", "sentiment_table");
    await context.write("sentiment", periods.result().map((p) => ({ ...p, granularity, ...context.stamp })));
  },
};

const actionItemsProgram: TemplateProgram = {
  stream: "meetings",
  async run(context) {
    const cuePhrases = list(context.values.cue_phrases);
    context.step("match_cues", "owners", "action_table");
    for await (const { meeting, lines } of eachMeeting(context)) {
      await context.write("action_items", titled(actionItems(lines, { cuePhrases }), meeting).map((i) => ({ ...i, ...context.stamp })));
    }
  },
};

const speakerMetricsProgram: TemplateProgram = {
  stream: "meetings",
  async run(context) {
    const monologueThresholdMs = Number(context.values.monologue_threshold_seconds) * 1000;
    context.step("turns", "talk_ratio", "monologues", "questions", "metrics_table");
    for await (const { lines } of eachMeeting(context)) {
      await context.write("speaker_metrics", speakerMetrics(lines, { monologueThresholdMs }).map((m) => ({ ...m, ...context.stamp })));
    }
  },
};

const keywordTracker: TemplateProgram = {
  stream: "meetings",
  async run(context) {
    const keywords = list(context.values.keywords);
    const caseSensitive = context.values.case_sensitive === true;
    const sums = new Map(uniquePhrases(keywords, caseSensitive).map((k) => [k, { mentions: 0, meetings: new Set<string>(), sentiment: 0, first: Infinity, last: -Infinity }]));
    context.step("match_keywords", "line_sentiment", "mention_counts", "keyword_tables");
    for await (const { meeting, lines } of eachMeeting(context)) {
      const mentions = keywordMentions(lines, { keywords, caseSensitive });
      for (const m of mentions) {
        const sum = sums.get(m.keyword)!;
        sum.mentions += 1;
        sum.meetings.add(m.meeting_id);
        sum.sentiment += m.sentiment;
        sum.first = Math.min(sum.first, m.spoken_at.getTime());
        sum.last = Math.max(sum.last, m.spoken_at.getTime());
      }
      await context.write("keyword_mentions", titled(mentions, meeting).map((m) => ({ ...m, ...context.stamp })));
    }
    const summary = keywords.map((keyword) => {
      const sum = sums.get(keyword);
      const n = sum?.mentions ?? 0;
      return {
        keyword,
        mentions: n,
        meetings: sum?.meetings.size ?? 0,
        avg_sentiment: n ? round4(sum!.sentiment / n) : 0,
        first_mention_at: n ? new Date(sum!.first) : null,
        last_mention_at: n ? new Date(sum!.last) : null,
        ...context.stamp,
      };
    });
    await context.write("keyword_summary", summary);
  },
};

const dealRisk: TemplateProgram = {
  stream: "meetings",
  async run(context) {
    const risk = new DealRiskBuilder({
      competitorKeywords: list(context.values.competitor_keywords),
      riskKeywords: list(context.values.risk_keywords),
      threshold: Number(context.values.threshold),
    });
    context.step("sentiment", "mentions", "commitments");
    for await (const { meeting, lines } of eachMeeting(context)) risk.add(meeting, lines);
    context.step("account_signals", "risk_score");
    await context.write("deal_risk", risk.result().map((r) => ({ ...r, ...context.stamp })));
  },
};

export const TRANSCRIPT_PROGRAMS: Record<string, TemplateProgram> = {
  topic_modeling: topicModeling,
  sentiment_over_time: sentimentOverTime,
  action_items: actionItemsProgram,
  speaker_metrics: speakerMetricsProgram,
  keyword_tracker: keywordTracker,
  deal_risk: dealRisk,
};
