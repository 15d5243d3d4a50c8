import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Database } from "./client.js";
import type { Executor } from "./runs.js";
import { activity } from "./schema.js";
import { isUuid } from "./values.js";

/**
 * Who did what in a workspace (issue 51 item 4): one row per write and per manual sync, backfill, cancel or run, with
 * the actor's and the record's names as they were then. Every query here is scoped by the workspace; the log is pruned
 * with run history (db/history.ts).
 */

export type ActorKind = "member" | "key";

export interface ActivityRecord {
  id: number;
  at: Date;
  actorKind: ActorKind;
  actorUserId: string | null;
  actorKeyId: string | null;
  actorName: string;
  action: string;
  recordType: string;
  recordId: string | null;
  recordName: string | null;
}

/** An entry to write: a record's fields but its id and time (the database's), in its workspace. */
export type ActivityInsert = Omit<ActivityRecord, "id" | "at"> & { workspaceId: string };

/** The one place an entry's workspace is checked. */
const inWorkspace = (workspaceId: string): SQL => eq(activity.workspaceId, workspaceId);

export async function insertActivity(db: Executor, entry: ActivityInsert): Promise<void> {
  await db.insert(activity).values({
    workspaceId: entry.workspaceId,
    actorKind: entry.actorKind,
    actorUserId: entry.actorUserId,
    actorKeyId: entry.actorKeyId,
    actorName: entry.actorName,
    action: entry.action,
    recordType: entry.recordType,
    recordId: entry.recordId,
    recordName: entry.recordName,
  });
}

const toRecord = (row: typeof activity.$inferSelect): ActivityRecord => ({ ...row, actorKind: row.actorKind as ActorKind });

/** Who an entry is by, as a filter names it: a member (their user id) or a key (its id). */
export type ActorFilter = { kind: "member"; userId: string } | { kind: "key"; keyId: string };

export interface ActivityFilter {
  actor?: ActorFilter;
  recordTypes?: readonly string[];
  /** An entry's id: the entries older than it (the next page). */
  before?: number;
}

/** The workspace's newest `limit` entries matching the filter, newest first. */
export async function listActivity(db: Database, workspaceId: string, filter: ActivityFilter, limit: number): Promise<ActivityRecord[]> {
  const { actor, recordTypes, before } = filter;
  const byActor = actor
    ? actor.kind === "member"
      ? and(eq(activity.actorKind, "member"), isUuid(actor.userId) ? eq(activity.actorUserId, actor.userId) : sql`false`)
      : and(eq(activity.actorKind, "key"), isUuid(actor.keyId) ? eq(activity.actorKeyId, actor.keyId) : sql`false`)
    : undefined;
  const rows = await db
    .select()
    .from(activity)
    .where(and(inWorkspace(workspaceId), byActor, recordTypes?.length ? inArray(activity.recordType, [...recordTypes]) : undefined, before ? lt(activity.id, before) : undefined))
    .orderBy(desc(activity.id))
    .limit(limit);
  return rows.map(toRecord);
}

/** Everyone who appears in the workspace's log (members and keys), with the name of their latest entry, by name. */
export async function activityActors(db: Database, workspaceId: string): Promise<{ kind: ActorKind; id: string; name: string }[]> {
  const result = await db.execute<{ kind: ActorKind; id: string; name: string }>(sql`
    SELECT DISTINCT ON (actor_kind, actor_id) actor_kind AS kind, actor_id AS id, actor_name AS name
    FROM (SELECT id, actor_kind, actor_name, CASE WHEN actor_kind = 'key' THEN actor_key_id ELSE actor_user_id END::text AS actor_id
          FROM ${activity} WHERE workspace_id = ${workspaceId}) AS a
    WHERE actor_id IS NOT NULL
    ORDER BY actor_kind, actor_id, id DESC`);
  return result.rows.sort((a, b) => a.name.localeCompare(b.name) || a.kind.localeCompare(b.kind));
}

/** A record's latest entry of each kind asked for (created; updated), in one statement; none of another workspace's. */
export async function latestEntries(db: Database, workspaceId: string, recordType: string, recordId: string, groups: Record<string, readonly string[]>): Promise<Record<string, ActivityRecord | null>> {
  const names = Object.keys(groups);
  const out: Record<string, ActivityRecord | null> = Object.fromEntries(names.map((n) => [n, null]));
  if (!names.length) return out;
  // Each group's newest entry (the record index, then the newest of its few entries), side by side.
  const parts = names.map(
    (name) => sql`(SELECT ${name}::text AS grp, id, at, actor_kind, actor_user_id, actor_key_id, actor_name, action, record_type, record_id, record_name FROM ${activity}
      WHERE workspace_id = ${workspaceId} AND record_type = ${recordType} AND record_id = ${recordId}
        AND action IN (${sql.join(groups[name]!.map((a) => sql`${a}`), sql`, `)})
      ORDER BY id DESC LIMIT 1)`,
  );
  type Row = { grp: string; id: string | number; at: string | Date; actor_kind: ActorKind; actor_user_id: string | null; actor_key_id: string | null; actor_name: string; action: string; record_type: string; record_id: string | null; record_name: string | null };
  const result = await db.execute<Row>(sql.join(parts, sql` UNION ALL `));
  for (const r of result.rows) {
    out[r.grp] = {
      id: Number(r.id),
      at: new Date(r.at),
      actorKind: r.actor_kind,
      actorUserId: r.actor_user_id,
      actorKeyId: r.actor_key_id,
      actorName: r.actor_name,
      action: r.action,
      recordType: r.record_type,
      recordId: r.record_id,
      recordName: r.record_name,
    };
  }
  return out;
}

/** Deletes the entries older than `cutoff` (the run history's retention), `batch` at a time; answers how many went. */
export async function pruneActivity(db: Database, cutoff: Date, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`DELETE FROM ${activity} WHERE id IN (SELECT id FROM ${activity} WHERE at < ${cutoff} LIMIT ${batch})`);
    const deleted = result.rowCount ?? 0;
    total += deleted;
    if (deleted < batch) return total;
  }
}
