import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectors, credentials, sources } from "./schema.js";
import type { SourceStatus } from "../../contract/sources.js";
import { isUuid } from "./values.js";
import { inWorkspace, workspaceRecord } from "./scope.js";

/** The number of connectors reading from the outer "sources" row. */
export const sourceConnectorCount = sql<number>`(SELECT count(*)::int FROM connectors c WHERE c.source_id = "sources"."id")`;

export type SourceRow = typeof sources.$inferSelect;

/**
 * A source as the backend knows it: its row and the number of connectors reading from it. Its secrets are in its
 * credential, never here. The API's shape is made from it at the HTTP edge (backend/present/sources.ts).
 */
export interface SourceRecord extends SourceRow {
  connectorCount: number;
}

/** All of the owner's sources, newest first (GET /sources/list-all). */
export async function listAllSources(db: Database, ownerId: string): Promise<SourceRecord[]> {
  const rows = await db
    .select({ s: sources, connectorCount: sourceConnectorCount })
    .from(sources)
    .where(inWorkspace(sources, ownerId))
    .orderBy(desc(sources.createdAt), desc(sources.id));
  return rows.map(({ s, connectorCount }) => ({ ...s, connectorCount }));
}

/** One of the owner's sources, or null (another user's record is as absent as a missing one). */
export async function findSource(db: Database, ownerId: string, id: string): Promise<SourceRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ s: sources, connectorCount: sourceConnectorCount })
    .from(sources)
    .where(workspaceRecord(sources, ownerId, id));
  return row ? { ...row.s, connectorCount: row.connectorCount } : null;
}

export async function insertSource(
  db: Database,
  ownerId: string,
  values: { name: string; description: string; integrationName: string; integrationLabel: string; credentialId: string; status: SourceStatus; metadata: Record<string, unknown> },
): Promise<SourceRecord> {
  const [row] = await db.insert(sources).values({ ownerId, ...values }).returning();
  return { ...row!, connectorCount: 0 };
}

export async function updateSource(db: Database, ownerId: string, id: string, values: { name: string; description: string }): Promise<SourceRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .update(sources)
    .set({ ...values, updatedAt: new Date() })
    .where(workspaceRecord(sources, ownerId, id))
    .returning({ id: sources.id });
  return row ? findSource(db, ownerId, row.id) : null;
}

/** The owner's connectors that read from a source (a source in use cannot be deleted). */
export async function connectorsUsingSource(db: Database, ownerId: string, sourceId: string) {
  return db
    .select({ id: connectors.id, name: connectors.name })
    .from(connectors)
    .where(and(eq(connectors.sourceId, sourceId), inWorkspace(connectors, ownerId)))
    .orderBy(asc(connectors.name));
}

export type DeleteResult = { deleted: true } | { deleted: false; reason: "not_found" } | { deleted: false; reason: "in_use"; connectors: { id: string; name: string }[] };

/**
 * Deletes a source unless connectors use it. The check and the delete run in one
 * transaction with the row locked, and connectors.source_id is ON DELETE RESTRICT,
 * so a connector created meanwhile can never be left dangling.
 */
export async function deleteSource(db: Database, ownerId: string, id: string): Promise<DeleteResult> {
  if (!isUuid(id)) return { deleted: false, reason: "not_found" };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: sources.id, credentialId: sources.credentialId })
      .from(sources)
      .where(workspaceRecord(sources, ownerId, id))
      .for("update");
    if (!row) return { deleted: false, reason: "not_found" } as const;
    const using = await tx
      .select({ id: connectors.id, name: connectors.name })
      .from(connectors)
      .where(eq(connectors.sourceId, id))
      .orderBy(asc(connectors.name));
    if (using.length) return { deleted: false, reason: "in_use", connectors: using } as const;
    await tx.delete(sources).where(eq(sources.id, id));
    // The credential goes with its last source: no orphaned tokens at rest.
    if (row.credentialId) {
      const [other] = await tx.select({ id: sources.id }).from(sources).where(eq(sources.credentialId, row.credentialId)).limit(1);
      if (!other) await tx.delete(credentials).where(eq(credentials.id, row.credentialId));
    }
    return { deleted: true } as const;
  });
}

/** Records the outcome of a check against the provider on every source using a credential. */
export async function setStatusByCredential(db: Database, ownerId: string, credentialId: string, status: SourceStatus): Promise<void> {
  await db
    .update(sources)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(sources.credentialId, credentialId), inWorkspace(sources, ownerId), sql`${sources.status} IS DISTINCT FROM ${status}`));
}

// ---- credentials -------------------------------------------------------------------------------

export type CredentialRow = typeof credentials.$inferSelect;

export async function insertCredential(
  db: Database,
  ownerId: string,
  values: { integrationName: string; secret: string | null; metadata: Record<string, unknown> },
): Promise<CredentialRow> {
  const [row] = await db.insert(credentials).values({ ownerId, ...values }).returning();
  return row!;
}

/** One of the owner's credentials of an integration, or null. */
export async function findCredential(db: Database, ownerId: string, id: string, integrationName?: string): Promise<CredentialRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(credentials).where(workspaceRecord(credentials, ownerId, id));
  if (!row || (integrationName && row.integrationName !== integrationName)) return null;
  return row;
}

/**
 * Replaces a credential's sealed secret under its row lock. `next` gets the secret as stored now and answers the one
 * to store, or null to keep it. A second caller waits for the first to commit, then sees what the first stored: two
 * runs (or a run and a request) never refresh from the same stored token, which matters where the provider revokes
 * a refresh token once used (Zoom). False when the credential is gone (`next` is not called).
 */
export async function replaceCredentialSecret(
  db: Database,
  ownerId: string,
  id: string,
  next: (stored: string | null) => Promise<string | null>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ secret: credentials.secret })
      .from(credentials)
      .where(workspaceRecord(credentials, ownerId, id))
      .for("update");
    if (!row) return false;
    const secret = await next(row.secret);
    if (secret !== null) await tx.update(credentials).set({ secret, updatedAt: new Date() }).where(eq(credentials.id, id));
    return true;
  });
}

export async function updateCredential(db: Database, ownerId: string, id: string, values: { secret?: string | null; metadata?: Record<string, unknown> }) {
  await db
    .update(credentials)
    .set({ ...values, updatedAt: new Date() })
    .where(workspaceRecord(credentials, ownerId, id));
}

/** The values of one setting (a key of `metadata`) among the owner's sources of an integration (e.g. their teams). */
export async function settingValuesInUse(db: Database, ownerId: string, integrationName: string, key: string): Promise<Set<string>> {
  const rows = await db
    .select({ value: sql<string | null>`${sources.metadata}->>${key}` })
    .from(sources)
    .where(and(inWorkspace(sources, ownerId), eq(sources.integrationName, integrationName)));
  return new Set(rows.map((r) => r.value).filter((v): v is string => !!v));
}

/** Whether the owner has a source of the integration whose setting `key` is `value`. */
export async function settingInUse(db: Database, ownerId: string, integrationName: string, key: string, value: string): Promise<boolean> {
  const [taken] = await db
    .select({ id: sources.id })
    .from(sources)
    .where(and(inWorkspace(sources, ownerId), eq(sources.integrationName, integrationName), sql`${sources.metadata}->>${key} = ${value}`))
    .limit(1);
  return !!taken;
}
