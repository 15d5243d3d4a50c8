import { z } from "zod";
import { storable, storableName } from "./text.js";
import { platformsFor as sourcePlatforms } from "./integrations/sources.js";
import { recordScheduleSchema } from "./schedule-words.js";
import { destinationSchema } from "./destinations.js";

export const FREQUENCIES = ["daily", "hourly"] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** GET /connectors/lookback-options: the first is the default (spec §9). */
export const LOOKBACK_OPTIONS = [
  { value: 1, label: "1 day" },
  { value: 3, label: "3 days" },
  { value: 7, label: "7 days" },
  { value: 14, label: "14 days" },
  { value: 30, label: "30 days" },
  { value: 90, label: "90 days" },
] as const;
export const LOOKBACK_VALUES: readonly number[] = LOOKBACK_OPTIONS.map((o) => o.value);
export type LookbackOption = { value: number; label: string };

export const SYNC_RUN_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export type SyncRunStatus = (typeof SYNC_RUN_STATUSES)[number];

/** A connector's health at a glance (issue 27): from whether it is paused and its newest run. */
export const CONNECTOR_HEALTH = [
  { value: "healthy", label: "Healthy" },
  { value: "running", label: "Running" },
  { value: "queued", label: "Queued" },
  { value: "failed", label: "Failed" },
  { value: "paused", label: "Paused" },
  { value: "never_run", label: "Never run" },
] as const;
export type ConnectorHealth = (typeof CONNECTOR_HEALTH)[number]["value"];
const HEALTH_VALUES = CONNECTOR_HEALTH.map((h) => h.value) as [ConnectorHealth, ...ConnectorHealth[]];

/** Issue 37: a stream of the connector's source, as its details page's Schema section shows it. */
export const connectorStreamSchema = z.object({
  name: z.string(),
  label: z.string(),
  primary_key: z.array(z.string()),
  cursor_field: z.string(),
  columns: z.array(z.object({ name: z.string(), type: z.string(), description: z.string() })),
  /** False: the connector's syncs leave it out (its switch). */
  enabled: z.boolean(),
  /** Where it lands at each of the connector's destinations, in words (a table, a folder). */
  lands: z.array(z.object({ destination: z.string(), location: z.string() })),
  /**
   * Issue 52: the end of the last sync whose records of this stream landed at every destination (the next one reads
   * from there, less the late-arrival overlap); null before its first sync and after a Re-sync.
   */
  synced_to: z.string().nullable(),
});
export type ConnectorStream = z.infer<typeof connectorStreamSchema>;

export const connectorSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  source_id: z.string(),
  /** Beyond the spec: the names the list shows, so it needs no second call. */
  source_name: z.string().nullable(),
  destination_ids: z.array(z.string()),
  destinations: z.array(z.object({ id: z.string(), name: z.string() })),
  frequency: z.string(),
  lookback_days: z.number().int(),
  last_synced_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  /** Beyond the spec: the chosen platform, whether schedules are paused, and the latest run. */
  platform: z.string().nullable().optional(),
  paused: z.boolean().optional(),
  /**
   * Beyond the spec (issue 27): health at a glance (contract/lists.ts); its optional schedule (contract/schedules.ts,
   * null: the frequency's slot); and when it runs next (null: paused or manual only).
   */
  health: z.enum(HEALTH_VALUES).optional(),
  schedule: recordScheduleSchema.optional(),
  next_run_at: z.string().nullable().optional(),
  last_run: z
    .object({ id: z.string(), status: z.string(), started_at: z.string().nullable(), finished_at: z.string().nullable(), created_at: z.string(), error: z.string().nullable(), records: z.number().int().optional() })
    .nullable()
    .optional(),
  /** Issue 37: what it moves, stream by stream (GET /connectors/list-by-id only). */
  streams: z.array(connectorStreamSchema).optional(),
});
export type Connector = z.infer<typeof connectorSchema>;

/**
 * What health shows of a newest run that Cancel stopped after it wrote data (issue 39): "Cancelled after 1,400
 * records"; null for any other run (a cancelled run that wrote nothing changes nothing a user sees).
 */
