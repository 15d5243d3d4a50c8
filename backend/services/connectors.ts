import { listAllDestinations } from "../db/destinations.js";
import {
  deleteConnector as deleteConnectorRow,
  findConnector,
  insertConnector,
  ownedDestinations,
  ownedSource,
  transformsUsing,
  setConnectorSchedule,
  setPaused,
  updateConnectorRow,
  type ConnectorRecord,
} from "../db/connectors.js";
import type { CancelResult } from "../db/runs.js";
import { CONNECTOR_MESSAGES as M, createConnectorBodySchema, platformsFor, updateConnectorBodySchema } from "../../contract/connectors.js";
import { backfillBodySchema, BACKFILL_MESSAGES } from "../../contract/run-operations.js";
import { isSourceIntegration } from "../../contract/sources.js";
import { enqueueSyncRun, SYNC_RUNS } from "../sync/index.js";
import { runAsker, type Actor } from "./actor.js";
import type { Services } from "./deps.js";
import { conflict, invalid, notFound, parse } from "./errors.js";
import { cancelOpenRun, stopBeforeDelete } from "./runs.js";
import { scheduleUseCases } from "./schedules.js";
import { recordActivity } from "./activity.js";

const target = (c: { id: string; name: string }) => ({ type: "connector" as const, id: c.id, name: c.name });

/** The actor's connector, or not found. */
export async function getConnector(deps: Services, actor: Actor, id: string): Promise<ConnectorRecord> {
  const connector = await findConnector(deps.db, actor.ownerId, id);
  if (!connector) throw notFound(M.notFound);
  return connector;
}

/** The source (the actor's), its platform, and the destinations (the actor's, deduplicated) of a create or update. */
async function checkLinks(deps: Services, actor: Actor, sourceId: string, platform: string | undefined, destinationIds: string[]) {
  const source = await ownedSource(deps.db, actor.ownerId, sourceId);
  if (!source) throw invalid(M.sourceNotFound);
  const platforms = platformsFor(source.integrationName, source.metadata);
  let chosen: string | null = null;
  if (platforms.length) {
    if (platform === undefined) chosen = platforms[0]!;
    else if (!platform) throw invalid(M.platformRequired);
    else if (!platforms.includes(platform)) throw invalid(M.platformInvalid);
    else chosen = platform;
  }
  const ids = [...new Set(destinationIds)];
  const found = await ownedDestinations(deps.db, actor.ownerId, ids);
  if (found.length !== ids.length) throw invalid(M.destinationNotFound);
  const missing = source.requiredIntegrationCategories.filter((category) => !found.some((d) => d.category.toUpperCase() === category.toUpperCase()));
  return { source, platform: chosen, destinations: found, missing };
}

/** A connector made (spec §5 "Connector create", message for message), and its first sync queued unless it is manual only. */
export async function createConnector(deps: Services, actor: Actor, raw: unknown): Promise<ConnectorRecord> {
  const body = parse(createConnectorBodySchema, raw);
  const platformGiven = typeof raw === "object" && raw !== null && "platform" in raw ? body.platform : undefined;
  const { source, platform, destinations, missing } = await checkLinks(deps, actor, body.source_id, platformGiven, body.destination_ids);
  if (destinations.length === 0) {
    const available = await listAllDestinations(deps.db, actor.ownerId);
    throw invalid(available.length ? M.destinationsRequired : M.noDestinationsForPlatform);
  }
  if (missing.length) throw invalid(M.missingCategories(missing));
  const id = await insertConnector(
    deps.db,
    actor.ownerId,
    { name: body.name, description: body.description, sourceId: source.id, platform, frequency: body.frequency, lookbackDays: body.lookback_days },
    destinations.map((d) => d.id),
  );
  // The first sync, at once (issue 35 item 3), unless the connector is manual only or the caller asks not to
  // (`first_sync: false`, for a client that syncs on its own).
  const created = (await findConnector(deps.db, actor.ownerId, id))!;
  await recordActivity(deps, actor, "created", target(created));
  if (body.first_sync !== false && created.schedule?.kind !== "manual") await enqueueSyncRun(deps.db, deps.queue, { id, ownerId: actor.ownerId }, "create");
  return (await findConnector(deps.db, actor.ownerId, id))!;
}

/** The actor's connector updated: its fields and every destination it keeps (at least one, as on create). */
export async function updateConnector(deps: Services, actor: Actor, id: string, raw: unknown): Promise<ConnectorRecord> {
  const existing = await getConnector(deps, actor, id);
  const body = parse(updateConnectorBodySchema, raw);
  const sameSource = existing.sourceId === body.source_id;
  const { source, platform, destinations, missing } = await checkLinks(deps, actor, body.source_id, sameSource ? (existing.platform ?? undefined) : undefined, body.destination_ids);
  if (missing.length) throw invalid(M.missingCategories(missing));
  await updateConnectorRow(
    deps.db,
    actor.ownerId,
    existing.id,
    { name: body.name, description: body.description, sourceId: source.id, platform, frequency: body.frequency, lookbackDays: body.lookback_days ?? existing.lookbackDays },
    destinations.map((d) => d.id),
  );
  await recordActivity(deps, actor, "updated", { type: "connector", id: existing.id, name: body.name });
  return (await findConnector(deps.db, actor.ownerId, existing.id))!;
}

