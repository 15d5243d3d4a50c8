import { DEFAULT_TEMPLATE_ID, optionLabel, TRANSFORM_TYPE_LABELS, type Template, type TemplateCategory, type TemplateInput } from "../../contract/transforms.js";
import { warehouseKindsInWords } from "../../contract/integrations/destination-words.js";
import type { WarehouseTarget } from "../integrations/destinations/plugin.js";
import { setupStepsFor } from "./setup-steps.js";
import { hostedProvider } from "./provider.js";
import { DEFAULT_ACTION_CUES } from "./analysis/index.js";
import { EMAIL_CATEGORY_ID, emailDefinitions } from "./catalogue-email.js";
import type { ChartDeclaration } from "./charts/types.js";
import { RISK_LEVEL_LABELS, SPEAKER_SIDE_LABELS } from "../../contract/labels.js";

/**
 * The template catalogue, as data: categories, templates (inputs, setup steps,
 * flowchart, outputs) and each template's pipeline description (primitives →
 * signals → outcome) built from its input values. The runner executes the
 * pipelines in backend/transforms/pipelines.ts through the analysis library.
 * See docs/decisions/2026-11-22-transforms-and-templates.md.
 */

export const CATEGORIES: TemplateCategory[] = [
  { id: "conversation_intelligence", name: "Conversation intelligence" },
  { id: "sales_insights", name: "Sales insights" },
  { id: "coaching", name: "Coaching" },
  { id: EMAIL_CATEGORY_ID, name: "E-mail insights" },
];

/** The pipeline a preview shows and a run executes (the spec's template_config.pipeline). */
export interface Pipeline {
  primitives: { name: string; type: string; parameters: { provider: string; model: string } & Record<string, unknown> }[];
  signals: { aggregations: ({ name: string; function: string } & Record<string, unknown>)[] };
  outcome: { model_type: string } & Record<string, unknown>;
}

export interface OutputTable {
  /** The table is `<prefix>_<first 8 hex of the transform id>_<suffix>`. */
  suffix: string;
  /** What the results page calls it ("Topics"). */
  label: string;
  description: string;
  /** Key columns: a re-run replaces these rows, never duplicates them. */
  key: string[];
  /**
   * The order its rows are read in on the results page and in its CSV, before the key ("-risk_score": the riskiest
   * first); without it, the key's order.
   */
  order?: string[];
}

interface Node {
  id: string;
  label: string;
  tooltip: string;
  kind: "data" | "primitive" | "signal" | "outcome";
}

export interface TemplateDefinition {
  id: string;
  name: string;
  description: string;
  category: string;
  /** The transform_type a transform made from it gets (and its label in GET /transforms/config). */
  transformType: string;
  label: string;
  inputs: Record<string, TemplateInput>;
  requirements: string[];
  outputs: OutputTable[];
  nodes: Node[];
  edges: [string, string][];
  /** The charts its results page draws, each from one of its outputs (issue 54; backend/transforms/charts/). */
  charts: ChartDeclaration[];
  /** False: the wizard shows the two default steps (§4). */
  customSetup: boolean;
  /** What it reads, in the setup steps' words (absent: the transcripts, in the meetings and transcript_utterances tables). */
  reads?: { records: string; tables: string };
  pipeline(values: Record<string, unknown>): Pipeline;
}

/* ---- shared inputs -------------------------------------------------------------------------------- */

export const LOCAL_PROVIDER = "local";
export const HOSTED_PROVIDER = "hosted_llm";

/** Topic labels: the local model's top words, or a hosted LLM's name for them (only when one is configured). */
function providerInput(): TemplateInput {
  const hosted = hostedProvider();
  return {
    type: "enum",
    enum: [LOCAL_PROVIDER, HOSTED_PROVIDER],
    default: LOCAL_PROVIDER,
    required: true,
    label: "Topic labels by",
    group: "primitives",
    description: hosted
      ? `${optionLabel(LOCAL_PROVIDER)}: each topic is labelled with its top words. ${optionLabel(HOSTED_PROVIDER)}: the configured hosted model (${hosted.model}) names each topic from its top words (only the words are sent, never transcripts).`
      : `${optionLabel(LOCAL_PROVIDER)}: each topic is labelled with its top words. ${optionLabel(HOSTED_PROVIDER)} is unavailable: no hosted model is configured on this server.`,
  };
}

