import type { ConnectorStreamBody, ConnectorStreamResyncBody, CreateConnectorBody, LookbackOption, SyncRun, UpdateConnectorBody } from "@contract/connectors";
import { CONNECTOR_MESSAGES as M, STREAM_MESSAGES } from "@contract/connectors";
import { BACKFILL_MESSAGES, type BackfillBody } from "@contract/run-operations";
import type { Destination } from "@contract/destinations";
import type { Source } from "@contract/sources";
import { RUN_MESSAGES, type RunFailure, type SyncRunDetails } from "@contract/runs";
import { callBackend, type Outcome } from "./backend.server";

export async function loadSources(request: Request): Promise<Outcome<Source[]>> {
  const outcome = await callBackend(request, "GET /sources/list-all", {}, M.fetchSourcesFailed);
  return outcome.ok ? outcome : { ...outcome, message: M.fetchSourcesFailed };
}

export async function loadLookbackOptions(request: Request): Promise<Outcome<LookbackOption[]>> {
  const outcome = await callBackend(request, "GET /connectors/lookback-options", {}, M.fetchLookbackFailed);
  return outcome.ok ? { ok: true, data: outcome.data.lookback_options } : { ...outcome, message: M.fetchLookbackFailed };
}

export async function loadPlatforms(request: Request, source: Source): Promise<Outcome<{ platforms: string[]; message: string }>> {
  const outcome = await callBackend(request, "GET /integrations/:integration_id/compatible-platforms", {
    params: { integration_id: source.integration_id },
    query: { source_id: source.id },
  });
  return outcome.ok ? { ok: true, data: { platforms: outcome.data.platforms, message: outcome.data.message } } : { ...outcome, message: M.fetchPlatformsFailed(outcome.status) };
}

export async function loadCompatibleDestinations(request: Request, sourceId: string, platform: string): Promise<Outcome<Destination[]>> {
  const outcome = await callBackend(request, "GET /integrations/source/:source_id/platform/:platform/destinations", { params: { source_id: sourceId, platform } });
  return outcome.ok ? { ok: true, data: outcome.data.destinations } : { ...outcome, message: M.fetchDestinationsFailed(outcome.status) };
}

export async function loadAllDestinations(request: Request): Promise<Outcome<Destination[]>> {
  return callBackend(request, "GET /destinations/list-all", {}, "Failed to fetch destinations");
}

/** The connector with its streams (the Schema section). */
export function loadConnector(request: Request, id: string) {
  return callBackend(request, "GET /connectors/list-by-id/:id", { params: { id } }, M.fetchConnectorFailed);
}

/**
 * The connector's runs, newest first (a page of them: with `before`, those older than that run; `hasMore` when older
 * ones remain), and its failures in a row when its latest finished run failed.
 */
export async function loadRuns(request: Request, id: string, before?: string): Promise<Outcome<{ runs: SyncRun[]; failing: RunFailure | null; hasMore: boolean }>> {
  const outcome = await callBackend(request, "GET /connectors/:id/runs", { params: { id }, query: { before } }, "Failed to fetch sync runs");
  return outcome.ok ? { ok: true, data: { runs: outcome.data.runs, failing: outcome.data.failing, hasMore: outcome.data.has_more } } : outcome;
}

/** One run of the connector: its attempts, where its data landed and its log. */
export async function loadSyncRun(request: Request, id: string, runId: string): Promise<Outcome<SyncRunDetails>> {
  const outcome = await callBackend(request, "GET /connectors/:id/runs/:runId", { params: { id, runId } }, RUN_MESSAGES.loadFailed);
  return outcome.ok ? { ok: true, data: outcome.data.run } : outcome;
}

export function createConnector(request: Request, body: CreateConnectorBody) {
  return callBackend(request, "POST /connectors/create", { json: body }, "Something went wrong");
}

export function updateConnector(request: Request, id: string, body: UpdateConnectorBody) {
  return callBackend(request, "PUT /connectors/update/:id", { params: { id }, json: body }, M.updateFailed);
}

export function deleteConnector(request: Request, id: string) {
  return callBackend(request, "DELETE /connectors/delete/:id", { params: { id } }, M.deleteFailed);
}

/** Sync now, Cancel sync, pause and resume (spec §7): a POST to the connector's own call. */
export function connectorCommand(request: Request, id: string, command: "sync" | "cancel" | "pause" | "resume", failure: string) {
  return callBackend(request, `POST /connectors/:id/${command}`, { params: { id }, json: {} }, failure);
}

/** Stops syncing one of the connector's streams, or syncs it again (issue 37, the Schema section). */
export function setConnectorStream(request: Request, id: string, body: ConnectorStreamBody) {
  return callBackend(request, "POST /connectors/:id/streams", { params: { id }, json: body }, STREAM_MESSAGES.failed);
}

/** Issue 52, Re-sync: the stream's state dropped, so the next sync (queued now unless paused or running) reads its whole window. */
export function resyncConnectorStream(request: Request, id: string, body: ConnectorStreamResyncBody) {
  return callBackend(request, "POST /connectors/:id/streams/resync", { params: { id }, json: body }, STREAM_MESSAGES.resyncFailed);
}

/** A backfill of the days From–To (whole days in `time_zone`): 409 while a run is queued or running. */
export function backfillConnector(request: Request, id: string, body: BackfillBody) {
  return callBackend(request, "POST /connectors/:id/backfill", { params: { id }, json: body }, BACKFILL_MESSAGES.failed);
}
