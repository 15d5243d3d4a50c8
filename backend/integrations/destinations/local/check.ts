import { DESTINATION_MESSAGES as M } from "../../../../contract/destinations.js";
import { ConnectionTestError, type DestinationCall } from "../plugin.js";
import { localFolder, LocalWriter, resolveLocalRoot } from "./index.js";

/**
 * Creates a new local destination's folder and warehouse file under DATA_DIR (the local destination's "test": there is
 * nothing else to check). A failure is logged for the operator; the user reads a sentence without a server path.
 */
export async function prepareLocalFolder(destinationId: string, { ownerId, services }: DestinationCall): Promise<string> {
  const folder = localFolder(ownerId, destinationId);
  const writer = new LocalWriter(resolveLocalRoot(services.config.DATA_DIR, folder));
  try {
    await writer.prepare();
  } catch (error) {
    services.log?.error({ err: error }, "local destination folder could not be prepared");
    throw new ConnectionTestError(422, `${M.createFailed} The folder under DATA_DIR could not be created.`, { cause: error });
  } finally {
    await writer.close();
  }
  return folder;
}