/** A connector deleted, its sync stopped first; a conflict while transforms use it. */
export async function deleteConnector(deps: Services, actor: Actor, id: string): Promise<void> {
  // Its sync is stopped first (nothing lands after the delete), unless the delete is refused anyway.
  const connector = await findConnector(deps.db, actor.ownerId, id);
  if (connector && (await transformsUsing(deps.db, connector.id)).length === 0) await stopBeforeDelete(deps, SYNC_RUNS, connector.id, "sync");
  const result = await deleteConnectorRow(deps.db, actor.ownerId, id);
  if (result.deleted) return recordActivity(deps, actor, "deleted", connector ? target(connector) : { type: "connector", id, name: null });
  if (result.reason === "not_found") throw notFound(M.notFound);
  const names = result.transforms.map((x) => `"${x.name}"`).join(", ");
  const noun = result.transforms.length === 1 ? "transform uses" : "transforms use";
  throw conflict(`This connector cannot be deleted because ${result.transforms.length} ${noun} it: ${names}. Delete those transforms first.`);
}

/** Sync now: a conflict while a sync is queued or running. */
export async function syncConnector(deps: Services, actor: Actor, id: string) {
  const connector = await getConnector(deps, actor, id);
  const run = await enqueueSyncRun(deps.db, deps.queue, { id: connector.id, ownerId: actor.ownerId }, "manual", undefined, runAsker(actor));
  if (!run) throw conflict("A sync of this connector is already queued or running.");
  await recordActivity(deps, actor, "synced", target(connector));
  return run;
}

/** A one-off sync of a date range (contract/run-operations.ts): a conflict while a run is queued or running. */
export async function backfillConnector(deps: Services, actor: Actor, id: string, raw: unknown) {
  const connector = await getConnector(deps, actor, id);
  const range = parse(backfillBodySchema(), raw);
  const run = await enqueueSyncRun(deps.db, deps.queue, { id: connector.id, ownerId: actor.ownerId }, "backfill", range, runAsker(actor));
  if (!run) throw conflict(BACKFILL_MESSAGES.open);
  await recordActivity(deps, actor, "backfilled", target(connector));
  return run;
}

/** The actor's connector's queued sync cancelled, or its running one asked to stop. */
export async function cancelSync(deps: Services, actor: Actor, id: string): Promise<CancelResult> {
  const connector = await getConnector(deps, actor, id);
  const result = await cancelOpenRun(deps, SYNC_RUNS, connector.id);
  // Only a cancel that stopped something is an act; a second click on a run already stopping is not another.
  if (result.outcome === "cancelled" || result.outcome === "stopping") await recordActivity(deps, actor, "cancelled", target(connector));
  return result;
}

/** The actor's connector's schedule: read, set, previewed. */
export const connectorSchedules = scheduleUseCases({ find: findConnector, set: setConnectorSchedule, notFound: M.notFound, recordType: "connector" });

/**
 * The platforms of a source integration; with a source id, those of that very source (a data generator produces only
 * its own style). Not found: an unknown integration, or a source that is not the actor's or not of that integration.
 */
export async function compatiblePlatforms(deps: Services, actor: Actor, integration: string, sourceId?: string): Promise<string[]> {
  if (!isSourceIntegration(integration)) throw notFound(`Unknown source integration: ${integration}`);
  if (!sourceId) return platformsFor(integration);
  const source = await ownedSource(deps.db, actor.ownerId, sourceId);
  if (!source || source.integrationName !== integration) throw notFound("Source not found");
  return platformsFor(integration, source.metadata);
}

/** The actor's destinations that can take this source's platform's data: every destination type holds files and rows. */
export async function compatibleDestinations(deps: Services, actor: Actor, sourceId: string, platform: string) {
  const source = await ownedSource(deps.db, actor.ownerId, sourceId);
  if (!source) throw notFound("Source not found");
  if (!platformsFor(source.integrationName, source.metadata).includes(platform.toLowerCase())) throw invalid(M.platformInvalid);
  return listAllDestinations(deps.db, actor.ownerId);
}

/** The actor's connector paused (no scheduled sync) or resumed. */
export async function pauseConnector(deps: Services, actor: Actor, id: string, paused: boolean): Promise<void> {
  const connector = await getConnector(deps, actor, id);
  await setPaused(deps.db, actor.ownerId, connector.id, paused);
  await recordActivity(deps, actor, paused ? "paused" : "resumed", target(connector));
}
