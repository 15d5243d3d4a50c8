import { and, asc, desc, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectors, destinations, sources, transforms, users, workspaceInvitations, workspaceMembers, workspaces } from "./schema.js";
import { OWNER_CHANGES_CHANNEL } from "./changes.js";
import { isUuid } from "./values.js";

/**
 * Workspaces, their members and invitations (issue 51). "Is this user a member of that workspace" is asked here and
 * nowhere else; every function that acts on a workspace for a user checks it in the same statement.
 */

export interface WorkspaceRow {
  id: string;
  name: string;
}

/** The pages a workspace's members see moved (its name, its members): the page cache renders them again. */
const touch = (db: Pick<Database, "execute">, workspaceId: string) => db.execute(sql`SELECT pg_notify(${OWNER_CHANGES_CHANNEL}, ${workspaceId})`);

const memberOf = (workspaceId: string, userId: string) => and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId));

/** The workspaces a user belongs to, by name (their personal one first among equals: by when they joined). */
export async function listUserWorkspaces(db: Database, userId: string): Promise<WorkspaceRow[]> {
  return db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(eq(workspaceMembers.userId, userId))
    .orderBy(asc(sql`lower(${workspaces.name})`), asc(workspaceMembers.createdAt));
}

/** Makes `workspaceId` the user's current workspace: false (nothing changed) unless they belong to it. */
export async function setCurrentWorkspace(db: Database, userId: string, workspaceId: string): Promise<boolean> {
  if (!isUuid(workspaceId)) return false;
  const rows = await db
    .update(users)
    .set({ currentWorkspaceId: workspaceId })
    .where(and(eq(users.id, userId), sql`EXISTS (SELECT 1 FROM ${workspaceMembers} WHERE ${memberOf(workspaceId, userId)})`))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** A workspace the user belongs to, or null. */
export async function findMemberWorkspace(db: Database, userId: string, workspaceId: string): Promise<WorkspaceRow | null> {
  if (!isUuid(workspaceId)) return null;
  const [row] = await db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, workspaces.id))
    .where(memberOf(workspaceId, userId));
  return row ?? null;
}

/** A new workspace, its maker its first member, working in it from now on. */
export async function createWorkspace(db: Database, userId: string, name: string): Promise<WorkspaceRow> {
  return db.transaction(async (tx) => {
    const [made] = await tx.insert(workspaces).values({ name }).returning({ id: workspaces.id, name: workspaces.name });
    await tx.insert(workspaceMembers).values({ workspaceId: made!.id, userId });
    await tx.update(users).set({ currentWorkspaceId: made!.id }).where(eq(users.id, userId));
    return made!;
  });
}

export async function renameWorkspace(db: Database, workspaceId: string, name: string): Promise<WorkspaceRow | null> {
  const [row] = await db.update(workspaces).set({ name }).where(eq(workspaces.id, workspaceId)).returning({ id: workspaces.id, name: workspaces.name });
  if (row) await touch(db, workspaceId);
  return row ?? null;
}

export interface MemberRow {
  id: string;
  name: string;
  email: string;
  joinedAt: Date;
}

export async function listMembers(db: Database, workspaceId: string): Promise<MemberRow[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email, joinedAt: workspaceMembers.createdAt })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(workspaceMembers.createdAt), asc(users.name));
}

/**
 * Takes a member out of a workspace, unless they are its last: "removed", "last" (nothing changed) or "not_member".
 * The members are counted with the workspace's row locked, so two leaving at once cannot leave it empty. Their API keys
 * for it stop working by themselves (a key acts only while its maker is a member: db/api-keys.ts).
 */
export async function removeMember(db: Database, workspaceId: string, userId: string): Promise<"removed" | "last" | "not_member"> {
  return db.transaction(async (tx) => {
    await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for("update");
    const members = await tx.select({ userId: workspaceMembers.userId }).from(workspaceMembers).where(eq(workspaceMembers.workspaceId, workspaceId));
    if (!members.some((m) => m.userId === userId)) return "not_member";
    if (members.length === 1) return "last";
    await tx.delete(workspaceMembers).where(memberOf(workspaceId, userId));
    // Their next request lands in their personal workspace (the session query's fallback); forget the choice too.
    await tx.update(users).set({ currentWorkspaceId: null }).where(and(eq(users.id, userId), eq(users.currentWorkspaceId, workspaceId)));
    await touch(tx, workspaceId);
    return "removed";
  });
}

export interface InvitationRow {
  id: string;
  workspaceId: string;
  email: string;
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

const invitationColumns = {
  id: workspaceInvitations.id,
  workspaceId: workspaceInvitations.workspaceId,
  email: workspaceInvitations.email,
  invitedBy: users.name,
  createdAt: workspaceInvitations.createdAt,
  expiresAt: workspaceInvitations.expiresAt,
  acceptedAt: workspaceInvitations.acceptedAt,
  revokedAt: workspaceInvitations.revokedAt,
};

/** The workspace's invitations neither used nor revoked (expired ones included: they can be resent), newest first. */
export async function listOpenInvitations(db: Database, workspaceId: string): Promise<InvitationRow[]> {
  return db
    .select(invitationColumns)
    .from(workspaceInvitations)
    .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(and(eq(workspaceInvitations.workspaceId, workspaceId), isNull(workspaceInvitations.acceptedAt), isNull(workspaceInvitations.revokedAt)))
    .orderBy(desc(workspaceInvitations.createdAt));
}

/** Whether someone signed in with `email` (any case) is a member of the workspace. */
export async function isMemberByEmail(db: Database, workspaceId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(sql`lower(${users.email})`, email.toLowerCase())))
    .limit(1);
  return !!row;
}

