import type { Database } from "../db/client.js";
import { connectorDestinationRows, connectorRow, connectorSourceRow } from "../db/connectors.js";
import type { DestinationRow } from "../db/destinations.js";
import type { SecretBox } from "../lib/crypto.js";
import { pluginOf, writerFor } from "../integrations/destinations/index.js";
import type { LandedData } from "../integrations/destinations/plugin.js";
import { PermanentReadError, platformOf, readRecords, sourcePlugin } from "../integrations/sources/index.js";
import { integrationLabel } from "../../contract/sources.js";
import { PermanentRunError } from "../runs/engine.js";
import { RunCancelledError } from "../runs/cancel.js";
import type { RunLogSink } from "../db/run-logs.js";
import type { LandedEntry, RunProgress } from "../db/runs.js";
import { formatBytes } from "../../contract/runs.js";
import { batchMaker, type SyncBatch } from "./batch.js";
import { writeRecords, type DestinationCount, type NamedWriter, type SyncResult } from "./write.js";
import { planRead, saveStreamStates, streamStates, type ReadPlan } from "./state.js";
import type { ItemCounts } from "../integrations/sources/index.js";

/**
 * The sync engine: reads a connector's source for the lookback window (the source plug-ins' readRecords) and writes
 * every record to every destination of the connector (writeRecords). See docs/decisions/2026-11-22-connectors-and-sync.md.
 */

const DAY_MS = 86_400_000;

export interface SyncServices {
  db: Database;
  secrets: SecretBox;
  config: { DATA_DIR: string; SYNC_OVERLAP_HOURS?: number };
}

/** How far before the last sync's end a later one reads again, for what arrives late (a transcript ready hours after its meeting). */
export const DEFAULT_SYNC_OVERLAP_HOURS = 24;

export interface SyncOptions {
  meetingsPerDay?: number;
  batchSize?: number;
  /** A backfill's range [from, to): read instead of the lookback window. */
  range?: { from: Date; to: Date } | null;
  /** Aborted by Cancel: the sync stops at the next batch boundary (writeRecords). */
  signal?: AbortSignal;
  /** Reads the cancel flag now: asked before each destination write (writeRecords). */
  stopRequested?: () => Promise<boolean>;
  /** The run's log: what the sync reads and writes, in a few lines. */
  log?: RunLogSink;
  /** The counts so far, each time a batch has landed at every destination. */
  onProgress?: (progress: RunProgress) => void;
}

/** What a sync did: its counts, and where each destination's data landed. */
export interface SyncOutcome extends SyncResult {
  landed: LandedEntry[];
  /** What an incremental reader listed: items read new, read again as changed, and skipped as landed unchanged. */
  items: ItemCounts;
  /** Whether the read started at the last sync's end (false: the whole lookback window, or a backfill's range). */
  incremental: boolean;
}

/** How often a "batch written" line goes to the run's log, at most (a large sync writes a batch every few ms). */
const BATCH_LINE_EVERY_MS = 1_000;

/** What the batches written so far hold, for the destinations to say where it landed. */
function landedData() {
  const folders = new Set<string>();
  const tables = new Set<string>();
  return {
    note(batch: SyncBatch) {
      // Every object of a sync lies under <platform>/<source id>/: the first of each batch says so.
      const first = batch.objects[0]?.path.split("/");
      if (first && first.length > 2) folders.add(`${first[0]}/${first[1]}/`);
      for (const t of batch.tables) tables.add(t.table);
    },
    get: (): LandedData => ({ folders: [...folders], tables: [...tables] }),
  };
}

/** A sync's counts from each destination's: the records the most any one took, the bytes over all of them. */
function countsResult(destinations: DestinationCount[]): SyncResult {
  return { records: destinations.reduce((n, d) => Math.max(n, d.records), 0), bytes: destinations.reduce((n, d) => n + d.bytes, 0), destinations };
}

