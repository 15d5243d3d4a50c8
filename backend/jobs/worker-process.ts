import { startFileWriter } from "../integrations/destinations/local/files.js";
import { keepSpareInstance, localDestinationAllowed } from "../integrations/destinations/local/index.js";

/**
 * What a process that runs syncs and transforms sets up when it starts (backend/main.ts with a worker role; the sync
 * benchmark's child, which runs a sync as a worker does): where local destinations are allowed, the thread that writes
 * their files and a DuckDB instance made ahead (keepSpareInstance).
 * Both outlive every run of the process; made here, the first run does not wait for them. Resolves once both are
 * ready; rejects if either could not be made (a run then makes its own).
 */
export async function prepareWorkerProcess(env: Record<string, string | undefined> = process.env): Promise<void> {
  if (localDestinationAllowed(env)) await Promise.all([startFileWriter(), keepSpareInstance()]);
}
