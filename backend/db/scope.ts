import { and, eq, type Placeholder, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/**
 * Which workspace a query reads or writes (issue 51): every owned table's rows are scoped here and nowhere else. A
 * record's `owner_id` names its workspace (schema.ts); the use cases pass the actor's (backend/services/actor.ts).
 * ESLint refuses an `eq(<table>.ownerId, …)` anywhere else in backend/db.
 */

/** The rows of `table` that belong to the workspace (its id, or a prepared statement's placeholder for it). */
export const inWorkspace = (table: { ownerId: PgColumn }, workspaceId: string | Placeholder): SQL => eq(table.ownerId, workspaceId);

/** One record of `table`, by id, if it belongs to the workspace. */
export const workspaceRecord = (table: { id: PgColumn; ownerId: PgColumn }, workspaceId: string, id: string): SQL => and(eq(table.id, id), eq(table.ownerId, workspaceId))!;
