/**
 * The local analysis library the transform templates run: pure, synchronous, deterministic functions over
 * in-memory transcript lines and meetings (no I/O). Ratios and scores are rounded to 4 decimals.
 */
export type { Line, MeetingMeta } from "./types.js";
export { round4, phraseRegExp } from "./types.js";
export { tokenize, stem, isStopword, CONVERSATIONAL_STOPWORDS, type TokenizeOptions } from "./text.js";
export { topicModel, TOPIC_MODEL_DEFAULTS, type Topic, type TopicModelOptions, type TopicModelResult } from "./topics.js";
export { sentimentOf, sentimentOverTime, periodStart, type SentimentResult, type SentimentPeriod, type SpeakerFilter, type SpeakerSide } from "./sentiment.js";
export { actionItems, dueHint, DEFAULT_ACTION_CUES, type ActionItem } from "./action-items.js";
export { speakerMetrics, countQuestions, type SpeakerMetrics } from "./speakers.js";
export { keywordMentions, type KeywordMention } from "./keywords.js";
export {
  dealRisk,
  riskLevel,
  DEFAULT_RISK_KEYWORDS,
  DEFAULT_COMPETITORS,
  RISK_WEIGHTS,
  type RiskOptions,
  type DealRisk,
} from "./risk.js";
