import { randomBytes, timingSafeEqual } from "node:crypto";
import { and, desc, eq, exists, gt, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "./client.js";
import { apiKeys, users, workspaceMembers } from "./schema.js";
import { isUuid } from "./values.js";
import { sha256 } from "../lib/crypto.js";
import { inWorkspace } from "./scope.js";

/**
 * Keys of the public API (issue 38). A token is `trb_` and 43 random base62 characters (about 256 bits), shown once when
 * made; only its SHA-256 is stored. A token is long and random, so one fast hash suffices (as GitHub's and Stripe's keys
 * do): a leaked table gives no live key. A key is found by its hash (an index lookup), so no secret is compared in code
 * byte by byte; the hash found is checked again with timingSafeEqual.
 */

export type ApiKeyScope = "read" | "read_write";

export interface ApiKeyRecord {
  id: string;
  name: string;
  scope: ApiKeyScope;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** The member who made it, by name (null: no longer known). */
  createdByName: string | null;
}

export const API_TOKEN_PREFIX = "trb_";
const TOKEN_CHARS = 43;
/** How many of the token's characters are kept to tell keys apart: `trb_` and 8 more (about 48 bits, not enough to guess). */
const SHOWN_CHARS = API_TOKEN_PREFIX.length + 8;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const TOKEN_SHAPE = new RegExp(`^${API_TOKEN_PREFIX}[0-9A-Za-z]{${TOKEN_CHARS}}$`);

/** `count` uniformly random base62 characters (bytes of 248 and more are dropped, so no character is likelier). */
function randomBase62(count: number): string {
  let out = "";
  while (out.length < count) {
    for (const byte of randomBytes(count * 2)) {
      if (byte < 248 && out.length < count) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function newApiToken(): string {
  return API_TOKEN_PREFIX + randomBase62(TOKEN_CHARS);
}

/** The one place a key's owner is checked (the owner becomes a workspace later: this is what changes). */
const ownedBy = (ownerId: string): SQL => inWorkspace(apiKeys, ownerId);

type ApiKeyRow = typeof apiKeys.$inferSelect;

function toRecord(row: ApiKeyRow, createdByName: string | null = null): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as ApiKeyScope,
    prefix: row.prefix,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    createdByName,
  };
}

/** The owner already holds `max` live keys (neither revoked nor expired): no more until one is revoked. */
export class ApiKeyLimitError extends Error {
  constructor(readonly max: number) {
    super(`the owner already holds ${max} live API keys`);
  }
}

/** Live at `now`: not revoked, and without an expiry or expiring later. */
const live = (now: Date): SQL => and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)))!;

/**
 * Makes a key for the owner: its record, and its token, which is never available again. With `maxLive`, an owner who
 * already holds that many live keys gets ApiKeyLimitError; the count and the insert are one step under the owner's
 * lock, so keys made at once cannot pass the limit together.
 */
export async function createApiKey(
  db: Database,
  ownerId: string,
  input: { name: string; scope: ApiKeyScope; expiresAt: Date | null; createdBy?: string },
  options: { maxLive?: number } = {},
): Promise<{ key: ApiKeyRecord; token: string }> {
  const token = newApiToken();
  // Its maker: by default the user whose personal workspace owns it (a personal workspace has its user's id).
  const values = { ownerId, createdBy: input.createdBy ?? ownerId, name: input.name, scope: input.scope, expiresAt: input.expiresAt, prefix: token.slice(0, SHOWN_CHARS), hash: sha256(token) };
  const row = await db.transaction(async (tx) => {
    if (options.maxLive !== undefined) {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`api-keys:${ownerId}`}))`);
      const [held] = await tx.select({ n: sql<number>`count(*)::int` }).from(apiKeys).where(and(ownedBy(ownerId), live(new Date())));
      if (held!.n >= options.maxLive) throw new ApiKeyLimitError(options.maxLive);
    }
    const [inserted] = await tx.insert(apiKeys).values(values).returning();
    const [maker] = await tx.select({ name: users.name }).from(users).where(eq(users.id, values.createdBy));
    return { inserted: inserted!, maker: maker?.name ?? null };
  });
  return { key: toRecord(row.inserted, row.maker), token };
}

/** The owner's keys, newest first, revoked and expired ones included (the page says which). */
export async function listApiKeys(db: Database, ownerId: string): Promise<ApiKeyRecord[]> {
  const rows = await db
    .select({ key: apiKeys, maker: users.name })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(ownedBy(ownerId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => toRecord(row.key, row.maker));
}

/** Revokes the owner's key (a second revoke keeps the first time): false when the owner has no such key. */
export async function revokeApiKey(db: Database, ownerId: string, keyId: string): Promise<boolean> {
  if (!isUuid(keyId)) return false;
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, keyId), ownedBy(ownerId)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/**
 * The key a bearer token is, when it is live (not revoked, not expired at `now`) and its maker still belongs to its
 * workspace (a member who leaves takes their keys' access with them); records its last use. null otherwise.
 */
export async function verifyApiKey(
  db: Database,
  token: string,
  now: Date = new Date(),
): Promise<{ keyId: string; name: string; ownerId: string; createdBy: string; scope: ApiKeyScope } | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const hash = sha256(token);
  const maker = exists(
    db
      .select({ one: sql`1` })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, apiKeys.ownerId), eq(workspaceMembers.userId, apiKeys.createdBy))),
  );
  const [row] = await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.hash, hash), live(now), maker))
    .returning({ id: apiKeys.id, name: apiKeys.name, ownerId: apiKeys.ownerId, createdBy: apiKeys.createdBy, scope: apiKeys.scope, hash: apiKeys.hash });
  if (!row) return null;
  const found = Buffer.from(row.hash);
  const given = Buffer.from(hash);
  if (found.length !== given.length || !timingSafeEqual(found, given)) return null;
  return { keyId: row.id, name: row.name, ownerId: row.ownerId, createdBy: row.createdBy, scope: row.scope as ApiKeyScope };
}
