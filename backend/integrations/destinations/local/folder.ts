import path from "node:path";

/** ALLOW_LOCAL_DESTINATION=false hides and refuses the local destination; anything else allows it. */
export function localDestinationAllowed(env: Record<string, string | undefined> = process.env): boolean {
  return (env.ALLOW_LOCAL_DESTINATION ?? "true").trim().toLowerCase() !== "false";
}

/** The folder of one local destination, relative to DATA_DIR (stored in the destination's config). */
export function localFolder(ownerId: string, destinationId: string): string {
  return path.posix.join("destinations", ownerId, destinationId);
}

/** The destination's folder, which must lie inside DATA_DIR. */
export function resolveLocalRoot(dataDir: string, folder: string): string {
  const base = path.resolve(dataDir);
  const root = path.resolve(base, folder);
  if (!root.startsWith(base + path.sep)) throw new Error("The local destination's folder is outside DATA_DIR");
  return root;
}
