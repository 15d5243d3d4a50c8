import { randomUUID } from "node:crypto";
import {
  deleteDestination as deleteDestinationRow,
  findCredential,
  findDestination,
  insertDestination,
  listAllDestinations,
  updateDestinationRow,
  type CredentialRow,
  type DestinationRecord,
} from "../db/destinations.js";
import { createDestinationSchema, DESTINATION_MESSAGES as M, updateDestinationSchema } from "../../contract/destinations.js";
import { destinationPlugin, pluginOf } from "../integrations/destinations/registry.js";
import type { DestinationPlugin } from "../integrations/destinations/plugin.js";
import { validationTokens } from "../integrations/destinations/tokens.js";
import type { Actor } from "./actor.js";
import type { Services } from "./deps.js";
import { conflict, invalid, notFound, parse, ServiceError } from "./errors.js";
import { recordActivity } from "./activity.js";

const target = (d: { id: string; name: string }) => ({ type: "destination" as const, id: d.id, name: d.name });

/*
 * A plug-in's own refusal (ConnectionTestError: a host it may not reach, credentials a provider refused) passes through
 * these use cases unchanged: each edge answers it with the plug-in's status and sentence.
 */

/** The actor's destination, or not found. */
export async function getDestination(deps: Services, actor: Actor, id: string): Promise<DestinationRecord> {
  const destination = await findDestination(deps.db, actor.ownerId, id);
  if (!destination) throw notFound(M.notFound);
  return destination;
}

export const listDestinations = (deps: Services, actor: Actor) => listAllDestinations(deps.db, actor.ownerId);

/**
 * The credential of a successful connection test over exactly these values, or refused with the spec's message: the
 * values must be the ones the signed token covers.
 */
async function testedCredential(deps: Services, actor: Actor, plugin: DestinationPlugin, values: Record<string, unknown>): Promise<CredentialRow> {
  const { db, config, secrets } = deps;
  const integration = plugin.manifest.name;
  const credential = await findCredential(db, actor.ownerId, values.credential_id as string | undefined);
  const tokens = validationTokens(config.TRIBUTARY_SECRET_KEY);
  if (!credential || credential.integrationName !== integration) throw invalid(M.notTested);
  if (!tokens.verify(values.validation_token as string | undefined, actor.ownerId, integration, credential.id, plugin.boundValues(values))) throw invalid(M.notTested);
  // A secret sent again must be the one the test sealed.
  const given = plugin.manifest.secretFields.filter((field) => values[field] !== undefined);
  if (given.length > 0) {
    const sealed = credential.secret ? secrets.open<Record<string, unknown>>(credential.secret) : {};
    if (given.some((field) => sealed[field] !== values[field])) throw invalid(M.notTested);
  }
  return credential;
}

/** A destination made: its type's settings checked, and a cloud one's connection test proven by its signed token. */
export async function createDestination(deps: Services, actor: Actor, raw: unknown): Promise<DestinationRecord> {
  const v = parse(createDestinationSchema, raw);
  const plugin = destinationPlugin(v.integration_name);
  if (!plugin) throw invalid(M.integration);
  const refused = plugin.hidden?.() ?? plugin.unavailable?.()?.reason;
  if (refused) throw invalid(refused);
  const settings = parse(plugin.manifest.settings, raw) as Record<string, unknown>;
  const credential = plugin.manifest.needsConnectionTest ? await testedCredential(deps, actor, plugin, { ...v, ...settings }) : null;
  const id = randomUUID();
  const config = await plugin.config(settings, { ownerId: actor.ownerId, services: deps, destinationId: id, credential });
  const destination = await insertDestination(deps.db, actor.ownerId, {
    id,
    name: v.name!,
    description: v.description ?? "",
    integrationName: plugin.manifest.name,
    integrationLabel: plugin.manifest.label,
    category: plugin.manifest.category,
    status: "ACTIVE",
    config,
    credentialId: credential?.id ?? null,
  });
  await recordActivity(deps, actor, "created", target(destination));
  return destination;
}

/** The actor's destination updated: its name and description, and what its type lets change (tested again where it must be). */
export async function updateDestination(deps: Services, actor: Actor, id: string, raw: unknown): Promise<DestinationRecord> {
  const existing = await getDestination(deps, actor, id);
  const v = parse(updateDestinationSchema, raw);
  if (!v.name) throw invalid(M.name);
  const plugin = pluginOf(existing);
  const retest = (values: Record<string, unknown>) =>
    testedCredential(deps, actor, plugin, values).catch((error: unknown) => {
      throw error instanceof ServiceError && error.message === M.notTested ? invalid(M.reauthenticate) : error;
    });
  const { config, credentialId } = plugin.update ? await plugin.update(existing, v, retest) : { config: existing.config, credentialId: existing.credentialId };
  const updated = await updateDestinationRow(deps.db, actor.ownerId, existing.id, { name: v.name, description: v.description ?? "", config, credentialId });
  if (!updated) throw notFound(M.notFound);
  await recordActivity(deps, actor, "updated", target(updated));
  return updated;
}

/** A destination deleted: not found when not the actor's, a conflict while connectors use it. */
export async function deleteDestination(deps: Services, actor: Actor, id: string): Promise<void> {
  const destination = await findDestination(deps.db, actor.ownerId, id);
  const result = await deleteDestinationRow(deps.db, actor.ownerId, id);
  if (result.deleted) return recordActivity(deps, actor, "deleted", destination ? target(destination) : { type: "destination", id, name: null });
  if (result.reason === "missing") throw notFound(M.notFound);
  const names = result.connectors.map((x) => `"${x.name}"`).join(", ");
  const one = result.connectors.length === 1;
  throw conflict(`This destination is used by the connector${one ? "" : "s"} ${names}. Remove it from ${one ? "that connector" : "those connectors"} (or delete ${one ? "it" : "them"}) first.`);
}
