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

/**
 * A transform result table's columns in words (issue 54): the results page's headings. A column missing here reads
 * as its name with spaces ("open_tickets" → "Open tickets"). The technical columns every result row carries are
 * hidden from the page and kept in the CSV.
 */
export const RESULT_COLUMN_LABELS: Readonly<Record<string, string>> = {
  topic_id: "Topic number",
  label: "Topic",
  top_words: "Top words",
  documents: "Meetings",
  meeting_id: "Meeting id",
  meeting_title: "Meeting",
  topic_label: "Topic",
  score: "Strength",
  period_start: "Period starting",
  granularity: "Period",
  speaker_side: "Speakers",
  meetings: "Meetings",
  utterances: "Lines",
  avg_sentiment: "Average sentiment",
  positive_share: "Positive",
  negative_share: "Negative",
  utterance_id: "Line id",
  owner_id: "Owner id",
  owner_name: "Owner",
  text: "Text",
  cue: "Cue",
  due_hint: "Due",
  speaker_id: "Speaker id",
  speaker_name: "Speaker",
  affiliation: "Side",
  talk_ms: "Talk time",
  talk_ratio: "Talk ratio",
  longest_monologue_ms: "Longest monologue",
  monologues_over_threshold: "Long monologues",
  questions_asked: "Questions asked",
  keyword: "Keyword",
  spoken_at: "Said at",
  sentiment: "Sentiment",
  mentions: "Mentions",
  first_mention_at: "First mention",
  last_mention_at: "Last mention",
  account: "Account",
  last_meeting_at: "Last meeting",
  sentiment_trend: "Sentiment trend",
  competitor_mentions: "Competitor mentions",
  risk_mentions: "Risk mentions",
  open_action_items: "Open action items",
  external_talk_ratio: "Customer talk ratio",
  risk_score: "Risk score",
  risk_level: "Risk level",
  reasons: "Reasons",
  thread_id: "Thread id",
  mailbox: "Mailbox",
  subject: "Subject",
  messages: "Messages",
  participants: "Participants",
  first_message_at: "First message",
  last_message_at: "Last message",
  replies_from_us: "Our replies",
  replies_from_them: "Their replies",
  avg_reply_minutes_us: "Our average reply time",
  median_reply_minutes_us: "Our median reply time",
  avg_reply_minutes_them: "Their average reply time",
  median_reply_minutes_them: "Their median reply time",
  correspondent: "Correspondent",
  name: "Name",
  domain: "Domain",
  messages_received: "Messages from them",
  messages_sent: "Messages to them",
  threads: "Threads",
  our_replies: "Our replies",
  avg_our_reply_minutes: "Our average reply time",
  median_our_reply_minutes: "Our median reply time",
  their_replies: "Their replies",
  avg_their_reply_minutes: "Their average reply time",
  median_their_reply_minutes: "Their median reply time",
  first_sentiment: "First sentiment",
  last_sentiment: "Last sentiment",
  trend: "Trend",
  from_address: "From",
  to_address: "To",
  direction: "Direction",
  rank: "Rank",
  messages_from: "Messages from the domain",
  messages_to: "Messages to the domain",
  correspondents: "Correspondents",
};
/** Columns every result row carries for the warehouse's sake: kept in the CSV, not shown on the page. */
export const TECHNICAL_RESULT_COLUMNS: readonly string[] = ["run_id", "computed_at"];
export const resultColumnLabel = (column: string): string => {
  const known = RESULT_COLUMN_LABELS[column];
  if (known) return known;
  const words = column.replaceAll("_", " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A deal's risk level (the deal-risk template's stored high, medium, low). */
export const RISK_LEVEL_LABELS = { high: "High", medium: "Medium", low: "Low" } as const;
export const riskLevelLabel = lookup(RISK_LEVEL_LABELS);

/** Whose lines a sentiment row holds (the sentiment template's stored speaker_side): all of them, or one side's. */
export const SPEAKER_SIDE_LABELS = { all: "All speakers", internal: "Our side", external: "Their side", unknown: "Side not known" } as const;
export const speakerSideLabel = lookup(SPEAKER_SIDE_LABELS);

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

/** Where a workspace invitation stands (contract/workspaces.ts). */
export const invitationStatusLabel = lookup({ pending: "Pending", expired: "Expired" });

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

/** What an activity log entry did (contract/activity.ts ACTIVITY_ACTIONS). */
export const activityActionLabel = lookup({
  created: "Created",
  updated: "Updated",
  deleted: "Deleted",
  synced: "Started a sync",
  backfilled: "Started a backfill",
  cancelled: "Cancelled the run",
  ran: "Started a run",
  paused: "Paused",
  resumed: "Resumed",
  schedule_changed: "Changed the schedule",
  stream_turned_off: "Stopped syncing a stream",
  stream_turned_on: "Synced a stream again",
  stream_resynced: "Re-synced a stream",
  email_confirmation_resent: "Resent the e-mail confirmation",
  signing_secret_rolled: "Replaced the webhook signing secret",
  revoked: "Revoked",
  invited: "Invited",
  invitation_resent: "Resent the invitation to",
  joined: "Joined",
  removed: "Removed",
  left: "Left",
});

/** The kind of record an activity log entry is about (contract/activity.ts ACTIVITY_RECORD_TYPES). */
export const activityRecordTypeLabel = lookup({
  source: "Source",
  destination: "Destination",
  connector: "Connector",
  transform: "Transform",
  alert_settings: "Alert settings",
  api_key: "API key",
  member: "Member",
  invitation: "Invitation",
  workspace: "Workspace",
});

/** Who acted, in a sentence ("Created by Ada", "Updated by the key CI"): a member by name, an API key as "the key <name>". */
export const actorWords = (actor: { kind: string; name: string }): string => (actor.kind === "key" ? `the key ${actor.name}` : actor.name);

/**
 * Who or what started a run: the member ("Ben"), the API key ("The key CI"), the schedule, or the record's creation
 * (its first run). A manual run of before the log existed says only that it was started by hand.
 */
export function runTriggeredByLabel(run: { trigger: string; triggered_by?: string | null; triggered_via?: string | null }): string {
  if (run.triggered_by) return run.triggered_via === "key" ? `The key ${run.triggered_by}` : run.triggered_by;
  return lookup({ schedule: "Schedule", create: "Its creation", manual: "By hand", backfill: "By hand" })(run.trigger);
}

/** A record's "Created by Ada · Updated by the key CI" (either part left out when the log has none), or "" for neither. */
export function recordAuthorsWords(authors: { created: { kind: string; name: string } | null; updated: { kind: string; name: string } | null } | null | undefined): string {
  if (!authors) return "";
  const parts = [authors.created ? `Created by ${actorWords(authors.created)}` : null, authors.updated ? `Updated by ${actorWords(authors.updated)}` : null];
  return parts.filter(Boolean).join(" · ");
}