const speakersInput: TemplateInput = {
  type: "enum",
  enum: ["all", "internal", "external"],
  default: "all",
  required: true,
  label: "Speakers",
  group: "signals",
  description: "Whose lines count: everyone, only your team (Internal) or only customers (External).",
};

export const DEFAULT_COMPETITORS = ["Fivetran", "Airbyte", "Stitch", "Segment", "Hevo"];
export const DEFAULT_RISK_KEYWORDS = ["cancel", "cost cutting", "evaluating whether to renew", "lower than we hoped", "frustrating", "sync failures", "hard sell"];
export const DEFAULT_CUE_PHRASES = [...DEFAULT_ACTION_CUES];

const model = (values: Record<string, unknown>, local: string) => {
  if (values.provider === HOSTED_PROVIDER) return { provider: HOSTED_PROVIDER, model: hostedProvider()?.model ?? "unavailable" };
  return { provider: LOCAL_PROVIDER, model: local };
};

const TRANSCRIPTS: Node = { id: "transcripts", label: "Synced transcripts", kind: "data", tooltip: "Rows of meetings and transcript_utterances that the connector synced into its destination warehouse, filtered by the transform's file types." };

/* ---- the templates -------------------------------------------------------------------------------- */

/** Built per call: the provider inputs' descriptions follow the environment (a hosted LLM configured or not). */
const definitions = (): TemplateDefinition[] => [
  {
    id: "topic_modeling",
    name: "Topic modeling",
    description: "Groups meetings by what they are about: TF-IDF vectors of each meeting's transcript clustered with k-means, with the top words of each topic.",
    category: "conversation_intelligence",
    transformType: "topic_modeling",
    label: TRANSFORM_TYPE_LABELS.topic_modeling,
    inputs: {
      num_topics: { type: "integer", min: 2, max: 20, default: 6, required: true, label: "Number of topics", group: "general", description: "How many topics to find (2 to 20)." },
      top_words: { type: "integer", min: 3, max: 20, default: 8, required: true, label: "Words per topic", group: "general", description: "How many top words describe each topic (3 to 20)." },
      provider: providerInput(),
      extra_stopwords: { type: "list[string]", default: [], required: false, label: "Extra stop words", group: "primitives", description: "Comma-separated words to ignore besides the usual English stop words (e.g. your company name)." },
      speakers: speakersInput,
      min_document_words: { type: "integer", min: 1, max: 1000, default: 20, required: false, label: "Minimum words per meeting", group: "signals", description: "Meetings with fewer words (after stop words) are left out." },
      seed: { type: "integer", min: 0, max: 2147483647, default: 42, required: false, hidden: true, label: "Seed", group: "outcome", description: "Seed of the k-means initialisation, so that re-runs give the same topics." },
    },
    requirements: [`A connector that has synced transcripts into a warehouse destination (${warehouseKindsInWords()})`, "Read access to the meetings and transcript_utterances tables", "Write access for the result tables"],
    outputs: [
      { suffix: "topics", label: "Topics", description: "One row per topic: label, top words with weights, number of meetings.", key: ["topic_id"], order: ["-documents"] },
      { suffix: "topic_assignments", label: "Topic per meeting", description: "One row per meeting: its topic and how strongly it belongs.", key: ["meeting_id"], order: ["topic_id", "-score"] },
    ],
    charts: [
      {
        id: "topic_share",
        title: "Share of meetings per topic",
        table: "topics",
        description: "Each topic, labelled with its top words, and the share of the analysed meetings it holds, the largest first.",
        mark: "bar",
        x: { field: "label", title: "Topic", type: "category" },
        y: { field: "documents", title: "Share of meetings", type: "quantity", aggregate: "share", unit: "percent" },
      },
    ],
    nodes: [
      TRANSCRIPTS,
      { id: "tokenize", label: "Tokenize and stem", kind: "primitive", tooltip: "Primitive: each meeting's lines become one document; words are lower-cased, stop words removed, Porter-stemmed." },
      { id: "cluster", label: "k-means on TF-IDF", kind: "primitive", tooltip: "Primitive (local model kmeans-tfidf): TF-IDF vectors clustered with k-means++ into the chosen number of topics." },
      { id: "topic_words", label: "Top words per topic", kind: "signal", tooltip: "Signal: the highest-weighted words of each cluster centre label the topic." },
      { id: "topic_share", label: "Meetings per topic", kind: "signal", tooltip: "Signal: how many meetings fall in each topic, and each meeting's score." },
      { id: "topic_tables", label: "Topic tables", kind: "outcome", tooltip: "Outcome: the topics and topic_assignments tables in the destination warehouse." },
    ],
    edges: [["transcripts", "tokenize"], ["tokenize", "cluster"], ["cluster", "topic_words"], ["cluster", "topic_share"], ["topic_words", "topic_tables"], ["topic_share", "topic_tables"]],
    customSetup: true,
    pipeline: (v) => ({
      primitives: [
        { name: "meeting_documents", type: "tokenize", parameters: { provider: LOCAL_PROVIDER, model: "porter-stemmer", speakers: v.speakers, extra_stopwords: v.extra_stopwords } },
        { name: "topic_clusters", type: "topic_model", parameters: { provider: LOCAL_PROVIDER, model: "kmeans-tfidf", num_topics: v.num_topics, top_words: v.top_words, seed: v.seed, min_document_words: v.min_document_words } },
        { name: "topic_labels", type: "labeling", parameters: model(v, "top-words") },
      ],
      signals: { aggregations: [{ name: "topic_words", function: "top_weighted_terms" }, { name: "topic_share", function: "count_by_topic" }] },
      outcome: { model_type: "topic_summary", tables: ["topics", "topic_assignments"] },
    }),
  },
  {
    id: "sentiment_over_time",
    name: "Sentiment over time",
    description: "Scores every transcript line with the AFINN-165 lexicon and tracks average sentiment and the share of positive and negative lines per day or week.",
    category: "conversation_intelligence",
    transformType: "sentiment_analysis",
    label: TRANSFORM_TYPE_LABELS.sentiment_analysis,
    inputs: {
      granularity: { type: "enum", enum: ["day", "week"], default: "week", required: true, label: "Period", group: "general", description: "Aggregate per day or per week (weeks start on Monday, UTC)." },
      speakers: speakersInput,
      split_by_side: { type: "boolean", default: false, required: false, label: "Split by side", group: "signals", description: "A line per side over time: our side (internal) and their side (external), instead of one for everyone." },
    },
    requirements: [`A connector that has synced transcripts into a warehouse destination (${warehouseKindsInWords()})`, "Read access to the transcript_utterances table", "Write access for the result tables"],
    outputs: [{ suffix: "sentiment", label: "Sentiment per period", description: "One row per period (and side, when split by side): meetings, lines, average sentiment, positive and negative shares.", key: ["period_start", "speaker_side"] }],
    charts: [
      {
        id: "sentiment_trend",
        title: "Sentiment over time",
        table: "sentiment",
        description: "The average sentiment score of the meetings' lines in each period (each line the sum of its words' AFINN-165 scores): above 0 leans positive, below 0 negative.",
        mark: "line",
        x: { field: "period_start", title: "Period starting", type: "time", step: "day" },
        y: { field: "avg_sentiment", title: "Average sentiment", type: "quantity", aggregate: "mean", unit: "sentiment" },
        series: { field: "speaker_side", title: "Speakers", colors: { all: "#1d4ed8", internal: "#0d9488", external: "#b45309", unknown: "#64748b" }, labels: SPEAKER_SIDE_LABELS },
      },
    ],
    nodes: [
      TRANSCRIPTS,
      { id: "score_lines", label: "Score each line", kind: "primitive", tooltip: "Primitive (local model afinn-165): each line gets a sentiment score from the AFINN-165 word list." },
      { id: "by_period", label: "Group by period", kind: "signal", tooltip: "Signal: lines grouped by day or week of when they were spoken." },
      { id: "shares", label: "Average and shares", kind: "signal", tooltip: "Signal: average score and the share of positive and negative lines per period." },
      { id: "sentiment_table", label: "Sentiment trend table", kind: "outcome", tooltip: "Outcome: the sentiment table, one row per period." },
    ],
    edges: [["transcripts", "score_lines"], ["score_lines", "by_period"], ["by_period", "shares"], ["shares", "sentiment_table"]],
    customSetup: true,
    pipeline: (v) => ({
      primitives: [{ name: "line_sentiment", type: "sentiment", parameters: { provider: LOCAL_PROVIDER, model: "afinn-165", speakers: v.speakers } }],
      signals: { aggregations: [{ name: "period_sentiment", function: "mean_by_period", granularity: v.granularity }, { name: "polarity_shares", function: "share_positive_negative" }] },
      outcome: { model_type: "time_series", tables: ["sentiment"] },
    }),
  },
  {
    id: "action_items",
    name: "Action items",
    description: "Finds the commitments made in meetings (\"next step\", \"I will…\") with who made them and any due date mentioned.",
    category: "sales_insights",
    transformType: "action_items",
    label: TRANSFORM_TYPE_LABELS.action_items,
    inputs: {
      cue_phrases: { type: "list[string]", default: DEFAULT_CUE_PHRASES, required: true, label: "Cue phrases", group: "primitives", description: "Comma-separated phrases that mark a commitment (case-insensitive)." },
    },
    requirements: [`A connector that has synced transcripts into a warehouse destination (${warehouseKindsInWords()})`, "Read access to the transcript_utterances table", "Write access for the result tables"],
    outputs: [{ suffix: "action_items", label: "Action items", description: "One row per commitment: meeting, line, owner, when it was said, text, cue and due hint.", key: ["utterance_id"], order: ["spoken_at"] }],
    charts: [
      {
        id: "items_per_owner",
        title: "Action items per owner",
        table: "action_items",
        description: "How many commitments each person made in the analysed meetings, the most first.",
        mark: "bar",
        x: { field: "owner_name", title: "Owner", type: "category" },
        y: { field: "utterance_id", title: "Action items", type: "quantity", aggregate: "count" },
      },
      {
        id: "items_per_week",
        title: "Action items per week",
        table: "action_items",
        description: "How many commitments were made in the analysed meetings, week by week.",
        mark: "line",
        x: { field: "spoken_at", title: "Week starting", type: "time", step: "week" },
        y: { field: "utterance_id", title: "Action items", type: "quantity", aggregate: "count" },
      },
    ],
    nodes: [
      TRANSCRIPTS,
      { id: "match_cues", label: "Match cue phrases", kind: "primitive", tooltip: "Primitive (local model cue-phrase-matcher): lines containing one of the cue phrases." },
      { id: "owners", label: "Owner and due date", kind: "signal", tooltip: "Signal: the speaker owns the item; dates and weekdays in the line become the due hint." },
      { id: "action_table", label: "Action items table", kind: "outcome", tooltip: "Outcome: the action_items table, one row per commitment." },
    ],
    edges: [["transcripts", "match_cues"], ["match_cues", "owners"], ["owners", "action_table"]],
    customSetup: true,
    pipeline: (v) => ({
      primitives: [{ name: "commitment_lines", type: "phrase_match", parameters: { provider: LOCAL_PROVIDER, model: "cue-phrase-matcher", cue_phrases: v.cue_phrases } }],
      signals: { aggregations: [{ name: "owner", function: "speaker_of_line" }, { name: "due_hint", function: "date_mentions" }] },
      outcome: { model_type: "item_list", tables: ["action_items"] },
    }),
  },
  {
    id: "speaker_metrics",
    name: "Speaker metrics",
    description: "Talk ratio, longest monologue and questions asked per speaker and meeting: the basics of call coaching.",
    category: "coaching",
    transformType: "speaker_metrics",
    label: TRANSFORM_TYPE_LABELS.speaker_metrics,
    inputs: {
      monologue_threshold_seconds: { type: "integer", min: 5, max: 3600, default: 60, required: true, label: "Long monologue (seconds)", group: "signals", description: "A speaker talking this long without interruption counts as a long monologue (5 to 3600)." },
    },
    requirements: [`A connector that has synced transcripts into a warehouse destination (${warehouseKindsInWords()})`, "Read access to the transcript_utterances table", "Write access for the result tables"],
    outputs: [{ suffix: "speaker_metrics", label: "Speakers per meeting", description: "One row per meeting and speaker: lines, talk time, talk ratio, longest monologue, long monologues, questions asked.", key: ["meeting_id", "speaker_id"] }],
    charts: [
      {
        id: "talk_ratio",
        title: "Talk ratio per speaker",
        table: "speaker_metrics",
        description: "Each speaker's average share of the talk time of the meetings they spoke in, the most talkative first.",
        mark: "bar",
        x: { field: "speaker_name", title: "Speaker", type: "category" },
        y: { field: "talk_ratio", title: "Average talk ratio", type: "quantity", aggregate: "mean", unit: "percent" },
      },
      {
        id: "long_monologues",
        title: "Long monologues per speaker",
        table: "speaker_metrics",
        description: "How many times each speaker talked past the monologue threshold, over all the meetings.",
        mark: "bar",
        x: { field: "speaker_name", title: "Speaker", type: "category" },
        y: { field: "monologues_over_threshold", title: "Long monologues", type: "quantity", aggregate: "sum" },
        none: "None: no speaker talked past the monologue threshold in these meetings.",
      },
    ],
    nodes: [
      TRANSCRIPTS,
      { id: "turns", label: "Speaker turns", kind: "primitive", tooltip: "Primitive (local model turn-taking): consecutive lines of one speaker form a turn." },
      { id: "talk_ratio", label: "Talk ratio", kind: "signal", tooltip: "Signal: each speaker's share of the meeting's talk time." },
      { id: "monologues", label: "Longest monologue", kind: "signal", tooltip: "Signal: the longest turn, and how many turns exceed the threshold." },
      { id: "questions", label: "Questions asked", kind: "signal", tooltip: "Signal: lines ending in a question mark." },
      { id: "metrics_table", label: "Speaker metrics table", kind: "outcome", tooltip: "Outcome: the speaker_metrics table, one row per meeting and speaker." },
    ],
    edges: [["transcripts", "turns"], ["turns", "talk_ratio"], ["turns", "monologues"], ["turns", "questions"], ["talk_ratio", "metrics_table"], ["monologues", "metrics_table"], ["questions", "metrics_table"]],
    customSetup: false,
    pipeline: (v) => ({
      primitives: [{ name: "speaker_turns", type: "turn_segmentation", parameters: { provider: LOCAL_PROVIDER, model: "turn-taking" } }],
      signals: {
        aggregations: [
          { name: "talk_ratio", function: "share_of_talk_time" },
          { name: "longest_monologue", function: "max_turn_length", threshold_seconds: v.monologue_threshold_seconds },
          { name: "questions_asked", function: "count_questions" },
        ],
      },
      outcome: { model_type: "speaker_scorecard", tables: ["speaker_metrics"] },
    }),
  },
  {
    id: "keyword_tracker",
    name: "Keyword tracker",
    description: "Tracks mentions of the words you care about (competitors by default) with who said them, when, and the sentiment of the line.",
    category: "sales_insights",
    transformType: "keyword_tracking",
    label: TRANSFORM_TYPE_LABELS.keyword_tracking,
    inputs: {
      keywords: { type: "list[string]", default: DEFAULT_COMPETITORS, required: true, label: "Keywords", group: "general", description: "Comma-separated words or phrases to track, e.g. your competitors." },
      case_sensitive: { type: "boolean", default: false, required: false, label: "Case-sensitive", group: "primitives", description: "Match the keywords' capitalisation exactly." },
    },
    requirements: [`A connector that has synced transcripts into a warehouse destination (${warehouseKindsInWords()})`, "Read access to the transcript_utterances table", "Write access for the result tables"],
    outputs: [
      { suffix: "keyword_mentions", label: "Keyword mentions", description: "One row per mention: meeting, line, keyword, speaker, time, sentiment of the line.", key: ["utterance_id", "keyword"], order: ["spoken_at"] },
      { suffix: "keyword_summary", label: "Keywords", description: "One row per keyword: mentions, meetings, average sentiment, first and last mention.", key: ["keyword"], order: ["-mentions"] },
    ],
    charts: [
      {
        id: "mentions_per_week",
        title: "Mentions per keyword over time",
        table: "keyword_mentions",
        description: "How many times each tracked keyword was said, week by week.",
        mark: "line",
        x: { field: "spoken_at", title: "Week starting", type: "time", step: "week" },
        y: { field: "utterance_id", title: "Mentions", type: "quantity", aggregate: "count" },
        series: { field: "keyword", title: "Keyword" },
      },
      {
        id: "mentions_per_keyword",
        title: "Mentions per keyword",
        table: "keyword_summary",
        description: "How many times each tracked keyword was said in all, the most first.",
        mark: "bar",
        x: { field: "keyword", title: "Keyword", type: "category" },
        y: { field: "mentions", title: "Mentions", type: "quantity", aggregate: "sum" },
      },
    ],
    nodes: [
      TRANSCRIPTS,
      { id: "match_keywords", label: "Match keywords", kind: "primitive", tooltip: "Primitive (local model keyword-matcher): whole-word matches of each keyword in each line." },
      { id: "line_sentiment", label: "Line sentiment", kind: "primitive", tooltip: "Primitive (afinn-165): the sentiment of the line with the mention." },
      { id: "mention_counts", label: "Mentions per keyword", kind: "signal", tooltip: "Signal: mentions, meetings and average sentiment per keyword." },
      { id: "keyword_tables", label: "Keyword tables", kind: "outcome", tooltip: "Outcome: the keyword_mentions and keyword_summary tables." },
    ],
    edges: [["transcripts", "match_keywords"], ["match_keywords", "line_sentiment"], ["line_sentiment", "mention_counts"], ["mention_counts", "keyword_tables"]],
    customSetup: true,
    pipeline: (v) => ({
      primitives: [
        { name: "keyword_matches", type: "keyword_match", parameters: { provider: LOCAL_PROVIDER, model: "keyword-matcher", keywords: v.keywords, case_sensitive: v.case_sensitive } },
        { name: "mention_sentiment", type: "sentiment", parameters: { provider: LOCAL_PROVIDER, model: "afinn-165" } },
      ],
      signals: { aggregations: [{ name: "mentions_per_keyword", function: "count_by_keyword" }, { name: "keyword_sentiment", function: "mean_sentiment_by_keyword" }] },
      outcome: { model_type: "mention_tracker", tables: ["keyword_mentions", "keyword_summary"] },
    }),
  },
  {
    id: "deal_risk",
    name: "Deal risk",
    description: "Scores each account's risk from its meetings: sentiment and its trend, competitor and risk mentions, open action items and how much the customer talks.",
    category: "sales_insights",
    transformType: "deal_risk",
    label: TRANSFORM_TYPE_LABELS.deal_risk,
    inputs: {
      threshold: { type: "integer", min: 0, max: 100, default: 60, required: true, label: "High-risk score", group: "outcome", description: "Accounts scoring at or above this (0 to 100) are high risk." },
      competitor_keywords: { type: "list[string]", default: DEFAULT_COMPETITORS, required: true, label: "Competitors", group: "signals", description: "Comma-separated competitor names." },
      risk_keywords: { type: "list[string]", default: DEFAULT_RISK_KEYWORDS, required: true, label: "Risk phrases", group: "signals", description: "Comma-separated phrases that signal churn or a lost deal." },
    },
    requirements: [`A connector that has synced transcripts and meetings (with accounts) into a warehouse destination (${warehouseKindsInWords()})`, "Read access to the meetings and transcript_utterances tables", "Write access for the result tables"],
    outputs: [{ suffix: "deal_risk", label: "Deal risk per account", description: "One row per account: meetings, sentiment and trend, mentions, open action items, external talk ratio, risk score, level and reasons.", key: ["account"], order: ["-risk_score"] }],
    charts: [
      {
        id: "risk_ranking",
        title: "Accounts by deal risk",
        table: "deal_risk",
        description: "Each account's risk score, the riskiest first, coloured by its risk level.",
        mark: "bar",
        x: { field: "account", title: "Account", type: "category" },
        y: { field: "risk_score", title: "Risk score", type: "quantity", aggregate: "sum" },
        series: { field: "risk_level", title: "Risk level", colors: { high: "#b91c1c", medium: "#d97706", low: "#15803d" }, labels: RISK_LEVEL_LABELS },
        limit: 15,
      },
    ],
    nodes: [
      TRANSCRIPTS,
      { id: "sentiment", label: "Line sentiment", kind: "primitive", tooltip: "Primitive (afinn-165): sentiment of every line." },
      { id: "mentions", label: "Competitor and risk mentions", kind: "primitive", tooltip: "Primitive (keyword-matcher): lines naming a competitor or a risk phrase." },
      { id: "commitments", label: "Action items", kind: "primitive", tooltip: "Primitive (cue-phrase-matcher): commitments still open." },
      { id: "account_signals", label: "Per-account signals", kind: "signal", tooltip: "Signal: per account, average sentiment and its trend, mention counts, open items, external talk ratio." },
      { id: "risk_score", label: "Risk score", kind: "outcome", tooltip: "Outcome (risk-score-v1): a 0–100 score, a level (low, medium, high) and the reasons, in the deal_risk table." },
    ],
    edges: [["transcripts", "sentiment"], ["transcripts", "mentions"], ["transcripts", "commitments"], ["sentiment", "account_signals"], ["mentions", "account_signals"], ["commitments", "account_signals"], ["account_signals", "risk_score"]],
    customSetup: true,
    pipeline: (v) => ({
      primitives: [
        { name: "line_sentiment", type: "sentiment", parameters: { provider: LOCAL_PROVIDER, model: "afinn-165" } },
        { name: "mentions", type: "keyword_match", parameters: { provider: LOCAL_PROVIDER, model: "keyword-matcher", competitor_keywords: v.competitor_keywords, risk_keywords: v.risk_keywords } },
        { name: "commitments", type: "phrase_match", parameters: { provider: LOCAL_PROVIDER, model: "cue-phrase-matcher" } },
      ],
      signals: {
        aggregations: [
          { name: "sentiment_trend", function: "slope_by_account" },
          { name: "mention_counts", function: "count_by_account" },
          { name: "external_talk_ratio", function: "share_of_talk_time" },
        ],
      },
      outcome: { model_type: "risk_score", provider: LOCAL_PROVIDER, model: "risk-score-v1", threshold: v.threshold, tables: ["deal_risk"] },
    }),
  },
  ...emailDefinitions(),
];

