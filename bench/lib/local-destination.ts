import { randomUUID } from "node:crypto";
import type { Database } from "../../backend/db/client.js";
import { insertDestination } from "../../backend/db/destinations.js";
import { LocalWriter, localFolder, resolveLocalRoot, WAREHOUSE_FILE } from "../../backend/integrations/destinations/local/index.js";

/**
 * A local folder destination of `ownerId`, stored as the product stores one, with its folder and empty warehouse made:
 * its id, its folder (as stored) and where that folder is under `dataDir`.
 */
export async function makeLocalDestination(db: Database, dataDir: string, ownerId: string, name: string): Promise<{ id: string; folder: string; root: string }> {
  const id = randomUUID();
  const folder = localFolder(ownerId, id);
  const root = resolveLocalRoot(dataDir, folder);
  const prepared = new LocalWriter(root);
  await prepared.prepare();
  await prepared.close();
  await insertDestination(db, ownerId, {
    id,
    name,
    description: "",
    integrationName: "local",
    integrationLabel: "Local files",
    category: "STORAGE",
    status: "ACTIVE",
    config: { folder, files: `${folder}/files`, warehouse: `${folder}/${WAREHOUSE_FILE}` },
    credentialId: null,
  });
  return { id, folder, root };
}
