import { activityActors, insertActivity, latestEntries, listActivity, type ActivityRecord } from "../db/activity.js";
import type { Executor } from "../db/runs.js";
import { ACTIVITY_PAGE_SIZE, actorFilterValue, activityQuerySchema, readActorFilter, recordAuthorsQuerySchema, UPDATE_ACTIONS, type ActivityAction, type ActivityRecordType } from "../../contract/activity.js";
import type { Actor } from "./actor.js";
import type { Services } from "./deps.js";
import { parse } from "./errors.js";

/** The record an entry is about: its type, id and name (as it is now; a deleted record keeps the name it had). */
export interface ActivityTarget {
  type: ActivityRecordType;
  id: string | null;
  name: string | null;
}

/**
 * Records that `actor` did `action` to `target` in their workspace: called by each use case once its write is done
 * (with `db`, a transaction of the use case's own, where it has one).
 */
export async function recordActivity(
  deps: Pick<Services, "db">,
  actor: Actor,
  action: ActivityAction,
  target: ActivityTarget,
  options: { db?: Executor } = {},
): Promise<void> {
  await insertActivity(options.db ?? deps.db, {
    workspaceId: actor.ownerId,
    actorKind: actor.via === "key" ? "key" : "member",
    actorUserId: actor.userId,
    actorKeyId: actor.via === "key" ? actor.keyId : null,
    actorName: actor.name,
    action,
    recordType: target.type,
    recordId: target.id,
    recordName: target.name,
  });
}

/** One page of the actor's workspace's log, newest first, with who appears in it (the filter's choices). */
export async function listWorkspaceActivity(deps: Services, actor: Actor, raw: unknown) {
  const query = parse(activityQuerySchema, raw);
  const filter = {
    actor: query.actor ? readActorFilter(query.actor)! : undefined,
    recordTypes: query.type ? [query.type] : undefined,
    before: query.before ? Number(query.before) : undefined,
  };
  const [rows, actors] = await Promise.all([listActivity(deps.db, actor.ownerId, filter, ACTIVITY_PAGE_SIZE + 1), activityActors(deps.db, actor.ownerId)]);
  const entries = rows.slice(0, ACTIVITY_PAGE_SIZE);
  return {
    entries,
    nextBefore: rows.length > ACTIVITY_PAGE_SIZE ? entries.at(-1)!.id : null,
    actors: actors.map((a) => ({ value: actorFilterValue(a.kind, a.id), kind: a.kind, name: a.name })),
  };
}

/** Who created a record of the actor's workspace and who changed it last (null each: not in the log, or pruned). */
export async function recordAuthors(deps: Services, actor: Actor, raw: unknown): Promise<{ created: ActivityRecord | null; updated: ActivityRecord | null }> {
  const { type, id } = parse(recordAuthorsQuerySchema, raw);
  const found = await latestEntries(deps.db, actor.ownerId, type, id, { created: ["created"], updated: UPDATE_ACTIONS });
  return { created: found.created ?? null, updated: found.updated ?? null };
}
