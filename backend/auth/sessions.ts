import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client.js";
import { sessions, users } from "../db/schema.js";
import { prepared } from "../db/prepared.js";
import { randomToken, sha256 } from "../lib/crypto.js";
import type { VerifiedIdentity } from "./identity.js";
import type { UserInfo } from "../../contract/auth.js";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  givenName: string | null;
  picture: string | null;
  /** users.data_version when the session was checked (see DATA_VERSION_HEADER). */
  dataVersion: number;
}

export function toUserInfo(user: Omit<SessionUser, "dataVersion">): UserInfo {
  return { id: user.id, name: user.name, email: user.email, given_name: user.givenName, picture: user.picture };
}

export async function upsertUser(db: Database, identity: VerifiedIdentity): Promise<Omit<SessionUser, "dataVersion">> {
  const [user] = await db
    .insert(users)
    .values({
      issuer: identity.issuer,
      subject: identity.subject,
      email: identity.email,
      name: identity.name,
      givenName: identity.givenName,
      picture: identity.picture,
    })
    .onConflictDoUpdate({
      target: [users.issuer, users.subject],
      set: { email: identity.email, name: identity.name, givenName: identity.givenName, picture: identity.picture, updatedAt: sql`now()` },
    })
    .returning({ id: users.id, name: users.name, email: users.email, givenName: users.givenName, picture: users.picture });
  return user!;
}

export async function createSession(db: Database, userId: string, ttlHours: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
  await db.insert(sessions).values({ tokenHash: sha256(token), userId, expiresAt });
  return { token, expiresAt };
}

/** Every API call checks its session: a prepared statement (see db/prepared.ts). */
const sessionUserQuery = (db: Database) =>
  prepared(db, "session_user", (d) =>
    d
      .select({ id: users.id, name: users.name, email: users.email, givenName: users.givenName, picture: users.picture, dataVersion: users.dataVersion })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, sql.placeholder("hash")), gt(sessions.expiresAt, sql`now()`)))
      .limit(1)
      .prepare("session_user"),
  );

export async function findSessionUser(db: Database, token: string): Promise<SessionUser | null> {
  if (!token || token.length > 200) return null;
  const rows = await sessionUserQuery(db).execute({ hash: sha256(token) });
  return rows[0] ?? null;
}

export async function deleteSession(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, sha256(token)));
}

export async function deleteExpiredSessions(db: Database): Promise<number> {
  const deleted = await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`)).returning({ t: sessions.tokenHash });
  return deleted.length;
}
