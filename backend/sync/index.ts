/** The sync engine: what the jobs, the HTTP routes, the tests and the benchmarks use of it. */
export { BATCH_RECORDS, batchMaker, type SyncBatch } from "./batch.js";
export { batchSizeFor, writeBatch, writeRecords, type NamedWriter, type SyncResult } from "./write.js";
export { syncConnector, type SyncOptions, type SyncOutcome, type SyncServices } from "./sync-connector.js";
export { enqueueDueRuns, enqueueSyncRun, recoverDeadSyncRuns, recoverLostSyncRuns, SCHEDULER_QUEUE, SYNC_QUEUE, SYNC_RETRY_LIMIT, SYNC_RUNS } from "./runs.js";
export { latestSlot } from "../runs/schedule.js";
/** A failure retrying cannot fix (the runs engine's PermanentRunError, by the name the sync's callers know). */
export { PermanentRunError as PermanentSyncError } from "../runs/engine.js";
