import type { DestinationWriter } from "../integrations/destinations/index.js";
import { RefusedHostError } from "../lib/public-address.js";
import { PermanentRunError } from "../runs/engine.js";
import { RunCancelledError } from "../runs/cancel.js";
import { BATCH_RECORDS, type SyncBatch } from "./batch.js";

/** The write half of a sync: batches of records to every destination of the connector, in order. */

const YIELD_EVERY_MS = 2;

export interface NamedWriter {
  name: string;
  writer: DestinationWriter;
}

/** Records per batch for these writers: the largest that any of them asks for, BATCH_RECORDS for one that does not ask. */
export function batchSizeFor(writers: NamedWriter[]): number {
  if (writers.length === 0) return BATCH_RECORDS;
  return Math.max(1, ...writers.map(({ writer }) => writer.batchRecords ?? BATCH_RECORDS));
}

const PERMANENT_CODES = ["EACCES", "EROFS", "EPERM", "ENOSPC", "ENOTDIR", "EISDIR"];

/** Waits for every promise, then rejects with the first failure (so nothing is still writing when the caller hears of it). */
async function settleAll(promises: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/**
 * A destination's failure, named; the OS's refusals (read-only, disk full, …) are permanent, and so is a host the
 * public-address rule refused before connecting: retrying cannot change either.
 */
function writeError(name: string, error: unknown): Error {
  const e = error as Error & { code?: string };
  const message = `Writing to destination "${name}" failed: ${e.message}`;
  if (error instanceof RefusedHostError || (e.code && PERMANENT_CODES.includes(e.code))) return new PermanentRunError(message);
  return Object.assign(new Error(message), { cause: error });
}

/** Bytes of a batch's objects at one destination. */
const objectBytes = (batch: SyncBatch) => batch.objects.reduce((n, o) => n + (typeof o.body === "string" ? Buffer.byteLength(o.body) : o.body.byteLength), 0);

/** Writes one batch to one destination: its files, then its rows table by table (side by side for a writer that can). */
async function writeOne({ name, writer }: NamedWriter, batch: SyncBatch): Promise<void> {
  try {
    // A writer that writes side by side gets the batch's files and every table's rows at once (the local
    // warehouse stages one table while it prepares the next); any other, one after the other.
    if (writer.concurrentWrites) {
      await settleAll([writer.writeObjects(batch.objects), ...batch.tables.map(({ table, rows, key, columns }) => writer.upsertRows(table, rows, key, columns))]);
    } else {
      await writer.writeObjects(batch.objects);
      for (const { table, rows, key, columns } of batch.tables) await writer.upsertRows(table, rows, key, columns);
    }
  } catch (error) {
    throw writeError(name, error);
  }
}

/** Writes one batch to every destination; answers the bytes of objects written (over all destinations). */
export async function writeBatch(writers: NamedWriter[], batch: SyncBatch): Promise<number> {
  for (const writer of writers) await writeOne(writer, batch);
  return objectBytes(batch) * writers.length;
}

/** What one destination has taken of a sync so far: the records and bytes of the batches it committed. */
export interface DestinationCount {
  records: number;
  bytes: number;
}

/** What a sync wrote: `records` landed at some destination (the most any one took), `bytes` over all of them, and each one's share. */
export interface SyncResult {
  records: number;
  bytes: number;
  /** Each destination's counts, in the writers' order (they differ only when Cancel stopped a batch between two). */
  destinations?: DestinationCount[];
}

/** The run's totals from each destination's counts. */
function totals(destinations: DestinationCount[]): SyncResult {
  return {
    records: destinations.reduce((n, d) => Math.max(n, d.records), 0),
    bytes: destinations.reduce((n, d) => n + d.bytes, 0),
    destinations: destinations.map((d) => ({ ...d })),
  };
}

export interface WriteOptions {
  /** Aborted when Cancel asks the run to stop (a timer's view of the flag, runs/cancel.ts). */
  signal?: AbortSignal;
  /** Reads the cancel flag now (one primary-key read): asked before each destination write, so none starts after the click. */
  stopRequested?: () => Promise<boolean>;
  onProgress?: (soFar: SyncResult) => void;
}

/**
 * Writes records to every destination in batches of `batchSize` (by default what the writers ask for), in order. The
 * next batch is read and rendered while the previous one is being written
 * (at most two batches in memory, whatever the volume); each destination's counts grow as it commits a batch, and
 * `onProgress` hears the counts so far each time a batch has reached every destination.
 *
 * Once Cancel asks the run to stop (`signal`, and `stopRequested` read before each destination write) no new write
 * starts, not even of the batch in flight to a destination that has not begun it: what is being written finishes, the
 * writers flush what they hold (nothing is left half-written: every write is idempotent by merge key and object path),
 * and a RunCancelledError carries what each destination committed.
 */
export async function writeRecords<T>(
  writers: NamedWriter[],
  records: Iterable<T> | AsyncIterable<T>,
  toBatch: (items: T[]) => SyncBatch,
  batchSize = batchSizeFor(writers),
  options: WriteOptions = {},
): Promise<SyncResult> {
  const counts: DestinationCount[] = writers.map(() => ({ records: 0, bytes: 0 }));
  let cancelled = false;
  const stopNow = async () => {
    if (cancelled || options.signal?.aborted) return (cancelled = true);
    if (options.stopRequested && (await options.stopRequested())) return (cancelled = true);
    return false;
  };
  /** The batch to each destination in turn, counted as each commits it; none started once Cancel asked to stop. */
  const writeAll = async (batch: SyncBatch) => {
    const bytes = objectBytes(batch);
    for (const [i, writer] of writers.entries()) {
      if (await stopNow()) return;
      await writeOne(writer, batch);
      counts[i]!.records += batch.records;
      counts[i]!.bytes += bytes;
    }
    options.onProgress?.(totals(counts));
  };
  let writing: Promise<void> | undefined;
  let items: T[] = [];
  const flush = async () => {
    if (items.length === 0) return;
    const batch = toBatch(items);
    items = [];
    await writing;
    writing = writeAll(batch);
    // A failed write must not go unobserved while the next batch is read; it is rethrown where awaited.
    writing.catch(() => {});
  };
  let turn = performance.now();
  try {
    for await (const item of records) {
      items.push(item);
      if (items.length >= batchSize) {
        // A batch boundary: the cheap check (the signal is set by a timer, see watchCancel); writeAll reads the flag.
        if (cancelled || options.signal?.aborted) {
          cancelled = true;
          break;
        }
        await flush();
      }
      // A synchronous source (the data generator) never gives the event loop a turn: give it one every few
      // milliseconds so that the previous batch's file and database callbacks run while this one is read.
      if (performance.now() - turn > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        turn = performance.now();
      }
    }
    if (!cancelled) await flush();
  } finally {
    // Whatever stopped the loop (a read error), no write is left running behind the caller, who closes the writers next.
    await writing?.catch(() => {});
  }
  await writing;
  // Writers that gather rows (the local warehouse) merge what they hold: the run is done once it is in.
  for (const { name, writer } of writers) {
    try {
      await writer.flush?.();
    } catch (error) {
      throw writeError(name, error);
    }
  }
  if (cancelled) throw new RunCancelledError(totals(counts));
  return totals(counts);
}
