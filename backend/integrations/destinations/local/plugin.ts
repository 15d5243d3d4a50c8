import { localManifest } from "../../../../contract/integrations/local.js";
import { listed, type DestinationPlugin } from "../plugin.js";
import { BULK_ROWS, FILES_DIR, localDestinationAllowed, LocalWriter, resolveLocalRoot, WAREHOUSE_FILE } from "./index.js";
import { prepareLocalFolder } from "./check.js";
import { LocalWarehouse } from "./warehouse.js";

const rootOf = (DATA_DIR: string, config: Record<string, unknown>) => resolveLocalRoot(DATA_DIR, String(config.folder ?? ""));

/** A folder under DATA_DIR (files) with an embedded DuckDB warehouse (rows): no account, nothing to test. */
export const localPlugin: DestinationPlugin = {
  manifest: localManifest,
  embedded: true,
  hidden: () => (localDestinationAllowed() ? null : "The local destination is not available on this server (ALLOW_LOCAL_DESTINATION=false)."),
  boundValues: () => ({}),
  async config(_settings, call) {
    const folder = await prepareLocalFolder(call.destinationId, call);
    return { folder, files: `${folder}/files`, warehouse: `${folder}/warehouse.duckdb` };
  },
  // Relative to the data directory, as the destination's page shows its folder: the server's own paths stay private.
  location: (destination, landed) => {
    const folder = String((destination.config as Record<string, unknown>).folder ?? "");
    const files = landed.folders.map((f) => `${folder}/${FILES_DIR}/${f}`);
    return [
      files.length ? `files in ${listed(files)}` : "",
      landed.tables.length ? `tables ${listed(landed.tables)} in ${folder}/${WAREHOUSE_FILE}` : "",
    ].filter(Boolean).join("; ") + " (under the data directory)";
  },
  writer: async (destination, { services }, options) =>
    new LocalWriter(rootOf(services.config.DATA_DIR, destination.config), { holdRows: options?.bulk ? BULK_ROWS : 0 }),
  warehouse: (destination, { services }) => new LocalWarehouse(new LocalWriter(rootOf(services.config.DATA_DIR, destination.config))),
  transformSetup: {
    label: "the local warehouse",
    readGrants: () => ({ description: "Nothing to grant: the local warehouse is a DuckDB file on this server that Tributary reads and writes itself.", instructions: [] }),
    writeGrants: () => ({ description: "Nothing to grant: result tables are written into the same local warehouse.", instructions: [] }),
  },
};
