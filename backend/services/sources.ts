import { deleteSource as deleteSourceRow, findCredential, findSource, insertSource, listAllSources, settingInUse, updateSource as updateSourceRow, type SourceRecord } from "../db/sources.js";
import { createSourceBodySchema, SOURCE_MESSAGES as M, updateSourceBodySchema } from "../../contract/sources.js";
import { needsVerification } from "../../contract/integrations/sources.js";
import { credentialVerified, sourcePlugin } from "../integrations/sources/index.js";
import type { Actor } from "./actor.js";
import type { Services } from "./deps.js";
import { conflict, invalid, notFound, parse } from "./errors.js";
import { recordActivity } from "./activity.js";

const target = (s: { id: string; name: string }) => ({ type: "source" as const, id: s.id, name: s.name });

/** The actor's source, or not found. */
export async function getSource(deps: Services, actor: Actor, id: string): Promise<SourceRecord> {
  const source = await findSource(deps.db, actor.ownerId, id);
  if (!source) throw notFound(M.notFound);
  return source;
}

export const listSources = (deps: Services, actor: Actor) => listAllSources(deps.db, actor.ownerId);

/**
 * A source made: the credential must be the actor's, of the chosen integration, and verified where its manifest
 * requires it, for the very setup the source names. A source starts "active": it exists only once its setup is
 * complete (docs/decisions/2026-11-22-source-status.md).
 */
export async function createSource(deps: Services, actor: Actor, raw: unknown): Promise<SourceRecord> {
  const body = parse(createSourceBodySchema, raw);
  const { db } = deps;
  const credential = await findCredential(db, actor.ownerId, body.credentialId, body.integration_name);
  if (!credential) throw invalid(M.mustAuthenticate);
  const metadata = body.source_metadata;
  const plugin = sourcePlugin(body.integration_name)!;
  if (needsVerification(body.integration_name, metadata) && !credentialVerified(plugin, credential, metadata)) throw invalid(M.mustVerify);
  const unique = plugin.uniqueSetting;
  if (unique && metadata[unique.key] && (await settingInUse(db, actor.ownerId, body.integration_name, unique.key, String(metadata[unique.key])))) {
    throw conflict(unique.message);
  }
  const source = await insertSource(db, actor.ownerId, {
    name: body.name,
    description: body.description,
    integrationName: body.integration_name,
    integrationLabel: body.integration_label,
    credentialId: credential.id,
    status: "active",
    metadata,
  });
  await recordActivity(deps, actor, "created", target(source));
  return source;
}

/** A source renamed (its name and description). */
export async function updateSource(deps: Services, actor: Actor, id: string, raw: unknown): Promise<SourceRecord> {
  await getSource(deps, actor, id);
  const body = parse(updateSourceBodySchema, raw);
  const source = await updateSourceRow(deps.db, actor.ownerId, id, body);
  if (!source) throw notFound(M.notFound);
  await recordActivity(deps, actor, "updated", target(source));
  return source;
}

/** A source deleted: not found when not the actor's, a conflict while connectors use it. */
export async function deleteSource(deps: Services, actor: Actor, id: string): Promise<void> {
  const source = await findSource(deps.db, actor.ownerId, id);
  const result = await deleteSourceRow(deps.db, actor.ownerId, id);
  if (result.deleted) return recordActivity(deps, actor, "deleted", source ? target(source) : { type: "source", id, name: null });
  if (result.reason === "not_found") throw notFound(M.notFound);
  const names = result.connectors.map((x) => `"${x.name}"`).join(", ");
  const noun = result.connectors.length === 1 ? "connector uses" : "connectors use";
  throw conflict(`This source cannot be deleted because ${result.connectors.length} ${noun} it: ${names}. Delete those connectors or move them to another source first.`);
}