export function cancelledAfter(run: { status: string; records?: number } | null | undefined): string | null {
  if (!run || run.status !== "cancelled" || !run.records) return null;
  return `Cancelled after ${run.records.toLocaleString("en-US")} ${run.records === 1 ? "record" : "records"}`;
}

export const syncRunSchema = z.object({
  id: z.string(),
  connector_id: z.string(),
  status: z.enum(SYNC_RUN_STATUSES),
  /** manual | schedule | backfill */
  trigger: z.string(),
  /** When Cancel asked the run to stop (it stops at its next batch), or null. */
  cancel_requested_at: z.string().nullable().optional(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  records: z.number().int(),
  bytes: z.number().int(),
  error: z.string().nullable(),
  /** A backfill's range [range_from, range_to); null for a run of the lookback window. */
  range_from: z.string().nullable().optional(),
  range_to: z.string().nullable().optional(),
});
export type SyncRun = z.infer<typeof syncRunSchema>;

/* ---- answers of the connector calls (contract/responses.ts names them by route) -------------------------- */

const success = z.literal("success");

/** GET /connectors/list-by-id/{id}: the connector and what it moves, stream by stream. */
export const connectorDetailsSchema = connectorSchema.extend({ streams: z.array(connectorStreamSchema) });
/** POST /connectors/create (201), PUT /connectors/update/{id} and PUT /connectors/{id}/schedule: the connector as it is now. */
export const connectorSavedSchema = connectorSchema.extend({ message: z.string() });
/** GET /connectors/lookback-options. */
export const lookbackOptionsResponseSchema = z.object({ status: success, lookback_options: z.array(z.object({ value: z.number().int(), label: z.string() })), message: z.string() });
/** GET /integrations/{integration_id}/compatible-platforms[?source_id=]. */
export const compatiblePlatformsResponseSchema = z.object({ status: success, platforms: z.array(z.string()), message: z.string() });
/** GET /integrations/source/{source_id}/platform/{platform}/destinations. */
export const compatibleDestinationsResponseSchema = z.object({ status: success, destinations: z.array(destinationSchema), message: z.string() });
/** POST /connectors/{id}/sync and /backfill (202): the run queued. */
export const syncQueuedResponseSchema = z.object({ status: success, run: syncRunSchema, message: z.string() });
/** POST /connectors/{id}/pause and /resume. */
export const pausedResponseSchema = z.object({ status: success, paused: z.boolean(), message: z.string() });
/** POST /connectors/{id}/streams/resync: the stream's state dropped, and the sync queued to read it again (else null). */
export const streamResyncedResponseSchema = z.object({ status: success, run: syncRunSchema.nullable(), message: z.string() });
/** POST /connectors/{id}/streams: the stream's switch, and the sync queued when it came back on (else null). */
export const streamSwitchedResponseSchema = z.object({ status: success, enabled: z.boolean(), run: syncRunSchema.nullable(), message: z.string() });

/** What a connector's details page can post: its buttons (spec §7, and Cancel sync) and the Delete confirmation. */
export const CONNECTOR_INTENTS = ["sync", "cancel", "pause", "resume", "delete"] as const;
export type ConnectorIntent = (typeof CONNECTOR_INTENTS)[number];

/** Spec §5 "Connector create" and §8 connector errors, character for character. */
export const CONNECTOR_MESSAGES = {
  nameRequired: "Please enter a connector name",
  sourceRequired: "Please select a source",
  platformRequired: "Please select a platform",
  frequencyRequired: "Please enter a frequency",
  lookbackRequired: "Please select a lookback days",
  noDestinationsForPlatform: "No compatible destinations found for this source and platform. Cannot create connector.",
  destinationsRequired: "Please select the required destinations.",
  missingCategories: (missing: string[]) => `Please select at least one destination for each required category. Missing: ${missing.join(", ")}`,
  notAuthenticated: "User not authenticated. Please log in again.",
  createFailed: (text: string) => `Failed to create connector: ${text}`,
  updateFailed: "Failed to update connector.",
  deleteFailed: "Failed to delete connector",
  fetchConnectorsFailed: "Failed to fetch connectors",
  fetchConnectorFailed: "Failed to fetch connector",
  notFound: "Connector not found",
  fetchLookbackFailed: "Failed to fetch lookback options",
  fetchSourcesFailed: "Failed to fetch sources",
  fetchPlatformsFailed: (status: number) => `Failed to fetch platforms (Status: ${status})`,
  fetchDestinationsFailed: (status: number) => `Failed to fetch destinations (Status: ${status})`,
  noPlatforms: "No compatible platforms found for this source.",
  noDestinations: "No compatible destinations found for this source and platform combination. Please ensure destinations are configured.",
  // Rules the spec states without a quoted message.
  frequencyInvalid: "Frequency must be daily or hourly",
  lookbackInvalid: `Lookback days must be one of ${LOOKBACK_OPTIONS.map((o) => o.value).join(", ")}`,
  descriptionRequired: "Please enter a description",
  destinationRequired: "Please select a destination",
  sourceNotFound: "Source not found",
  destinationNotFound: "One of the selected destinations was not found",
  platformInvalid: "This platform is not available for the selected source",
  intentInvalid: "This page has no such action. Please use one of its buttons.",
} as const;
const M = CONNECTOR_MESSAGES;

/**
 * A null counts as left out. A form's empty field reaches these schemas as undefined (conform's parseWithZod turns
 * "" into undefined), so a required field says its own message for it, and an optional one reads as "".
 */
const nullAsMissing = (v: unknown) => (v === null ? undefined : v);
const requiredText = (message: string, max: number, tooLong: string, label: string, text: typeof storable = storable) =>
  z.preprocess(nullAsMissing, text(z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, tooLong), label));
