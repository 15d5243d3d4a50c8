import type { ApiKeyScope } from "../db/api-keys.js";

/**
 * Who acts, and whose records they act on: a signed-in member through the app, or an API key through /api/v1. Every
 * use case takes one; the records it reads and writes are those of `ownerId`, the workspace it acts in (a record's
 * owner_id names its workspace: backend/db/schema.ts), so that "whose" is decided here and nowhere else.
 */
export type Actor =
  | { via: "session"; userId: string; ownerId: string; name: string }
  | { via: "key"; keyId: string; scope: ApiKeyScope; userId: string; ownerId: string; name: string };

/** A member signed in through the app, working in `workspaceId`; `name` is theirs (who acted, in the activity log). */
export const memberActor = (userId: string, workspaceId: string, name: string): Actor => ({ via: "session", userId, ownerId: workspaceId, name });

/** Who asked for a run, as the run keeps it: the actor's name, and whether a member or a key. */
export const runAsker = (actor: Actor) => ({ name: actor.name, via: actor.via === "key" ? ("key" as const) : ("member" as const) });

/** An API key: it acts for its workspace's records, on behalf of the member who made it; its name says who acted. */
export const keyActor = (key: { keyId: string; name: string; ownerId: string; createdBy: string; scope: ApiKeyScope }): Actor => ({
  via: "key",
  keyId: key.keyId,
  scope: key.scope,
  userId: key.createdBy,
  ownerId: key.ownerId,
  name: key.name,
});
