import type { Database } from "../db/client.js";
import { connectorDestinationRows, connectorRow, connectorSourceRow } from "../db/connectors.js";
import { toDestination } from "../db/destinations.js";
import type { SecretBox } from "../lib/crypto.js";
import { writerFor } from "../integrations/destinations/index.js";
import { PermanentReadError, platformOf, READABLE_INTEGRATIONS, readRecords } from "../integrations/sources/index.js";
import { integrationLabel } from "../../contract/sources.js";
import { PermanentRunError } from "../runs/engine.js";
import { recordBatch } from "./batch.js";
import { writeRecords, type NamedWriter, type SyncResult } from "./write.js";

/**
 * The sync engine: reads a connector's source for the lookback window (the source plug-ins' readRecords) and writes
 * every record to every destination of the connector (writeRecords). See docs/decisions/2026-11-22-connectors-and-sync.md.
 */

const DAY_MS = 86_400_000;

export interface SyncServices {
  db: Database;
  secrets: SecretBox;
  config: { DATA_DIR: string };
}

export interface SyncOptions {
  meetingsPerDay?: number;
  batchSize?: number;
  /** A backfill's range [from, to): read instead of the lookback window. */
  range?: { from: Date; to: Date } | null;
  /** Aborted by Cancel: the sync stops at the next batch boundary (writeRecords). */
  signal?: AbortSignal;
}

/**
 * Reads the source for the lookback window ending at `until` (a backfill: exactly its range) and writes every
 * record to every destination. Idempotent: object paths and merge keys come
 * from the record ids.
 */
export async function syncConnector(services: SyncServices, connectorId: string, until: Date, options: SyncOptions = {}): Promise<SyncResult> {
  const { db } = services;
  const connector = await connectorRow(db, connectorId);
  if (!connector) throw new PermanentRunError("The connector no longer exists.");
  const targets = await connectorDestinationRows(db, connector.id);
  if (targets.length === 0) throw new PermanentRunError("The connector has no destinations.");
  const source = await connectorSourceRow(db, connector.sourceId);
  if (!source) throw new PermanentRunError("The connector's source no longer exists.");
  if (!READABLE_INTEGRATIONS.includes(source.integrationName)) {
    throw new PermanentRunError(`Reading from ${integrationLabel(source.integrationName) ?? source.integrationName} is not available on this server.`);
  }
  // The reading half: the records whose time falls in the window, one at a time.
  const window = options.range ?? { from: new Date(until.getTime() - connector.lookbackDays * DAY_MS), to: until };
  const records = readRecords(services, source, window, options);
  const platform = platformOf(source, connector.platform);

  const writers: NamedWriter[] = [];
  try {
    for (const d of targets) {
      try {
        writers.push({ name: d.name, writer: await writerFor(toDestination(d, 0), connector.ownerId, services, { bulk: true }) });
      } catch (error) {
        throw new PermanentRunError(`Destination "${d.name}" cannot be opened: ${(error as Error).message}`);
      }
    }
    return await writeRecords(writers, records, (batch) => recordBatch(platform, source.id, batch), options.batchSize, options.signal);
  } catch (error) {
    // Revoked consent, a missing scope, a deleted user: retrying cannot help; the message says what to fix.
    if (error instanceof PermanentReadError) throw new PermanentRunError(error.message);
    throw error;
  } finally {
    for (const { writer } of writers) await writer.close().catch(() => {});
  }
}