export function templateDefinition(id: string): TemplateDefinition | null {
  return definitions().find((d) => d.id === id) ?? null;
}

export function allDefinitions(): TemplateDefinition[] {
  return definitions();
}

export const defaultTemplateId = DEFAULT_TEMPLATE_ID;

/* ---- flowchart -------------------------------------------------------------------------------------- */

const SHAPES: Record<Node["kind"], [string, string]> = { data: ["[(", ")]"], primitive: ["[", "]"], signal: ["([", "])"], outcome: ["{{", "}}"] };

/** A mermaid flowchart of the template: data → primitives → signals → outcome; node ids are the tooltips' keys. */
export function mermaidOf(d: TemplateDefinition): string {
  const lines = ["flowchart LR"];
  for (const kind of ["data", "primitive", "signal", "outcome"] as const) {
    const nodes = d.nodes.filter((n) => n.kind === kind);
    if (nodes.length === 0) continue;
    lines.push(`  subgraph ${kind}s["${kind === "data" ? "Data" : kind[0]!.toUpperCase() + kind.slice(1) + "s"}"]`);
    for (const n of nodes) lines.push(`    ${n.id}${SHAPES[kind][0]}"${n.label}"${SHAPES[kind][1]}`);
    lines.push("  end");
  }
  for (const [from, to] of d.edges) lines.push(`  ${from} --> ${to}`);
  for (const kind of ["primitive", "signal", "outcome"] as const) {
    const ids = d.nodes.filter((n) => n.kind === kind).map((n) => n.id);
    if (ids.length) lines.push(`  class ${ids.join(",")} ${kind}`);
  }
  return lines.join("\n");
}

