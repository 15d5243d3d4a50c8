import { and, eq } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectors, transforms } from "./schema.js";
import type { Transform } from "../../contract/transforms.js";
import { isUuid } from "./values.js";


/** One of the owner's transforms, or null (another user's record is as absent as a missing one). */
export async function findTransform(db: Database, ownerId: string, id: string): Promise<Transform | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ t: transforms, connectorName: connectors.name })
    .from(transforms)
    .leftJoin(connectors, eq(connectors.id, transforms.connectorId))
    .where(and(eq(transforms.id, id), eq(transforms.ownerId, ownerId)));
  if (!row) return null;
  return {
    id: row.t.id,
    name: row.t.name,
    description: row.t.description,
    transform_type: row.t.transformType,
    connector_id: row.t.connectorId,
    connector_name: row.connectorName,
    status: row.t.status,
    created_at: row.t.createdAt.toISOString(),
  };
}

export async function deleteTransform(db: Database, ownerId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const deleted = await db.delete(transforms).where(and(eq(transforms.id, id), eq(transforms.ownerId, ownerId))).returning({ id: transforms.id });
  return deleted.length > 0;
}
