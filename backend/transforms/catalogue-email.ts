import { TRANSFORM_TYPE_LABELS, type TemplateInput } from "../../contract/transforms.js";
import { warehouseKindsInWords } from "../../contract/integrations/destination-words.js";
import { TREND_STEP } from "./analysis/email-sentiment.js";
import type { TemplateDefinition } from "./catalogue.js";

/**
 * The e-mail templates (category "E-mail insights"): analyses of the `email_messages` a Gmail connector syncs, run by
 * backend/transforms/programs/email.ts over one thread at a time. catalogue.ts lists them after the transcript ones.
 * It imports only catalogue.ts's types, so either module may load first.
 */

export const EMAIL_CATEGORY_ID = "email_insights";
const LOCAL = "local";

const MESSAGES = {
  id: "messages",
  label: "Synced e-mail messages",
  kind: "data",
  tooltip: "Rows of email_messages that the connector synced into its destination warehouse, read one thread at a time (by thread, then time sent).",
} as const;

const READS = { records: "e-mail messages", tables: "the email_messages table" };

const requirements = () => [
  `A connector that has synced Gmail messages into a warehouse destination (${warehouseKindsInWords()})`,
  "Read access to the email_messages table",
  "Write access for the result tables",
];

const internalDomains: TemplateInput = {
  type: "list[string]",
  default: [],
  required: false,
  label: "Internal domains",
  group: "general",
  description: "Comma-separated domains whose addresses are your side (e.g. acme.com; their subdomains too). Empty: the domain of the mailbox each message was read from.",
};