/** An open invitation of the workspace to that address (any case), or null. */
export async function findOpenInvitationTo(db: Database, workspaceId: string, email: string): Promise<{ id: string } | null> {
  const [row] = await db
    .select({ id: workspaceInvitations.id })
    .from(workspaceInvitations)
    .where(
      and(
        eq(workspaceInvitations.workspaceId, workspaceId),
        eq(workspaceInvitations.email, email.toLowerCase()),
        isNull(workspaceInvitations.acceptedAt),
        isNull(workspaceInvitations.revokedAt),
        gt(workspaceInvitations.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insertInvitation(
  db: Database,
  values: { workspaceId: string; email: string; tokenHash: string; invitedBy: string; expiresAt: Date },
): Promise<InvitationRow> {
  const [row] = await db.insert(workspaceInvitations).values({ ...values, email: values.email.toLowerCase() }).returning({ id: workspaceInvitations.id });
  return (await findInvitation(db, values.workspaceId, row!.id))!;
}

/** One invitation of the workspace, by id (a missing or malformed id, or another workspace's: null). */
export async function findInvitation(db: Database, workspaceId: string, id: string): Promise<InvitationRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select(invitationColumns)
    .from(workspaceInvitations)
    .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(and(eq(workspaceInvitations.workspaceId, workspaceId), eq(workspaceInvitations.id, id)));
  return row ?? null;
}

/** Withdraws an open invitation of the workspace: its link stops working. False when there is no such open invitation. */
export async function revokeInvitation(db: Database, workspaceId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(workspaceInvitations)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(workspaceInvitations.workspaceId, workspaceId), eq(workspaceInvitations.id, id), isNull(workspaceInvitations.acceptedAt), isNull(workspaceInvitations.revokedAt)))
    .returning({ id: workspaceInvitations.id });
  return rows.length > 0;
}

/** A new token and expiry for an open invitation (the old link stops working); null when there is no such open invitation. */
export async function renewInvitation(db: Database, workspaceId: string, id: string, tokenHash: string, expiresAt: Date): Promise<InvitationRow | null> {
  if (!isUuid(id)) return null;
  const rows = await db
    .update(workspaceInvitations)
    .set({ tokenHash, expiresAt })
    .where(and(eq(workspaceInvitations.workspaceId, workspaceId), eq(workspaceInvitations.id, id), isNull(workspaceInvitations.acceptedAt), isNull(workspaceInvitations.revokedAt)))
    .returning({ id: workspaceInvitations.id });
  return rows.length ? findInvitation(db, workspaceId, id) : null;
}

/** An invitation by its link's token hash, with its workspace's name: whatever its state (the caller says why it is refused). */
export async function findInvitationByTokenHash(db: Database, tokenHash: string): Promise<(InvitationRow & { workspaceName: string }) | null> {
  const [row] = await db
    .select({ ...invitationColumns, workspaceName: workspaces.name })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(eq(workspaceInvitations.tokenHash, tokenHash));
  return row ?? null;
}

/**
 * Uses an invitation for `userId`: in one transaction, the invitation is marked used only if it is still open (not
 * used, revoked or expired, the row locked against a second use), the user becomes a member (already one: nothing
 * more) and works there from now on. False when the invitation was no longer open.
 */
export async function acceptInvitation(db: Database, invitationId: string, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(workspaceInvitations)
      .set({ acceptedAt: sql`now()`, acceptedBy: userId })
      .where(
        and(
          eq(workspaceInvitations.id, invitationId),
          isNull(workspaceInvitations.acceptedAt),
          isNull(workspaceInvitations.revokedAt),
          gt(workspaceInvitations.expiresAt, sql`now()`),
        ),
      )
      .returning({ workspaceId: workspaceInvitations.workspaceId });
    if (!used) return false;
    await tx.insert(workspaceMembers).values({ workspaceId: used.workspaceId, userId }).onConflictDoNothing();
    await tx.update(users).set({ currentWorkspaceId: used.workspaceId }).where(eq(users.id, userId));
    await touch(tx, used.workspaceId);
    return true;
  });
}

const RECORD_TABLES = { sources, destinations, connectors, transforms } as const;
export type RecordKind = keyof typeof RECORD_TABLES;
export const isRecordKind = (value: string): value is RecordKind => Object.hasOwn(RECORD_TABLES, value);

/**
 * A link to a record of another workspace the user belongs to opens it: the workspace that holds record `id` of
 * `kind`, if the user is a member of it and it is not `currentId`, becomes their current one. Answers that workspace,
 * or null (no such record, or none of theirs: the caller's 404 stands).
 */
export async function switchToRecordWorkspace(db: Database, userId: string, currentId: string, kind: RecordKind, id: string): Promise<WorkspaceRow | null> {
  if (!isUuid(id)) return null;
  const table = RECORD_TABLES[kind];
  const [found] = await db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(table)
    .innerJoin(workspaces, eq(workspaces.id, table.ownerId))
    .innerJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, table.ownerId), eq(workspaceMembers.userId, userId)))
    .where(and(eq(table.id, id), ne(table.ownerId, currentId)));
  if (!found) return null;
  await db.update(users).set({ currentWorkspaceId: found.id }).where(eq(users.id, userId));
  return found;
}

/** Names of users by id (who made a key, who invited). */
export async function userNames(db: Database, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}