const optionalText = (max: number, tooLong: string) =>
  z.preprocess(
    nullAsMissing,
    storable(z.string({ invalid_type_error: "Description must be text" }).trim().max(max, tooLong), "Description")
      .optional()
      .transform((v) => v ?? ""),
  );

export const connectorNameSchema = requiredText(M.nameRequired, 200, "Connector name must be 200 characters or fewer", "Name", storableName);
export const connectorDescriptionSchema = optionalText(2000, "Description must be 2,000 characters or fewer");
/** Trimmed, case-insensitive, and only what the engine can schedule. */
export const frequencySchema = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().toLowerCase() : v === null ? undefined : v),
  z.string({ required_error: M.frequencyRequired, invalid_type_error: M.frequencyRequired }).min(1, M.frequencyRequired).pipe(z.enum(FREQUENCIES, { errorMap: () => ({ message: M.frequencyInvalid }) })),
);
export const lookbackSchema = z.preprocess(
  (v) => (v === "" || v === null ? undefined : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ required_error: M.lookbackRequired, invalid_type_error: M.lookbackInvalid })
    .refine((n) => LOOKBACK_VALUES.includes(n), M.lookbackInvalid),
);
const idSchema = (message: string) => requiredText(message, 100, message, "An id");

export const createConnectorBodySchema = z.object({
  name: connectorNameSchema,
  description: connectorDescriptionSchema,
  source_id: idSchema(M.sourceRequired),
  /** Beyond the spec's payload: the chosen platform (required when the source has platforms). */
  platform: z.preprocess(
    nullAsMissing,
    z
      .string({ invalid_type_error: M.platformRequired })
      .trim()
      .toLowerCase()
      .max(50)
      .optional()
      .transform((v) => v ?? ""),
  ),
  destination_ids: z.preprocess(
    (v) => (v === null || v === undefined ? [] : typeof v === "string" ? [v] : v),
    z.array(z.string({ invalid_type_error: M.destinationsRequired }).trim().min(1).max(100), { invalid_type_error: M.destinationsRequired }).max(50),
  ),
  frequency: frequencySchema,
  lookback_days: lookbackSchema,
  /** Beyond the spec's payload: false creates the connector without queuing its first sync (issue 35 item 3: queued by default). */
  first_sync: z.boolean({ invalid_type_error: "first_sync must be true or false" }).optional(),
});
export type CreateConnectorBody = z.infer<typeof createConnectorBodySchema>;

/**
 * PUT /connectors/update/{id}. Where the spec's single destination and the user's data disagree, the data wins
 * (issue 35 item 2): `destination_ids` lists every destination the connector keeps (the edit page shows and changes
 * them all), at least one; the spec's single `destination_id` is still taken, as a list of one. The description is
 * optional, as on create.
 */