export function emailDefinitions(): TemplateDefinition[] {
  return [
    {
      id: "email_response_time",
      name: "E-mail response time",
      description: "How fast your side answers and how fast correspondents answer you: the time to every reply in every thread, per thread and per correspondent.",
      category: EMAIL_CATEGORY_ID,
      transformType: "email_response_time",
      label: TRANSFORM_TYPE_LABELS.email_response_time,
      reads: READS,
      inputs: {
        internal_domains: internalDomains,
        max_reply_hours: {
          type: "integer",
          min: 1,
          max: 8760,
          default: 720,
          required: true,
          label: "Longest reply (hours)",
          group: "signals",
          description: "A message sent longer than this after the one before it starts the conversation again: it is not counted as a reply (1 to 8760; 720 is 30 days).",
        },
      },
      requirements: requirements(),
      outputs: [
        {
          suffix: "thread_response_times", label: "Reply times per thread",
          description: "One row per thread: messages, participants, first and last message, replies from your side and from theirs with their average and median reply time in minutes.",
          key: ["thread_id"],
          order: ["-last_message_at"],
        },
        {
          suffix: "correspondent_response_times", label: "Reply times per correspondent",
          description: "One row per external correspondent: messages received from and sent to them, threads, and the average and median minutes of your replies to them and of theirs to you.",
          key: ["correspondent"],
          order: ["-messages_received"],
        },
      ],
      charts: [
        {
          id: "reply_time_by_correspondent",
          title: "Median reply time by correspondent",
          table: "correspondent_response_times",
          description: "For each external correspondent who answered your side, the median time they took to reply, the slowest first.",
          mark: "bar",
          x: { field: "correspondent", title: "Correspondent", type: "category" },
          y: { field: "median_their_reply_minutes", title: "Median reply time", type: "quantity", aggregate: "mean", unit: "minutes" },
        },
      ],
      nodes: [
        MESSAGES,
        { id: "threads", label: "Order each thread", kind: "primitive", tooltip: "Primitive: a thread's messages by time sent; a message without a thread is a thread of its own." },
        { id: "replies", label: "Find the replies", kind: "primitive", tooltip: "Primitive (reply-detector): a message whose sender differs from the previous message's is a reply; its reply time is the time since that message." },
        { id: "sides", label: "Your side or theirs", kind: "primitive", tooltip: "Primitive (address-parser): each sender's address is parsed; addresses at the internal domains (or the mailbox's own) are your side." },
        { id: "per_thread", label: "Reply times per thread", kind: "signal", tooltip: "Signal: replies from each side with their average and median minutes, per thread." },
        { id: "per_correspondent", label: "Reply times per correspondent", kind: "signal", tooltip: "Signal: per external address, messages each way and how fast each side answers the other." },
        { id: "response_tables", label: "Response time tables", kind: "outcome", tooltip: "Outcome: the thread_response_times and correspondent_response_times tables." },
      ],
      edges: [["messages", "threads"], ["threads", "replies"], ["sides", "replies"], ["messages", "sides"], ["replies", "per_thread"], ["replies", "per_correspondent"], ["per_thread", "response_tables"], ["per_correspondent", "response_tables"]],
      customSetup: true,
      pipeline: (v) => ({
        primitives: [
          { name: "thread_order", type: "thread_grouping", parameters: { provider: LOCAL, model: "thread-order" } },
          { name: "replies", type: "reply_detection", parameters: { provider: LOCAL, model: "reply-detector", max_reply_hours: v.max_reply_hours } },
          { name: "sides", type: "address_parsing", parameters: { provider: LOCAL, model: "address-parser", internal_domains: v.internal_domains } },
        ],
        signals: {
          aggregations: [
            { name: "thread_reply_times", function: "mean_and_median_by_thread" },
            { name: "correspondent_reply_times", function: "mean_and_median_by_correspondent" },
          ],
        },
        outcome: { model_type: "response_times", tables: ["thread_response_times", "correspondent_response_times"] },
      }),
    },
    {
      id: "email_sentiment",
      name: "E-mail sentiment over time",
      description: "Scores every message's own words (not what it quotes) with the AFINN-165 lexicon: average sentiment and the share of positive and negative messages per day or week, and each thread's sentiment and trend.",
      category: EMAIL_CATEGORY_ID,
      transformType: "email_sentiment",
      label: TRANSFORM_TYPE_LABELS.email_sentiment,
      reads: READS,
      inputs: {
        granularity: { type: "enum", enum: ["day", "week"], default: "week", required: true, label: "Period", group: "general", description: "Aggregate per day or per week (weeks start on Monday, UTC)." },
        internal_domains: internalDomains,
        senders: {
          type: "enum",
          enum: ["all", "internal", "external"],
          default: "all",
          required: true,
          label: "Senders",
          group: "signals",
          description: "Whose messages count: everyone, only your side (Internal) or only your correspondents (External).",
        },
      },
      requirements: requirements(),
      outputs: [
        { suffix: "email_sentiment", label: "E-mail sentiment per period", description: "One row per period: messages, threads, average sentiment, positive and negative shares.", key: ["period_start"] },
        {
          suffix: "thread_sentiment", label: "Sentiment per thread",
          description: `One row per thread: messages, first and last message, average, first and last sentiment, and its trend (Improving or Worsening when the score moves ${TREND_STEP} or more per message).`,
          key: ["thread_id"],
          order: ["-last_message_at"],
        },
      ],
      charts: [
        {
          id: "email_sentiment_trend",
          title: "E-mail sentiment over time",
          table: "email_sentiment",
          // Not the "sentiment" unit (drawn from −1 to +1): a message's score is the sum of its words' AFINN-165 scores
          // (each −5 to +5), so a week of warm replies averages +3 or more and would be drawn far outside that plot.
          description: "The average sentiment score of the messages in each period (the sum of each message's AFINN-165 word scores): above 0 leans positive, below 0 negative.",
          mark: "line",
          x: { field: "period_start", title: "Period starting", type: "time", step: "day" },
          y: { field: "avg_sentiment", title: "Average sentiment score", type: "quantity", aggregate: "mean", unit: "number" },
        },
      ],
      nodes: [
        MESSAGES,
        { id: "own_words", label: "Each message's own words", kind: "primitive", tooltip: "Primitive: the body up to the first quoted message (\"On … wrote:\", \"> \" lines), so a reply is not scored for what it quotes." },
        { id: "score", label: "Score each message", kind: "primitive", tooltip: "Primitive (local model afinn-165): each message's sentiment is the sum of its words' AFINN-165 scores." },
        { id: "by_period", label: "Group by period", kind: "signal", tooltip: "Signal: messages grouped by the day or week they were sent; average score and shares of positive and negative messages." },
        { id: "by_thread", label: "Trend per thread", kind: "signal", tooltip: "Signal: each thread's average score and the slope of its messages' scores along the thread." },
        { id: "sentiment_tables", label: "Sentiment tables", kind: "outcome", tooltip: "Outcome: the email_sentiment table (one row per period) and the thread_sentiment table." },
      ],
      edges: [["messages", "own_words"], ["own_words", "score"], ["score", "by_period"], ["score", "by_thread"], ["by_period", "sentiment_tables"], ["by_thread", "sentiment_tables"]],
      customSetup: true,
      pipeline: (v) => ({
        primitives: [
          { name: "own_words", type: "quote_stripping", parameters: { provider: LOCAL, model: "reply-quote-stripper" } },
          { name: "message_sentiment", type: "sentiment", parameters: { provider: LOCAL, model: "afinn-165", senders: v.senders, internal_domains: v.internal_domains } },
        ],
        signals: {
          aggregations: [
            { name: "period_sentiment", function: "mean_by_period", granularity: v.granularity },
            { name: "polarity_shares", function: "share_positive_negative" },
            { name: "thread_trend", function: "slope_by_thread" },
          ],
        },
        outcome: { model_type: "time_series", tables: ["email_sentiment", "thread_sentiment"] },
      }),
    },
    {
      id: "email_correspondents",
      name: "Who writes to whom",
      description: "Maps your e-mail traffic: messages between each sender and recipient, and the external domains you exchange the most messages with, with their correspondents and threads.",
      category: EMAIL_CATEGORY_ID,
      transformType: "email_correspondents",
      label: TRANSFORM_TYPE_LABELS.email_correspondents,
      reads: READS,
      inputs: {
        internal_domains: internalDomains,
        include_cc: { type: "boolean", default: true, required: false, label: "Count copied recipients", group: "signals", description: "Count the Cc recipients of a message as well as its To recipients." },
        top_n: { type: "integer", min: 1, max: 10000, default: 50, required: true, label: "Top pairs and domains", group: "outcome", description: "How many of the busiest sender–recipient pairs and external domains to keep (1 to 10000)." },
      },
      requirements: requirements(),
      outputs: [
        { suffix: "email_pairs", label: "Who writes to whom", description: "One row per sender and recipient (the busiest first): direction, messages, threads, first and last message.", key: ["from_address", "to_address"], order: ["-messages"] },
        { suffix: "email_domains", label: "External domains", description: "One row per external domain (the busiest first): rank, messages from and to it, correspondents, threads, first and last message.", key: ["domain"], order: ["rank"] },
      ],
      charts: [
        {
          id: "top_domains",
          title: "Top external domains",
          table: "email_domains",
          description: "The external domains your side exchanges the most messages with, the busiest first.",
          mark: "bar",
          x: { field: "domain", title: "Domain", type: "category" },
          y: { field: "messages", title: "Messages", type: "quantity", aggregate: "sum" },
          limit: 10,
        },
      ],
      nodes: [
        MESSAGES,
        { id: "addresses", label: "Parse the addresses", kind: "primitive", tooltip: "Primitive (address-parser): sender, To and Cc headers become addresses and domains (\"Name <address>\", quoted names, groups)." },
        { id: "sides", label: "Your side or theirs", kind: "primitive", tooltip: "Primitive: addresses at the internal domains (or the mailbox's own) are your side; every other domain is external." },
        { id: "pairs", label: "Messages per pair", kind: "signal", tooltip: "Signal: messages and threads per sender and recipient, with the direction (Inbound, Outbound, Internal, External)." },
        { id: "domains", label: "Messages per domain", kind: "signal", tooltip: "Signal: per external domain, messages from and to it, distinct correspondents and threads." },
        { id: "network_tables", label: "Correspondence tables", kind: "outcome", tooltip: "Outcome: the top pairs and domains in the email_pairs and email_domains tables." },
      ],
      edges: [["messages", "addresses"], ["addresses", "sides"], ["sides", "pairs"], ["sides", "domains"], ["pairs", "network_tables"], ["domains", "network_tables"]],
      customSetup: true,
      pipeline: (v) => ({
        primitives: [
          { name: "addresses", type: "address_parsing", parameters: { provider: LOCAL, model: "address-parser", include_cc: v.include_cc } },
          { name: "sides", type: "domain_matching", parameters: { provider: LOCAL, model: "internal-domains", internal_domains: v.internal_domains } },
        ],
        signals: { aggregations: [{ name: "pair_counts", function: "count_by_pair" }, { name: "domain_counts", function: "count_by_domain" }] },
        outcome: { model_type: "ranking", top_n: v.top_n, tables: ["email_pairs", "email_domains"] },
      }),
    },
  ];
}
