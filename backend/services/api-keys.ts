import { ApiKeyLimitError, createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from "../db/api-keys.js";
import { API_KEY_MESSAGES as M, API_KEYS_PER_USER_MAX, createApiKeyBodySchema } from "../../contract/api-keys.js";
import type { Actor } from "./actor.js";
import type { Services } from "./deps.js";
import { conflict, notFound, parse } from "./errors.js";
import { recordActivity } from "./activity.js";

/** The keys of the public API the actor's records can be reached with. */
export const listKeys = (deps: Services, actor: Actor): Promise<ApiKeyRecord[]> => listApiKeys(deps.db, actor.ownerId);

/** A key made: the token is answered here only, and stored hashed. A conflict past API_KEYS_PER_USER_MAX live keys. */
export async function createKey(deps: Services, actor: Actor, raw: unknown): Promise<{ key: ApiKeyRecord; token: string }> {
  const body = parse(createApiKeyBodySchema, raw);
  const made = await createApiKey(
    deps.db,
    actor.ownerId,
    { name: body.name, scope: body.scope, expiresAt: body.expires_at ? new Date(body.expires_at) : null, createdBy: actor.userId },
    { maxLive: API_KEYS_PER_USER_MAX },
  ).catch((error: unknown) => {
    if (error instanceof ApiKeyLimitError) throw conflict(M.tooMany);
    throw error;
  });
  deps.log.info({ userId: actor.userId, keyId: made.key.id, scope: made.key.scope }, "API key created");
  await recordActivity(deps, actor, "created", { type: "api_key", id: made.key.id, name: made.key.name });
  return made;
}

/** A key revoked: it answers 401 from now on. Not found when it is not the actor's. */
export async function revokeKey(deps: Services, actor: Actor, id: string): Promise<void> {
  const key = (await listApiKeys(deps.db, actor.ownerId)).find((k) => k.id === id);
  if (!(await revokeApiKey(deps.db, actor.ownerId, id))) throw notFound(M.notFound);
  deps.log.info({ userId: actor.userId, keyId: id }, "API key revoked");
  // Revoking a revoked key again changes nothing: not another act.
  if (!key?.revokedAt) await recordActivity(deps, actor, "revoked", { type: "api_key", id, name: key?.name ?? null });
}
