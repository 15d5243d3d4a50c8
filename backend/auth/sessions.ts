import type { Database } from "../db/client.js";
import { deleteExpiredSessions, deleteSessionRow, insertSession, sessionUserRow, upsertUserRow } from "../db/sessions.js";
import { randomToken, sha256 } from "../lib/crypto.js";
import type { VerifiedIdentity } from "./identity.js";
import type { UserInfo } from "../../contract/auth.js";

export { deleteExpiredSessions };

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  givenName: string | null;
  picture: string | null;
}

/** A signed-in user and the workspace whose records they act on now (backend/services/actor.ts). */
export interface SessionMember extends SessionUser {
  workspaceId: string;
}

export function toUserInfo(user: SessionUser): UserInfo {
  return { id: user.id, name: user.name, email: user.email, given_name: user.givenName, picture: user.picture };
}

export async function upsertUser(db: Database, identity: VerifiedIdentity): Promise<SessionUser> {
  return upsertUserRow(db, {
    issuer: identity.issuer,
    subject: identity.subject,
    email: identity.email,
    name: identity.name,
    givenName: identity.givenName,
    picture: identity.picture,
  });
}

/** A new session: the cookie gets the random token, the database only its SHA-256 (a leak does not leak live sessions). */
export async function createSession(db: Database, userId: string, ttlHours: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
  await insertSession(db, { tokenHash: sha256(token), userId, expiresAt });
  return { token, expiresAt };
}

export async function findSessionUser(db: Database, token: string): Promise<SessionMember | null> {
  if (!token || token.length > 200) return null;
  return sessionUserRow(db, sha256(token));
}

export async function deleteSession(db: Database, token: string): Promise<void> {
  await deleteSessionRow(db, sha256(token));
}
