import { actionItems, dealRisk, keywordMentions, round4, sentimentOverTime, speakerMetrics, topicModel, type Line, type MeetingMeta } from "./analysis/index.js";
import { HOSTED_PROVIDER, type TemplateDefinition } from "./catalogue.js";
import { hostedProvider, HOSTED_UNAVAILABLE, labelTopicsWithHostedModel } from "./provider.js";
import type { Row } from "../integrations/destinations/writer.js";

/**
 * Executes a template's pipeline (primitives → signals → outcome) over the
 * transcripts read from the warehouse, through the analysis library. Each
 * output is a table suffix, its key columns and its rows; every row carries
 * the run's id and time so that readers can tell runs apart.
 */
export interface PipelineOutput {
  suffix: string;
  key: string[];
  rows: Row[];
}

/** A failure a retry cannot fix (bad stored inputs, a provider this runner cannot call). */
export class PipelineConfigError extends Error {}

type Speakers = "all" | "internal" | "external";
const affiliationIs = (line: Line, who: Speakers) => who === "all" || (line.affiliation ?? "").toLowerCase() === who;
const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

/**
 * The words of people's and companies' names (speakers, accounts, and the host company a title
 * names before " / "): a meeting's topic is what is discussed, not who discusses it.
 */
function nameWords(data: { meetings: MeetingMeta[]; lines: Line[] }): string[] {
  const words = new Set<string>();
  const add = (text: string | null | undefined) => {
    for (const word of (text ?? "").toLowerCase().split(/[^a-z']+/)) if (word.length > 1) words.add(word);
  };
  for (const m of data.meetings) {
    add(m.account);
    if (m.title.includes(" / ")) add(m.title.split(" / ")[0]);
  }
  for (const line of data.lines) add(line.speaker_name);
  return [...words];
}

export function executePipeline(
  d: TemplateDefinition,
  values: Record<string, unknown>,
  data: { meetings: MeetingMeta[]; lines: Line[] },
  run: { id: string; at: Date },
): PipelineOutput[] {
  const stamp = { run_id: run.id, computed_at: run.at };
  const titles = new Map(data.meetings.map((m) => [m.meeting_id, m.title]));
  switch (d.id) {
    case "topic_modeling": {
      const speakers = (values.speakers ?? "all") as Speakers;
      const byMeeting = new Map<string, string[]>();
      for (const line of data.lines) {
        if (!affiliationIs(line, speakers)) continue;
        const texts = byMeeting.get(line.meeting_id) ?? [];
        texts.push(line.text);
        byMeeting.set(line.meeting_id, texts);
      }
      const documents = [...byMeeting].map(([id, texts]) => ({ id, text: texts.join("\n") }));
      const result = topicModel(documents, {
        numTopics: Number(values.num_topics),
        topWords: Number(values.top_words),
        seed: Number(values.seed ?? 42),
        extraStopwords: [...list(values.extra_stopwords), ...nameWords(data)],
        minDocumentWords: Number(values.min_document_words ?? 20),
      });
      const labels = new Map(result.topics.map((t) => [t.topic_id, t.label]));
      return [
        { suffix: "topics", key: ["topic_id"], rows: result.topics.map((t) => ({ topic_id: t.topic_id, label: t.label, top_words: t.top_words, documents: t.documents, ...stamp })) },
        {
          suffix: "topic_assignments",
          key: ["meeting_id"],
          rows: result.assignments.map((a) => ({ meeting_id: a.id, meeting_title: titles.get(a.id) ?? null, topic_id: a.topic_id, topic_label: labels.get(a.topic_id) ?? null, score: a.score, ...stamp })),
        },
      ];
    }
    case "sentiment_over_time": {
      const granularity = values.granularity === "day" ? "day" : "week";
      const periods = sentimentOverTime(data.lines, { granularity, speakers: (values.speakers ?? "all") as Speakers });
      return [{ suffix: "sentiment", key: ["period_start"], rows: periods.map((p) => ({ ...p, granularity, ...stamp })) }];
    }
    case "action_items": {
      const items = actionItems(data.lines, { cuePhrases: list(values.cue_phrases) });
      return [{ suffix: "action_items", key: ["utterance_id"], rows: items.map((i) => ({ ...i, meeting_title: titles.get(i.meeting_id) ?? null, ...stamp })) }];
    }
    case "speaker_metrics": {
      const metrics = speakerMetrics(data.lines, { monologueThresholdMs: Number(values.monologue_threshold_seconds) * 1000 });
      return [{ suffix: "speaker_metrics", key: ["meeting_id", "speaker_id"], rows: metrics.map((m) => ({ ...m, ...stamp })) }];
    }
    case "keyword_tracker": {
      const keywords = list(values.keywords);
      const mentions = keywordMentions(data.lines, { keywords, caseSensitive: values.case_sensitive === true });
      const summary = keywords.map((keyword) => {
        const own = mentions.filter((m) => m.keyword === keyword);
        const times = own.map((m) => m.spoken_at.getTime());
        return {
          keyword,
          mentions: own.length,
          meetings: new Set(own.map((m) => m.meeting_id)).size,
          avg_sentiment: own.length ? round4(own.reduce((n, m) => n + m.sentiment, 0) / own.length) : 0,
          first_mention_at: times.length ? new Date(Math.min(...times)) : null,
          last_mention_at: times.length ? new Date(Math.max(...times)) : null,
          ...stamp,
        };
      });
      return [
        { suffix: "keyword_mentions", key: ["utterance_id", "keyword"], rows: mentions.map((m) => ({ ...m, meeting_title: titles.get(m.meeting_id) ?? null, ...stamp })) },
        { suffix: "keyword_summary", key: ["keyword"], rows: summary },
      ];
    }
    case "deal_risk": {
      const risks = dealRisk(data.meetings, data.lines, {
        competitorKeywords: list(values.competitor_keywords),
        riskKeywords: list(values.risk_keywords),
        threshold: Number(values.threshold),
      });
      return [{ suffix: "deal_risk", key: ["account"], rows: risks.map((r) => ({ ...r, ...stamp })) }];
    }
    default:
      throw new PipelineConfigError(`The template ${d.id} has no pipeline on this server.`);
  }
}

/**
 * The hosted part of a pipeline, after the local one: with provider
 * hosted_llm, topic_modeling's topics are named by the hosted model (the
 * label columns of both tables are replaced).
 */
export async function applyHostedModel(d: TemplateDefinition, values: Record<string, unknown>, outputs: PipelineOutput[]): Promise<void> {
  if (values.provider !== HOSTED_PROVIDER || d.id !== "topic_modeling") return;
  const provider = hostedProvider();
  if (!provider) throw new PipelineConfigError(HOSTED_UNAVAILABLE);
  const topics = outputs.find((o) => o.suffix === "topics")!;
  const labels = await labelTopicsWithHostedModel(
    provider,
    topics.rows.map((r) => ({ topic_id: Number(r.topic_id), words: (r.top_words as { word: string }[]).map((w) => w.word) })),
  );
  for (const row of topics.rows) row.label = labels.get(Number(row.topic_id)) ?? row.label;
  for (const row of outputs.find((o) => o.suffix === "topic_assignments")!.rows) row.topic_label = labels.get(Number(row.topic_id)) ?? row.topic_label;
}
