import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectorDestinations, connectors, credentials, destinations } from "./schema.js";
import { isUuid } from "./values.js";
import { inWorkspace, workspaceRecord } from "./scope.js";

/**
 * A destination as stored: its settings' non-secret config (a secret lives sealed in its credential). The sync engine
 * and the plug-ins take this (backend/integrations/destinations/plugin.ts PluginDestination), never the API's shape.
 */
export type DestinationRow = typeof destinations.$inferSelect;

/** A destination as the owner's lookups answer it: its row and the number of connectors writing to it (the API's shape: backend/present/destinations.ts). */
export interface DestinationRecord extends DestinationRow {
  connectorCount: number;
}

/** The number of connectors writing to the outer "destinations" row. */
export const destinationConnectorCount = sql<number>`(SELECT count(*)::int FROM connector_destinations cd WHERE cd.destination_id = "destinations"."id")`;

/** All of the owner's destinations, newest first (GET /destinations/list-all: the connector form's choices). */
export async function listAllDestinations(db: Database, ownerId: string): Promise<DestinationRecord[]> {
  const rows = await db
    .select({ d: destinations, connectorCount: destinationConnectorCount })
    .from(destinations)
    .where(inWorkspace(destinations, ownerId))
    .orderBy(desc(destinations.createdAt), desc(destinations.id));
  return rows.map((r) => ({ ...r.d, connectorCount: r.connectorCount }));
}

/** One of the owner's destinations, or null (another user's record is as absent as a missing one). */
export async function findDestination(db: Database, ownerId: string, id: string): Promise<DestinationRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ d: destinations, connectorCount: destinationConnectorCount })
    .from(destinations)
    .where(workspaceRecord(destinations, ownerId, id));
  return row ? { ...row.d, connectorCount: row.connectorCount } : null;
}

export interface NewDestination {
  id?: string;
  name: string;
  description: string;
  integrationName: string;
  integrationLabel: string;
  category: string;
  status: string | null;
  config: Record<string, unknown>;
  credentialId: string | null;
}

export async function insertDestination(db: Database, ownerId: string, values: NewDestination): Promise<DestinationRecord> {
  const [row] = await db.insert(destinations).values({ ownerId, ...values }).returning();
  return { ...row!, connectorCount: 0 };
}

export async function updateDestinationRow(
  db: Database,
  ownerId: string,
  id: string,
  values: { name: string; description: string; config: Record<string, unknown>; credentialId: string | null },
): Promise<DestinationRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .update(destinations)
    .set({ ...values, updatedAt: new Date() })
    .where(workspaceRecord(destinations, ownerId, id))
    .returning();
  if (!row) return null;
  return findDestination(db, ownerId, id);
}

/** The destinations a connector writes to, oldest first (not owner-scoped: the caller checks the connector's owner). */
export async function connectorDestinationList(db: Database, connectorId: string): Promise<DestinationRow[]> {
  const rows = await db
    .select({ d: destinations })
    .from(connectorDestinations)
    .innerJoin(destinations, eq(destinations.id, connectorDestinations.destinationId))
    .where(eq(connectorDestinations.connectorId, connectorId))
    .orderBy(asc(destinations.createdAt), asc(destinations.id));
  return rows.map((r) => r.d);
}

/** Whether the destination is the owner's. */
export async function ownsDestination(db: Database, ownerId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [own] = await db.select({ id: destinations.id }).from(destinations).where(workspaceRecord(destinations, ownerId, id));
  return own !== undefined;
}

/** The connectors (id, name) that write to a destination. */
export async function connectorsUsing(db: Database, destinationId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: connectors.id, name: connectors.name })
    .from(connectorDestinations)
    .innerJoin(connectors, eq(connectors.id, connectorDestinations.connectorId))
    .where(eq(connectorDestinations.destinationId, destinationId))
    .orderBy(connectors.name);
}

export type DeleteResult = { deleted: true; row: DestinationRow } | { deleted: false; reason: "missing" } | { deleted: false; reason: "in-use"; connectors: { id: string; name: string }[] };

/**
 * Deletes the owner's destination unless a connector writes to it. The row is
 * locked first, and the foreign key (ON DELETE RESTRICT) backs the check up if
 * a connector is linked in between.
 */
export async function deleteDestination(db: Database, ownerId: string, id: string): Promise<DeleteResult> {
  if (!isUuid(id)) return { deleted: false, reason: "missing" };
  try {
    return await deleteLocked(db, ownerId, id);
  } catch (error) {
    // A connector linked between the check and the delete: the foreign key refused it.
    if ((error as { code?: string }).code === "23503" || (error as { cause?: { code?: string } }).cause?.code === "23503") {
      return { deleted: false, reason: "in-use", connectors: await connectorsUsing(db, id) };
    }
    throw error;
  }
}

function deleteLocked(db: Database, ownerId: string, id: string): Promise<DeleteResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(destinations)
      .where(workspaceRecord(destinations, ownerId, id))
      .for("update");
    if (!row) return { deleted: false, reason: "missing" } as const;
    const using = await connectorsUsing(tx as unknown as Database, id);
    if (using.length > 0) return { deleted: false, reason: "in-use", connectors: using } as const;
    await tx.delete(destinations).where(eq(destinations.id, id));
    return { deleted: true, row } as const;
  });
}

export type CredentialRow = typeof credentials.$inferSelect;

export async function findCredential(db: Database, ownerId: string, id: string | undefined): Promise<CredentialRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(credentials).where(workspaceRecord(credentials, ownerId, id));
  return row ?? null;
}

export async function insertCredential(
  db: Database,
  ownerId: string,
  values: { integrationName: string; secret: string | null; metadata: Record<string, unknown> },
): Promise<CredentialRow> {
  const [row] = await db.insert(credentials).values({ ownerId, ...values }).returning();
  return row!;
}

/** The owner's credential for the platform's service account on an integration, made once and reused. */
export async function serviceAccountCredential(db: Database, ownerId: string, integrationName: string, email: string): Promise<CredentialRow> {
  const [existing] = await db
    .select()
    .from(credentials)
    .where(
      and(
        inWorkspace(credentials, ownerId),
        eq(credentials.integrationName, integrationName),
        sql`${credentials.metadata}->>'service_account_email' = ${email}`,
        sql`${credentials.secret} IS NULL`,
      ),
    )
    .orderBy(desc(credentials.createdAt))
    .limit(1);
  if (existing) return existing;
  return insertCredential(db, ownerId, { integrationName, secret: null, metadata: { service_account_email: email, kind: "platform_service_account" } });
}
