/**
 * Words for stored values: the one place a value kept in the database or sent by the API ("ZOOM", "STORAGE",
 * "gong", "hosted_llm") becomes what a person reads ("ZOOM" for a platform, "files", "Gong calls", "Hosted model"). Pages never show
 * a stored value as it is; an unknown one reads as itself with its underscores as spaces, never as a code.
 */

/** Anything else unknown: "never_run" → "Never run". */
export const plainWords = (value: string): string => {
  const words = value.replaceAll("_", " ").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const lookup = (table: Record<string, string>) => (value: string | null | undefined): string =>
  value == null || value === "" ? "" : (table[value] ?? table[value.toLowerCase()] ?? plainWords(value));

/**
 * The platform a connector's records come from (stored ZOOM, TEAMS, GMAIL, GONG, or in lower case). Spec §3: "a plain
 * string, displayed in uppercase" — ZOOM, GONG, TEAMS — with its underscores as spaces; never "Zoom". (A source type
 * named Zoom, and the data generator's data style, still read as words.)
 */
export const platformLabel = (value: string | null | undefined): string => (value == null ? "" : value.replaceAll("_", " ").trim().toUpperCase());

/** A stream column's type (contract/integrations/streams.ts), in the Schema section. */
export const columnTypeLabel = lookup({ string: "Text", number: "Number", boolean: "Yes or no", timestamp: "Date and time", json: "List or object (JSON)" });

/** The data generator's data style (stored "zoom" or "gong"): meetings shaped as which platform records them. */
export const dataStyleLabel = lookup({ zoom: "Zoom meetings", gong: "Gong calls" });

/** A destination's category (spec §9: WAREHOUSE or STORAGE) in words. */
export const categoryLabel = lookup({ warehouse: "Warehouse", storage: "Storage" });

/** A source's extraction scope. */
export const scopeLabel = lookup({ org: "Entire organization", group: "A specific group", team: "A specific team", individual: "Individual mailbox" });

/** What an API key may do (contract/api-keys.ts). */
export const apiKeyScopeLabel = lookup({ read: "Read only", read_write: "Read and write" });

/** Whether an API key still works (contract/api-keys.ts). */
export const apiKeyStatusLabel = lookup({ active: "Active", expired: "Expired", revoked: "Revoked" });

/** Each template's transform type as people read it: the catalogue's labels, the lists, the details page. */
export const TRANSFORM_TYPE_LABELS = {
  topic_modeling: "Topic Modeling",
  sentiment_analysis: "Sentiment Analysis",
  action_items: "Action Items",
  speaker_metrics: "Speaker Metrics",
  keyword_tracking: "Keyword Tracking",
  deal_risk: "Deal Risk",
  email_response_time: "E-mail Response Time",
  email_sentiment: "E-mail Sentiment",
  email_correspondents: "E-mail Correspondents",
} as const;

/** A transform type's words ("Topic Modeling"). */
export const transformTypeLabel = lookup(TRANSFORM_TYPE_LABELS);

/** The choices of the templates' option inputs (who labels topics, whose lines count, the period) as people read them. */
export const optionLabel = lookup({
  local: "On this server",
  hosted_llm: "Hosted model",
  all: "Everyone",
  internal: "Our side (internal)",
  external: "Their side (external)",
  day: "Day",
  week: "Week",
});

/** "a, b or c" (or "a, b and c"). */
export function inWords(items: readonly string[], last: "or" | "and" = "or"): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}`;
}
