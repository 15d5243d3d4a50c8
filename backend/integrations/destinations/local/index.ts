export { BULK_BATCH_RECORDS, BULK_ROWS, FILES_DIR, LocalWriter, WAREHOUSE_FILE, type LocalWriterOptions } from "./writer.js";
export { localDestinationAllowed, localFolder, resolveLocalRoot } from "./folder.js";
export { LocalDestinationError, localFailure, withoutServerPaths } from "./errors.js";
export { keepSpareInstance } from "./instances.js";
