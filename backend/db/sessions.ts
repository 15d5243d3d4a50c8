import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "./client.js";
import { sessions, users, workspaceMembers } from "./schema.js";
import { prepared } from "./prepared.js";

/** Users and their sessions. Tokens never reach this module: only their SHA-256 (backend/auth/sessions.ts). */

export type UserIdentity = Pick<typeof users.$inferInsert, "issuer" | "subject" | "email" | "name" | "givenName" | "picture">;

/** The person's user row, made on the first sign-in and refreshed from the identity provider on every later one. */
export async function upsertUserRow(db: Database, identity: UserIdentity) {
  const [user] = await db
    .insert(users)
    .values(identity)
    .onConflictDoUpdate({
      target: [users.issuer, users.subject],
      set: { email: identity.email, name: identity.name, givenName: identity.givenName ?? null, picture: identity.picture ?? null, updatedAt: sql`now()` },
    })
    .returning({ id: users.id, name: users.name, email: users.email, givenName: users.givenName, picture: users.picture });
  return user!;
}

export async function insertSession(db: Database, values: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
  await db.insert(sessions).values(values);
}

/** Every API call checks its session: a prepared statement (see prepared.ts). */
const sessionUserQuery = (db: Database) =>
  prepared(db, "session_user", (d) =>
    d
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        givenName: users.givenName,
        picture: users.picture,
        // The workspace they chose, while they belong to it; else their personal one (their own id).
        workspaceId: sql<string>`coalesce(${workspaceMembers.workspaceId}, ${users.id})`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, users.currentWorkspaceId), eq(workspaceMembers.userId, users.id)))
      .where(and(eq(sessions.tokenHash, sql.placeholder("hash")), gt(sessions.expiresAt, sql`now()`)))
      .limit(1)
      .prepare("session_user"),
  );

/** The user of an unexpired session and the workspace they work in, by the token's hash, or null. */
export async function sessionUserRow(db: Database, tokenHash: string) {
  const rows = await sessionUserQuery(db).execute({ hash: tokenHash });
  return rows[0] ?? null;
}

export async function deleteSessionRow(db: Database, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteExpiredSessions(db: Database): Promise<number> {
  const deleted = await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`)).returning({ t: sessions.tokenHash });
  return deleted.length;
}
