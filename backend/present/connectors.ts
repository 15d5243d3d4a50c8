import type { ConnectorRecord } from "../db/connectors.js";
import type { RunTriggeredBy } from "../../contract/activity.js";
import type { SyncRunRow } from "../db/runs.js";
import type { SyncRunDetailsRecord } from "../db/connectors.js";
import type { Connector, SyncRun } from "../../contract/connectors.js";
import type { SyncRunDetails } from "../../contract/runs.js";
import { nextRunAt } from "../runs/schedule.js";
import { iso } from "./values.js";
import { presentLastRun, presentLogLine, runFields } from "./runs.js";

/** A connector's schedule as the API answers it: the schedule (null: its frequency's slot) and its next run (null: paused or manual only). */
export function connectorSchedule(c: ConnectorRecord, now = new Date()): Pick<Connector, "schedule" | "next_run_at"> {
  return { schedule: c.schedule, next_run_at: nextRunAt(c.id, c.frequency, c.schedule, c.paused, now) };
}

/** A connector as the API answers it (GET /connectors/list rows, list-by-id without its streams, /api/v1/connectors). */
export function presentConnector(c: ConnectorRecord): Connector {
  const { schedule, next_run_at } = connectorSchedule(c);
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    source_id: c.sourceId,
    source_name: c.sourceName,
    destination_ids: c.destinations.map((d) => d.id),
    destinations: c.destinations.map((d) => ({ id: d.id, name: d.name })),
    frequency: c.frequency,
    lookback_days: c.lookbackDays,
    last_synced_at: iso(c.lastSyncedAt),
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    platform: c.platform,
    paused: c.paused,
    health: c.health,
    schedule,
    next_run_at,
    last_run: c.lastRun ? { ...presentLastRun(c.lastRun), records: c.lastRun.records } : null,
  };
}

/** A sync run as the API answers it (the history, Sync now, backfill). */
export function presentSyncRun(r: SyncRunRow): SyncRun & RunTriggeredBy {
  return { ...runFields(r), connector_id: r.connectorId, bytes: r.bytes, range_from: iso(r.rangeFrom), range_to: iso(r.rangeTo) };
}

/**
 * One sync run's details page: the run, its connector's name, its attempts and where its data landed (as stored), its
 * log, and `logKeptDays` when its log was deleted for its age.
 */
export function presentSyncRunDetails(connector: { name: string }, r: SyncRunDetailsRecord, logKeptDays: number | null): SyncRunDetails {
  return { ...presentSyncRun(r), connector_name: connector.name, attempts: r.attemptLog, landed: r.landed, log: r.log.map((line) => presentLogLine(line)), log_kept_days: logKeptDays };
}

/** The run routes' presenters of a connector's runs (the app's and /api/v1's). */
export const SYNC_RUN_VIEWS = { run: presentSyncRun, details: presentSyncRunDetails };