export { RESULTS_PREFIX_INPUT, requirementInputsFor, setupStepsFor, type WarehouseTarget } from "./setup-steps.js";

/** The template as the API answers it. */
export function toTemplate(d: TemplateDefinition, target: WarehouseTarget | null = null): Template {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    category: d.category,
    mermaid_code: mermaidOf(d),
    setup_steps: setupStepsFor(d, target),
    inputs: d.inputs,
    requirements: d.requirements,
    outputs: d.outputs.map((o) => ({ table: `tx_<transform>_${o.suffix}`, description: o.description })),
    steps: [
      ...d.nodes.filter((n) => n.kind === "primitive").map((n) => `Primitive — ${n.label}: ${n.tooltip.replace(/^Primitive[^:]*: /, "")}`),
      ...d.nodes.filter((n) => n.kind === "signal").map((n) => `Signal — ${n.label}: ${n.tooltip.replace(/^Signal[^:]*: /, "")}`),
      ...d.nodes.filter((n) => n.kind === "outcome").map((n) => `Outcome — ${n.label}: ${n.tooltip.replace(/^Outcome[^:]*: /, "")}`),
    ],
    node_descriptions: Object.fromEntries(d.nodes.map((n) => [n.id, n.tooltip])),
    pipeline: { nodes: d.nodes.map(({ id, label, kind }) => ({ id, label, kind })), edges: d.edges },
  };
}
