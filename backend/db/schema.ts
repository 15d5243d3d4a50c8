import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  uniqueIndex,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
  type ExtraConfigColumn,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true });

/** A person signed in through Google (or the local provider): identified by issuer + subject. */
export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  issuer: text("issuer").notNull(),
  subject: text("subject").notNull(),
  email: text("email").notNull(),
  name: text("name").notNull(),
  givenName: text("given_name"),
  picture: text("picture"),
  /** The workspace the user works in now (remembered across sessions); null or one they left: their personal one. */
  currentWorkspaceId: uuid("current_workspace_id").references((): AnyPgColumn => workspaces.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex("users_issuer_subject_key").on(t.issuer, t.subject)]);

/**
 * A workspace (issue 51): a team's sources, destinations, connectors, transforms, alert settings and API keys, shared
 * by its members. Every record's `owner_id` names its workspace. A user's personal workspace, made with the user, has
 * the user's own id: records made before workspaces existed (their owner_id a user's id) are that workspace's unchanged.
 */
export const workspaces = pgTable("workspaces", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

/** Who belongs to a workspace: every member may do everything in it (the spec has no roles). */
export const workspaceMembers = pgTable("workspace_members", {
  workspaceId: uuid("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index("workspace_members_user_idx").on(t.userId)]);

/** An invitation to a workspace (issue 51): its token's SHA-256, one address (lowercased), used once; resent: a new token. */
export const workspaceInvitations = pgTable("workspace_invitations", {
  id: uuid("id").primaryKey().defaultRandom(),
  workspaceId: uuid("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  email: text("email").notNull(),
  tokenHash: text("token_hash").notNull(),
  invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  acceptedAt: timestamp("accepted_at", { withTimezone: true }),
  acceptedBy: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
}, (t) => [
  uniqueIndex("workspace_invitations_token_key").on(t.tokenHash),
  index("workspace_invitations_workspace_idx").on(t.workspaceId, t.createdAt.desc()),
]);

/**
 * Who did what in a workspace (issue 51): every write and every manual sync, backfill and cancel, by a member or an
 * API key (its name at the time), on which record (its type, id and name at the time). Pruned with run history.
 */
export const activity = pgTable("activity", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  workspaceId: uuid("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  /** member | key */
  actorKind: text("actor_kind").notNull(),
  actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
  actorKeyId: uuid("actor_key_id"),
  /** The member's name, or the key's name, when they acted. */
  actorName: text("actor_name").notNull(),
  /** created | updated | deleted | synced | backfilled | cancelled | ran | … (the labels: one map, app-side) */
  action: text("action").notNull(),
  /** source | destination | connector | transform | alert_settings | api_key | member | invitation | workspace */
  recordType: text("record_type").notNull(),
  recordId: text("record_id"),
  recordName: text("record_name"),
}, (t) => [
  index("activity_workspace_at_idx").on(t.workspaceId, t.at.desc(), t.id.desc()),
  index("activity_record_idx").on(t.recordId),
]);

/**
 * A browser session. The cookie holds an opaque random token; only its SHA-256
 * is stored, so a database leak does not leak live sessions.
 */
export const sessions = pgTable("sessions", {
  tokenHash: text("token_hash").primaryKey(),
  userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
}, (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)]);

/** Encrypted secrets (OAuth tokens, passwords, keys) that sources and destinations refer to. */
export const credentials = pgTable("credentials", {
  id: uuid("id").primaryKey().defaultRandom(),
  ownerId: uuid("owner_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  integrationName: text("integration_name").notNull(),
  /** AES-256-GCM ciphertext of a JSON document; never returned by the API. */
  secret: text("secret"),
  /** Non-secret facts about the credential (account, scopes, service-account e-mail). */
  metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index("credentials_owner_idx").on(t.ownerId)]);

export const sources = pgTable("sources", {
  id: uuid("id").primaryKey().defaultRandom(),
  ownerId: uuid("owner_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  integrationName: text("integration_name").notNull(),
  integrationLabel: text("integration_label").notNull(),
  credentialId: uuid("credential_id").references(() => credentials.id, { onDelete: "set null" }),
  status: text("status"),
  metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
  requiredIntegrationCategories: text("required_integration_categories").array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index("sources_owner_created_idx").on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())]);

export const destinations = pgTable("destinations", {
  id: uuid("id").primaryKey().defaultRandom(),
  ownerId: uuid("owner_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  integrationName: text("integration_name").notNull(),
  integrationLabel: text("integration_label").notNull(),
  category: text("category").notNull(),
  status: text("status"),
  config: jsonb("config").$type<Record<string, unknown>>().notNull().default({}),
  credentialId: uuid("credential_id").references(() => credentials.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index("destinations_owner_created_idx").on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())]);

export const connectors = pgTable("connectors", {
  id: uuid("id").primaryKey().defaultRandom(),
  ownerId: uuid("owner_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  sourceId: uuid("source_id").notNull().references(() => sources.id, { onDelete: "restrict" }),
  platform: text("platform"),
  frequency: text("frequency").notNull(),
  lookbackDays: integer("lookback_days").notNull(),
  paused: boolean("paused").notNull().default(false),
  /** The optional schedule (contract/schedules.ts `Schedule`) that replaces `frequency`'s hourly/daily slot; null: that slot. */
  schedule: jsonb("schedule").$type<Record<string, unknown>>(),
  lastSyncedAt: timestamp("last_synced_at", { withTimezone: true }),
  /**
   * The scheduler's bookmark (backend/runs/engine.ts enqueueDue): the next slot it has not yet looked at; null when
   * it must look again (a trigger of migration 0011 clears it when the schedule, frequency or pause changes).
   */
  nextDueAt: timestamp("next_due_at", { withTimezone: true }),
  /** The streams of its source's manifest it does not sync (issue 37: the Schema section's switches); empty: all. */
  skippedStreams: text("skipped_streams").array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [
  index("connectors_owner_created_idx").on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  index("connectors_source_idx").on(t.sourceId),
  index("connectors_next_due_idx").on(t.nextDueAt.asc().nullsFirst()).where(sql`${t.paused} = false`),
]);

export const connectorDestinations = pgTable("connector_destinations", {
  connectorId: uuid("connector_id").notNull().references(() => connectors.id, { onDelete: "cascade" }),
  destinationId: uuid("destination_id").notNull().references(() => destinations.id, { onDelete: "restrict" }),
}, (t) => [
  primaryKey({ columns: [t.connectorId, t.destinationId] }),
  index("connector_destinations_destination_idx").on(t.destinationId),
]);

/**
 * Issue 52: what each stream of a connector has read up to (the sync engine's state, Airbyte's per-stream state). Saved
 * only after a read's records landed at every destination in `destinationIds`; a backfill leaves it alone, a Re-sync
 * drops it (the next sync reads the whole lookback window again).
 */
export const connectorStreamStates = pgTable("connector_stream_states", {
  connectorId: uuid("connector_id").notNull().references(() => connectors.id, { onDelete: "cascade" }),
  stream: text("stream").notNull(),
  /** The end of the last complete read: the next one starts here, less the late-arrival overlap. */
  syncedTo: timestamp("synced_to", { withTimezone: true }).notNull(),
  /** The provider's change token at that point (Gmail's historyId, a Graph delta link), when it has one. */
  token: text("token"),
  /** The items that landed and that the next read's overlap may list again: key → [fingerprint, ISO time]. */
  landed: jsonb("landed").$type<Record<string, [string, string]>>().notNull().default({}),
  /** The destinations that hold the stream's whole window; one not among them (added since) gets the window once. */
  destinationIds: uuid("destination_ids").array().notNull().default(sql`'{}'::uuid[]`),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.connectorId, t.stream] })]);

export const transforms = pgTable("transforms", {
  id: uuid("id").primaryKey().defaultRandom(),
  ownerId: uuid("owner_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  transformType: text("transform_type").notNull(),
  templateId: text("template_id"),
  connectorId: uuid("connector_id").notNull().references(() => connectors.id, { onDelete: "restrict" }),
  frequency: text("frequency").notNull().default("daily"),
  fileTypes: text("file_types").array().notNull().default(sql`'{.vtt,.txt}'::text[]`),
  status: text("status").notNull().default("PENDING"),
  inputs: jsonb("inputs").$type<Record<string, unknown>>().notNull().default({}),
  requirementInputs: jsonb("requirement_inputs").$type<Record<string, unknown>>().notNull().default({}),
  permissionsSetup: boolean("permissions_setup").notNull().default(false),
  /** The optional schedule (contract/schedules.ts `Schedule`) that replaces `frequency`'s hourly/daily slot; null: that slot. */
  schedule: jsonb("schedule").$type<Record<string, unknown>>(),
  /** The scheduler's bookmark, as connectors.next_due_at (migration 0011). */
  nextDueAt: timestamp("next_due_at", { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [
  index("transforms_owner_created_idx").on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  index("transforms_connector_idx").on(t.connectorId),
  index("transforms_next_due_idx").on(t.nextDueAt.asc().nullsFirst()),
]);

/** What every run (a sync or a transform run) records: written by the runs engine (backend/runs/). */
const runColumns = () => ({
  ownerId: uuid("owner_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  /** queued | running | succeeded | failed | cancelled */
  status: text("status").notNull().default("queued"),
  /** manual | schedule | backfill (and create, for a transform's first run) */
  trigger: text("trigger").notNull().default("manual"),
  /** Who asked for a manual run or backfill: the member's or the API key's name at the time (null: the schedule, creation). */
  triggeredBy: text("triggered_by"),
  /** How they asked: member | key (null with triggered_by). */
  triggeredVia: text("triggered_via"),
  jobId: text("job_id"),
  attempts: integer("attempts").notNull().default(0),
  /** Records read (meetings, e-mails). */
  records: integer("records").notNull().default(0),
  error: text("error"),
  createdAt: createdAt(),
  startedAt: timestamp("started_at", { withTimezone: true }),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  /** Moved every few seconds by the worker running the run: a stale one means its worker died (backend/runs/heartbeat.ts). */
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
  /** Set by Cancel: the worker stops at its next batch boundary and the run ends cancelled. */
  cancelRequestedAt: timestamp("cancel_requested_at", { withTimezone: true }),
  /** Every attempt: [{ attempt, started_at, finished_at, outcome, error }] (the run details page). */
  attemptLog: jsonb("attempt_log").$type<{ attempt: number; started_at: string; finished_at: string | null; outcome: string; error: string | null }[]>().notNull().default([]),
});

/** A run table's indexes: its history by key, newest first, and the running runs by heartbeat (the dead-run sweep). */
const runIndexes = (table: string, keyName: string, key: ExtraConfigColumn, t: { createdAt: ExtraConfigColumn; id: ExtraConfigColumn; heartbeatAt: ExtraConfigColumn }) => [
  index(`${table}_${keyName}_created_idx`).on(key, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  index(`${table}_running_heartbeat_idx`).on(t.heartbeatAt).where(sql`"status" = 'running'`),
];

/** One sync of a connector: queued by a schedule or "Sync now", run by a worker (backend/sync/runs.ts). */
export const syncRuns = pgTable("sync_runs", {
  id: uuid("id").primaryKey().defaultRandom(),
  connectorId: uuid("connector_id").notNull().references(() => connectors.id, { onDelete: "cascade" }),
  ...runColumns(),
  bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
  /** A backfill's date range (null: the lookback window ending when the run started). */
  rangeFrom: timestamp("range_from", { withTimezone: true }),
  rangeTo: timestamp("range_to", { withTimezone: true }),
  /** Per destination: [{ name, type, records, bytes, location }] (where the data landed). */
  landed: jsonb("landed").$type<{ name: string; type: string; records: number; bytes: number; location: string }[]>().notNull().default([]),
}, (t) => runIndexes("sync_runs", "connector", t.connectorId, t));

/** One run of a transform: queued by its schedule, "Run now" or creation, run by a worker (backend/transforms/runs.ts). */
export const transformRuns = pgTable("transform_runs", {
  id: uuid("id").primaryKey().defaultRandom(),
  transformId: uuid("transform_id").notNull().references(() => transforms.id, { onDelete: "cascade" }),
  ...runColumns(),
  /** Result tables written: [{ table, rows }]. */
  outputs: jsonb("outputs").$type<{ table: string; rows: number }[]>().notNull().default([]),
}, (t) => runIndexes("transform_runs", "transform", t.transformId, t));

/**
 * A run's own log lines (the run details page): capped per run by the writer (backend/db/run-logs.ts), secrets never
 * written. Each line belongs to one sync run or one transform run, and goes with it.
 */
export const runLogLines = pgTable("run_log_lines", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  syncRunId: uuid("sync_run_id").references(() => syncRuns.id, { onDelete: "cascade" }),
  transformRunId: uuid("transform_run_id").references(() => transformRuns.id, { onDelete: "cascade" }),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  /** info | warn | error */
  level: text("level").notNull(),
  message: text("message").notNull(),
}, (t) => [
  index("run_log_lines_sync_run_idx").on(t.syncRunId, t.id).where(sql`"sync_run_id" IS NOT NULL`),
  index("run_log_lines_transform_run_idx").on(t.transformRunId, t.id).where(sql`"transform_run_id" IS NOT NULL`),
  /** The hourly prune takes the lines past RUN_LOG_DAYS (backend/db/history.ts). */
  index("run_log_lines_at_idx").on(t.at),
  check("run_log_lines_one_run", sql`num_nonnulls("sync_run_id", "transform_run_id") = 1`),
]);

/**
 * A workspace's alert settings (issue 27 item 6, issue 51 item 5): its webhook and after how many failures to warn and
 * to pause, shared by every member. The e-mail addresses are each member's own: alert_recipients.
 */
export const alertSettings = pgTable("alert_settings", {
  ownerId: uuid("owner_id").primaryKey().references(() => workspaces.id, { onDelete: "cascade" }),
  webhookUrl: text("webhook_url").notNull().default(""),
  /** Sealed (backend/lib/crypto.ts) signing secret of the webhook: made by the server, shown to its owner only. */
  signingSecret: text("signing_secret").notNull(),
  warnAfter: integer("warn_after").notNull().default(3),
  pauseAfter: integer("pause_after").notNull().default(10),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A member's own address for the alerts of a workspace (issue 51 item 5): each member asks for them, or not. It goes
 * with the membership: a removed member's row is deleted with it (the composite foreign key), so they get no more.
 */
export const alertRecipients = pgTable("alert_recipients", {
  workspaceId: uuid("workspace_id").notNull(),
  userId: uuid("user_id").notNull(),
  email: text("email").notNull().default(""),
  /** When the address's owner confirmed it (finding F3): alerts go to a confirmed address only; null until then. */
  emailConfirmedAt: timestamp("email_confirmed_at", { withTimezone: true }),
  /** SHA-256 (base64url) of the token in the latest confirmation e-mail; null once confirmed. */
  emailTokenHash: text("email_token_hash"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [
  primaryKey({ columns: [t.workspaceId, t.userId] }),
  foreignKey({ columns: [t.workspaceId, t.userId], foreignColumns: [workspaceMembers.workspaceId, workspaceMembers.userId], name: "alert_recipients_membership_fk" }).onDelete("cascade"),
  index("alert_recipients_token_idx").on(t.emailTokenHash),
]);

/** rate-limiter-flexible's store (RateLimiterDrizzle): points used per key until `expire`, shared by every process. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expire: timestamp("expire", { withTimezone: true }),
});

/** One alert sent (or tried) to one channel: what, where, and how it went. */
export const alertDeliveries = pgTable("alert_deliveries", {
  id: uuid("id").primaryKey().defaultRandom(),
  ownerId: uuid("owner_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  /** sync.failed, sync.warning, sync.recovered, connector.paused, transform.* (contract/alerts.ts) */
  event: text("event").notNull(),
  /** email | webhook */
  channel: text("channel").notNull(),
  /** The address or URL it went to. */
  target: text("target").notNull(),
  subject: text("subject").notNull(),
  /** The run it is about (a sync run or a transform run). */
  runId: uuid("run_id"),
  /** pending | delivered | failed */
  status: text("status").notNull().default("pending"),
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
  createdAt: createdAt(),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
}, (t) => [index("alert_deliveries_owner_created_idx").on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())]);

/**
 * A key of the public API (issue 38): a bearer token shown to its owner once. Only the token's SHA-256 (base64url) is
 * stored, looked up by equality (an index lookup, never a comparison of secrets in our code); `prefix` is the token's
 * first characters, shown to tell keys apart.
 */
export const apiKeys = pgTable("api_keys", {
  id: uuid("id").primaryKey().defaultRandom(),
  ownerId: uuid("owner_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  /** The member who made it: it acts for the workspace while they belong to it. */
  createdBy: uuid("created_by").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  /** read | read_write (contract/api-keys.ts) */
  scope: text("scope").notNull(),
  prefix: text("prefix").notNull(),
  hash: text("hash").notNull(),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true }),
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
}, (t) => [
  uniqueIndex("api_keys_hash_key").on(t.hash),
  index("api_keys_owner_created_idx").on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  check("api_keys_scope", sql`"scope" IN ('read', 'read_write')`),
]);

/**
 * The first answer to a public API write sent with an `Idempotency-Key` (issue 38), per API key: the same key and body
 * within API_IDEMPOTENCY_HOURS gets the same answer, without doing the write again. `status` is null while the first
 * request is still being answered. Rows older than that are deleted as new ones come.
 */
export const apiIdempotency = pgTable("api_idempotency", {
  apiKeyId: uuid("api_key_id").notNull().references(() => apiKeys.id, { onDelete: "cascade" }),
  idempotencyKey: text("idempotency_key").notNull(),
  /** The method and path the key was first used with, and the SHA-256 of its body: another request under the same key is refused. */
  request: text("request").notNull(),
  bodyHash: text("body_hash").notNull(),
  status: integer("status"),
  response: jsonb("response"),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.apiKeyId, t.idempotencyKey] }), index("api_idempotency_created_idx").on(t.createdAt)]);

/** rate-limiter-flexible's RateLimiterPostgres table (its own layout), shared by every API process: points used per key per window. */
export const apiRateLimits = pgTable("api_rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});
