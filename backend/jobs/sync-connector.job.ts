import { syncRunRange } from "../db/connectors.js";
import type { OutcomeListener } from "../runs/engine.js";
import { runJob } from "../runs/jobs.js";
import { syncConnector, SYNC_RUNS, type SyncServices } from "../sync/index.js";

/**
 * A sync run's job: one attempt reads the connector's source for the window (a backfill: its range) and writes every
 * destination (backend/sync/), telling the run's log what it does and the run its counts as batches land, until Cancel
 * stops it.
 */
export const syncConnectorJob = (services: SyncServices, onOutcome?: OutcomeListener) =>
  runJob(SYNC_RUNS, services.db, { concurrency: process.env.SYNC_CONCURRENCY, defaultConcurrency: 4, expireInSeconds: process.env.SYNC_JOB_EXPIRE_SECONDS }, async (run) =>
    syncConnector(services, run.key, run.startedAt, { range: await syncRunRange(services.db, run.id), signal: run.signal, stopRequested: run.stopRequested, log: run.log, onProgress: run.progress }),
    onOutcome,
  );
