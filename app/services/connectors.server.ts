import { z } from "zod";
import type { Connector, ConnectorStreamBody, CreateConnectorBody, LookbackOption, SyncRun, UpdateConnectorBody } from "@contract/connectors";
import { CONNECTOR_MESSAGES as M, STREAM_MESSAGES } from "@contract/connectors";
import { BACKFILL_MESSAGES, type BackfillBody } from "@contract/run-operations";
import type { Destination } from "@contract/destinations";
import type { Source } from "@contract/sources";
import { RUN_MESSAGES, syncRunDetailsSchema, type RunFailure, type SyncRunDetails } from "@contract/runs";
import { callBackend, type Outcome } from "./backend.server";

export async function loadSources(request: Request): Promise<Outcome<Source[]>> {
  const outcome = await callBackend<Source[]>(request, "/sources/list-all", {}, M.fetchSourcesFailed);
  return outcome.ok ? outcome : { ...outcome, message: M.fetchSourcesFailed };
}

export async function loadLookbackOptions(request: Request): Promise<Outcome<LookbackOption[]>> {
  const outcome = await callBackend<{ lookback_options: LookbackOption[] }>(request, "/connectors/lookback-options", {}, M.fetchLookbackFailed);
  return outcome.ok ? { ok: true, data: outcome.data.lookback_options } : { ...outcome, message: M.fetchLookbackFailed };
}

export async function loadPlatforms(request: Request, source: Source): Promise<Outcome<{ platforms: string[]; message: string }>> {
  const path = `/integrations/${encodeURIComponent(source.integration_id)}/compatible-platforms?source_id=${encodeURIComponent(source.id)}`;
  const outcome = await callBackend<{ platforms: string[]; message: string }>(request, path);
  return outcome.ok ? outcome : { ...outcome, message: M.fetchPlatformsFailed(outcome.status) };
}

export async function loadCompatibleDestinations(request: Request, sourceId: string, platform: string): Promise<Outcome<Destination[]>> {
  const path = `/integrations/source/${encodeURIComponent(sourceId)}/platform/${encodeURIComponent(platform)}/destinations`;
  const outcome = await callBackend<{ destinations: Destination[] }>(request, path);
  return outcome.ok ? { ok: true, data: outcome.data.destinations } : { ...outcome, message: M.fetchDestinationsFailed(outcome.status) };
}

export async function loadAllDestinations(request: Request): Promise<Outcome<Destination[]>> {
  return callBackend<Destination[]>(request, "/destinations/list-all", {}, "Failed to fetch destinations");
}

export function loadConnector(request: Request, id: string): Promise<Outcome<Connector>> {
  return callBackend<Connector>(request, `/connectors/list-by-id/${encodeURIComponent(id)}`, {}, M.fetchConnectorFailed);
}

/**
 * The connector's runs, newest first (a page of them: with `before`, those older than that run; `hasMore` when older
 * ones remain), and its failures in a row when its latest finished run failed.
 */
export async function loadRuns(request: Request, id: string, before?: string): Promise<Outcome<{ runs: SyncRun[]; failing: RunFailure | null; hasMore: boolean }>> {
  const page = before ? `?before=${encodeURIComponent(before)}` : "";
  const outcome = await callBackend<{ runs: SyncRun[]; failing?: RunFailure | null; has_more?: boolean }>(request, `/connectors/${encodeURIComponent(id)}/runs${page}`, {}, "Failed to fetch sync runs");
  return outcome.ok ? { ok: true, data: { runs: outcome.data.runs, failing: outcome.data.failing ?? null, hasMore: outcome.data.has_more ?? false } } : outcome;
}

/** One run of the connector: its attempts, where its data landed and its log. */
export async function loadSyncRun(request: Request, id: string, runId: string): Promise<Outcome<SyncRunDetails>> {
  const schema = z.object({ run: syncRunDetailsSchema }).transform((o) => o.run);
  return callBackend(request, `/connectors/${encodeURIComponent(id)}/runs/${encodeURIComponent(runId)}`, { schema }, RUN_MESSAGES.loadFailed);
}

export function createConnector(request: Request, body: CreateConnectorBody): Promise<Outcome<Connector>> {
  return callBackend<Connector>(request, "/connectors/create", { method: "POST", json: body }, "Something went wrong");
}

export function updateConnector(request: Request, id: string, body: UpdateConnectorBody): Promise<Outcome<Connector>> {
  return callBackend<Connector>(request, `/connectors/update/${encodeURIComponent(id)}`, { method: "PUT", json: body }, M.updateFailed);
}

export function deleteConnector(request: Request, id: string): Promise<Outcome<unknown>> {
  return callBackend(request, `/connectors/delete/${encodeURIComponent(id)}`, { method: "DELETE" }, M.deleteFailed);
}

/** Sync now, Cancel sync, pause and resume (spec §7): a POST to the connector's own call. */
export function connectorCommand(request: Request, id: string, command: "sync" | "cancel" | "pause" | "resume", failure: string): Promise<Outcome<unknown>> {
  return callBackend(request, `/connectors/${encodeURIComponent(id)}/${command}`, { method: "POST", json: {} }, failure);
}

/** Stops syncing one of the connector's streams, or syncs it again (issue 37, the Schema section). */
export function setConnectorStream(request: Request, id: string, body: ConnectorStreamBody): Promise<Outcome<unknown>> {
  return callBackend(request, `/connectors/${encodeURIComponent(id)}/streams`, { method: "POST", json: body }, STREAM_MESSAGES.failed);
}

/** A backfill of the days From–To (whole days in `time_zone`): 409 while a run is queued or running. */
export function backfillConnector(request: Request, id: string, body: BackfillBody): Promise<Outcome<unknown>> {
  return callBackend(request, `/connectors/${encodeURIComponent(id)}/backfill`, { method: "POST", json: body }, BACKFILL_MESSAGES.failed);
}
