import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client.js";
import { apiIdempotency } from "../db/schema.js";

/** How long a first answer is kept for its Idempotency-Key. */
export const IDEMPOTENCY_HOURS = 24;

export type IdempotencyStart =
  | { kind: "first" }
  | { kind: "replay"; status: number; response: unknown }
  | { kind: "pending" }
  | { kind: "mismatch" };

/**
 * Claims `idempotencyKey` for this request (one INSERT … ON CONFLICT DO NOTHING: of two requests at once, one wins), or
 * reads what the first request with it left: its answer, still pending, or another request.
 * A row older than IDEMPOTENCY_HOURS counts as absent and is replaced.
 */
export async function startIdempotent(
  db: Database,
  input: { keyId: string; idempotencyKey: string; request: string; bodyHash: string },
): Promise<IdempotencyStart> {
  const expired = sql`now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`;
  // Now and then, the expired rows of everyone go (an indexed range delete).
  if (Math.random() < 0.01) await db.delete(apiIdempotency).where(lt(apiIdempotency.createdAt, expired));
  const match = and(eq(apiIdempotency.apiKeyId, input.keyId), eq(apiIdempotency.idempotencyKey, input.idempotencyKey));
  await db.delete(apiIdempotency).where(and(match, lt(apiIdempotency.createdAt, expired)));
  const claimed = await db
    .insert(apiIdempotency)
    .values({ apiKeyId: input.keyId, idempotencyKey: input.idempotencyKey, request: input.request, bodyHash: input.bodyHash })
    .onConflictDoNothing()
    .returning({ key: apiIdempotency.idempotencyKey });
  if (claimed.length) return { kind: "first" };
  const [row] = await db.select().from(apiIdempotency).where(match);
  if (!row) return { kind: "pending" };
  if (row.request !== input.request || row.bodyHash !== input.bodyHash) return { kind: "mismatch" };
  if (row.status === null) return { kind: "pending" };
  return { kind: "replay", status: row.status, response: row.response };
}

/** Keeps the first answer (status null: none to keep, the claim is released and a retry is done afresh). */
export async function finishIdempotent(db: Database, keyId: string, idempotencyKey: string, status: number | null, response: unknown): Promise<void> {
  const match = and(eq(apiIdempotency.apiKeyId, keyId), eq(apiIdempotency.idempotencyKey, idempotencyKey));
  if (status === null) await db.delete(apiIdempotency).where(and(match, sql`${apiIdempotency.status} IS NULL`));
  else await db.update(apiIdempotency).set({ status, response }).where(match);
}
