import type { ApiKeyRecord } from "../db/api-keys.js";
import type { ApiKey } from "../../contract/api-keys.js";
import { iso } from "./values.js";

/** A key of the public API as its owner's settings page lists it: never its token or hash; its status in words from its dates. */
export function presentApiKey(key: ApiKeyRecord, now = new Date()): ApiKey {
  const status = key.revokedAt ? "revoked" : key.expiresAt && key.expiresAt.getTime() <= now.getTime() ? "expired" : "active";
  return {
    id: key.id,
    name: key.name,
    scope: key.scope,
    prefix: key.prefix,
    status,
    created_at: iso(key.createdAt),
    expires_at: iso(key.expiresAt),
    last_used_at: iso(key.lastUsedAt),
    revoked_at: iso(key.revokedAt),
    created_by: key.createdByName,
  };
}