/** What each destination committed (its own counts: a cancel may stop a batch between two) and where it landed. */
function landedAt(destinations: DestinationRow[], soFar: SyncResult, data: LandedData): LandedEntry[] {
  const even = destinations.length ? Math.round(soFar.bytes / destinations.length) : 0;
  return destinations.map((d, i) => {
    const location = pluginOf(d).location?.(d, data) ?? (data.tables.length ? `tables ${data.tables.join(", ")}` : "");
    const own = soFar.destinations?.[i];
    return { name: d.name, type: d.integrationName, records: own?.records ?? soFar.records, bytes: own?.bytes ?? even, location };
  });
}

/** Each destination's closing line in the run's log: what it holds of this run. */
function logLanded(log: RunLogSink | undefined, landed: LandedEntry[]): void {
  for (const l of landed) {
    log?.info(`Destination "${l.name}" written: ${l.records.toLocaleString("en-US")} records, ${formatBytes(l.bytes)}${l.location ? ` — ${l.location}` : ""}.`);
  }
}

/**
 * Reads the source for the lookback window ending at `until` (a backfill: exactly its range) and writes every
 * record to every destination. Idempotent: object paths and merge keys come
 * from the record ids.
 */
export async function syncConnector(services: SyncServices, connectorId: string, until: Date, options: SyncOptions = {}): Promise<SyncOutcome> {
  const { db } = services;
  const log = options.log;
  const connector = await connectorRow(db, connectorId);
  if (!connector) throw new PermanentRunError("The connector no longer exists.");
  const destinations = await connectorDestinationRows(db, connector.id);
  if (destinations.length === 0) throw new PermanentRunError("The connector has no destinations.");
  const source = await connectorSourceRow(db, connector.sourceId);
  if (!source) throw new PermanentRunError("The connector's source no longer exists.");
  const sourceLabel = integrationLabel(source.integrationName) ?? source.integrationName;
  const plugin = sourcePlugin(source.integrationName);
  if (!plugin) {
    throw new PermanentRunError(`Reading from ${sourceLabel} is not available on this server.`);
  }
  // The reading half: the records whose time falls in the window, one at a time. A backfill reads its range and leaves
  // the streams' state alone; a sync reads from where the last one ended (less the overlap) when it can (state.ts).
  const skipped = new Set(connector.skippedStreams);
  const streams = plugin.manifest.streams.map((s) => s.name).filter((name) => !skipped.has(name));
  const destinationIds = destinations.map((d) => d.id);
  const overlapHours = services.config.SYNC_OVERLAP_HOURS ?? DEFAULT_SYNC_OVERLAP_HOURS;
  const lookback = { from: new Date(until.getTime() - connector.lookbackDays * DAY_MS), to: until };
  const plan = options.range
    ? planRead({ states: [], streams, destinationIds, lookback: options.range, overlapHours, canNarrow: false })
    : planRead({ states: await streamStates(db, connector.id), streams, destinationIds, lookback, overlapHours, canNarrow: plugin.reader.credential && plugin.reader.incremental === true });
  const span = options.range ? "backfill range" : plan.incremental ? `since the last sync, less ${overlapHours} h for late arrivals` : `${connector.lookbackDays}-day lookback`;
  // A destination added since the state was saved gets the whole window in a read of its own; the others only the new.
  const fresh = new Set(plan.fresh);
  const passes: { plan: ReadPlan; span: string; indexes: number[] }[] = [{ plan, span, indexes: destinations.flatMap((d, i) => (fresh.has(d.id) ? [] : [i])) }];
  if (fresh.size > 0) {
    const whole = planRead({ states: [], streams, destinationIds, lookback, overlapHours, canNarrow: false });
    passes.push({ plan: whole, span: `${connector.lookbackDays}-day lookback, for the destinations added since the last sync`, indexes: destinations.flatMap((d, i) => (fresh.has(d.id) ? [i] : [])) });
  }
  const platform = platformOf(source, connector.platform);
  log?.info(`Writing to ${destinations.length === 1 ? "1 destination" : `${destinations.length} destinations`}: ${destinations.map((d) => `"${d.name}" (${d.integrationLabel})`).join(", ")}.`);

  const landed = landedData();
  /** Each destination's counts, in the destinations' order, over every pass. */
  const counts: DestinationCount[] = destinations.map(() => ({ records: 0, bytes: 0 }));
  const withPass = (indexes: number[], own: DestinationCount[] | undefined) => {
    const merged = counts.map((c) => ({ ...c }));
    indexes.forEach((index, i) => {
      merged[index]!.records += own?.[i]?.records ?? 0;
      merged[index]!.bytes += own?.[i]?.bytes ?? 0;
    });
    return merged;
  };
  let lastLine = 0;
  const onProgress = (soFar: SyncResult) => {
    const now = Date.now();
    if (now - lastLine >= BATCH_LINE_EVERY_MS) {
      lastLine = now;
      log?.info(`Batch written: ${soFar.records.toLocaleString("en-US")} records so far (${formatBytes(soFar.bytes)}).`);
    }
    options.onProgress?.({ records: soFar.records, bytes: soFar.bytes, landed: landedAt(destinations, soFar, landed.get()) });
  };
  const writers: NamedWriter[] = [];
  try {
    for (const d of destinations) {
      try {
        writers.push({ name: d.name, writer: await writerFor(d, connector.ownerId, services, { bulk: true }) });
      } catch (error) {
        throw new PermanentRunError(`Destination "${d.name}" cannot be opened: ${(error as Error).message}`);
      }
    }
    // The streams the connector does not sync (its Schema section's switches) are left out of every batch.
    const makeBatch = batchMaker(plugin, { platform, sourceId: source.id }, new Set(connector.skippedStreams));
    const toBatch = (records: unknown[]) => {
      const made = makeBatch(records);
      landed.note(made);
      return made;
    };
    for (const pass of passes) {
      const { window } = pass.plan;
      const to = passes.length > 1 ? ` for ${pass.indexes.map((i) => `"${destinations[i]!.name}"`).join(", ")}` : "";
      log?.info(`Reading ${sourceLabel} source "${source.name}" from ${window.from.toISOString()} to ${window.to.toISOString()} (${pass.span})${to}.`);
      const records = readRecords(services, source, window, { meetingsPerDay: options.meetingsPerDay, tracker: pass.plan.tracker });
      try {
        const result = await writeRecords(
          pass.indexes.map((i) => writers[i]!),
          records,
          toBatch,
          options.batchSize,
          {
            signal: options.signal,
            stopRequested: options.stopRequested,
            onProgress: log || options.onProgress ? (soFar) => onProgress(countsResult(withPass(pass.indexes, soFar.destinations))) : undefined,
          },
        );
        counts.splice(0, counts.length, ...withPass(pass.indexes, result.destinations));
      } catch (error) {
        if (error instanceof RunCancelledError) throw new RunCancelledError(countsResult(withPass(pass.indexes, (error.values as SyncResult).destinations)));
        throw error;
      }
    }
    // Every record read has landed at every destination: now, and only now, the streams' state moves on.
    if (!options.range) await saveStreamStates(db, connector.id, streams, { until, overlapHours, plan, destinationIds });
    const result = countsResult(counts);
    const items = plan.tracker.counts;
    const outcome = { records: result.records, bytes: result.bytes, landed: landedAt(destinations, result, landed.get()), items, incremental: plan.incremental };
    if (items.new + items.changed + items.skipped > 0) {
      log?.info(`Items: ${items.new.toLocaleString("en-US")} new, ${items.changed.toLocaleString("en-US")} changed, ${items.skipped.toLocaleString("en-US")} skipped as already landed.`);
    }
    if (result.records === 0) log?.info("No records in the window: nothing to write.");
    logLanded(log, outcome.landed);
    return outcome;
  } catch (error) {
    // Stopped by Cancel: the run's counts and each destination's are what each one committed, and the log says so last.
    if (error instanceof RunCancelledError) {
      const soFar = error.values as SyncResult;
      const landedSoFar = landedAt(destinations, soFar, landed.get());
      logLanded(log, landedSoFar);
      throw new RunCancelledError({ records: soFar.records ?? 0, bytes: soFar.bytes ?? 0, landed: landedSoFar });
    }
    // Revoked consent, a missing scope, a deleted user: retrying cannot help; the message says what to fix.
    if (error instanceof PermanentReadError) throw new PermanentRunError(error.message);
    throw error;
  } finally {
    for (const { writer } of writers) await writer.close().catch(() => {});
  }
}