export const updateConnectorBodySchema = z.preprocess(
  (v) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const { destination_id, ...rest } = v as Record<string, unknown>;
    if (rest.destination_ids !== undefined && rest.destination_ids !== null) return rest;
    return { ...rest, destination_ids: destination_id === undefined || destination_id === null ? [] : [destination_id] };
  },
  z.object({
    name: connectorNameSchema,
    description: connectorDescriptionSchema,
    source_id: idSchema(M.sourceRequired),
    destination_ids: z.preprocess(
      (v) => {
        // A blank or missing tick is no destination: conform would otherwise read "" as a bare "Required" inside the list.
        const list = v === null || v === undefined ? [] : typeof v === "string" ? [v] : v;
        return Array.isArray(list) ? list.filter((id) => typeof id !== "string" ? id !== null && id !== undefined : id.trim() !== "") : list;
      },
      z
        .array(z.string({ invalid_type_error: M.destinationRequired }).trim().max(100, M.destinationNotFound), { invalid_type_error: M.destinationRequired })
        .max(50)
        .transform((ids) => ids.filter(Boolean))
        .refine((ids) => ids.length > 0, M.destinationRequired),
    ),
    frequency: frequencySchema,
    /** Kept as it is when left out. */
    lookback_days: lookbackSchema.optional(),
  }),
);
export type UpdateConnectorBody = z.infer<typeof updateConnectorBodySchema>;

/** The form of a connector's details page: which of its buttons was pressed. */
export const connectorIntentSchema = z.object({
  intent: z.enum(CONNECTOR_INTENTS, { errorMap: () => ({ message: M.intentInvalid }) }),
});

/**
 * Platforms (spec §3: plain strings shown in uppercase) are the shapes of data a source produces, as its manifest
 * says; with a source in hand the list narrows to what that source really produces
 * (docs/decisions/2026-11-22-connectors-and-sync.md).
 */
export const platformsFor = (integration: string, metadata?: Record<string, unknown>): string[] => sourcePlatforms(integration, metadata);

/** Issue 37: turning one of a connector's streams off or on (POST /connectors/{id}/streams, the Schema section's switches). */
export const STREAM_MESSAGES = {
  unknown: "This connector's source has no such stream.",
  lastOne: "A connector syncs at least one stream. To stop syncing altogether, pause the connector.",
  enabledRequired: "Please say whether the stream is synced.",
  failed: "Failed to change the stream",
  off: (label: string) => `${label} stopped: syncs leave it out from now on.`,
  onQueued: (label: string) => `${label} syncs again: a sync of the lookback window is queued.`,
  onNext: (label: string) => `${label} syncs again from the next sync, which reads the whole lookback window.`,
  /** Issue 52: Re-sync, its confirmation and its outcome. */
  resyncFailed: "Failed to re-sync the stream",
  resyncOff: "This stream is not synced. Turn it back on to sync it: that reads its whole lookback window.",
  resyncQueued: (label: string) => `${label} is read again: a sync of the whole lookback window is queued.`,
  resyncNext: (label: string) => `${label} is read again by the next sync, which reads the whole lookback window.`,
} as const;

/** POST /connectors/{id}/streams/resync { stream }: drops the stream's state, so the next sync reads its whole window. */
export const connectorStreamResyncBodySchema = z.object({
  stream: z.string({ required_error: STREAM_MESSAGES.unknown, invalid_type_error: STREAM_MESSAGES.unknown }).trim().min(1, STREAM_MESSAGES.unknown).max(128, STREAM_MESSAGES.unknown),
});
export type ConnectorStreamResyncBody = z.infer<typeof connectorStreamResyncBodySchema>;

export const connectorStreamBodySchema = z.object({
  stream: z.string({ required_error: STREAM_MESSAGES.unknown, invalid_type_error: STREAM_MESSAGES.unknown }).trim().min(1, STREAM_MESSAGES.unknown).max(128, STREAM_MESSAGES.unknown),
  enabled: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean({ required_error: STREAM_MESSAGES.enabledRequired, invalid_type_error: STREAM_MESSAGES.enabledRequired })),
});
export type ConnectorStreamBody = z.infer<typeof connectorStreamBodySchema>;
