import type { ApiKeyScope } from "../db/api-keys.js";

/**
 * Who acts, and whose records they act on: a signed-in member through the app, or an API key through /api/v1. Every
 * use case takes one; the records it reads and writes are those of `ownerId` (one person's today; a workspace's once
 * records belong to workspaces), so that "whose" is decided here and nowhere else.
 */
export type Actor =
  | { via: "session"; userId: string; ownerId: string }
  | { via: "key"; keyId: string; scope: ApiKeyScope; userId: string; ownerId: string };

/** A member signed in through the app. */
export const memberActor = (userId: string): Actor => ({ via: "session", userId, ownerId: userId });

/** An API key: it acts for the records of the user who made it. */
export const keyActor = (key: { keyId: string; ownerId: string; scope: ApiKeyScope }): Actor => ({
  via: "key",
  keyId: key.keyId,
  scope: key.scope,
  userId: key.ownerId,
  ownerId: key.ownerId,
});
