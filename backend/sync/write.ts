import type { DestinationWriter } from "../integrations/destinations/index.js";
import { RefusedHostError } from "../lib/public-address.js";
import { PermanentRunError } from "../runs/engine.js";
import { RunCancelledError } from "../runs/cancel.js";
import { BATCH_MEETINGS, type SyncBatch } from "./batch.js";

/** The write half of a sync: batches of records to every destination of the connector, in order. */

const YIELD_EVERY_MS = 2;

export interface SyncResult {
  records: number;
  bytes: number;
}

export interface NamedWriter {
  name: string;
  writer: DestinationWriter;
}

/** Records per batch for these writers: the largest that any of them asks for, BATCH_MEETINGS for one that does not ask. */
export function batchSizeFor(writers: NamedWriter[]): number {
  if (writers.length === 0) return BATCH_MEETINGS;
  return Math.max(1, ...writers.map(({ writer }) => writer.batchRecords ?? BATCH_MEETINGS));
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

/** Writes one batch to every destination; answers the bytes of objects written (over all destinations). */
export async function writeBatch(writers: NamedWriter[], batch: SyncBatch): Promise<number> {
  for (const { name, writer } of writers) {
    try {
      // A writer that writes side by side gets the batch's files and every table's rows at once (the local
      // warehouse stages one table while it prepares the next); any other, one after the other.
      if (writer.concurrentWrites) {
        await settleAll([writer.writeObjects(batch.objects), ...batch.tables.map(({ table, rows, key }) => writer.upsertRows(table, rows, key))]);
      } else {
        await writer.writeObjects(batch.objects);
        for (const { table, rows, key } of batch.tables) await writer.upsertRows(table, rows, key);
      }
    } catch (error) {
      throw writeError(name, error);
    }
  }
  return batch.objects.reduce((n, o) => n + (typeof o.body === "string" ? Buffer.byteLength(o.body) : o.body.byteLength), 0) * writers.length;
}

/**
 * Writes records to every destination in batches of `batchSize` (by default what the writers ask for), in order. The
 * next batch is read and rendered while the previous one is being written
 * (at most two batches in memory, whatever the volume); a batch counts once
 * every destination has it, and `onProgress` hears the counts so far each time one does.
 *
 * Once `signal` is aborted (Cancel, runs/cancel.ts) no new batch starts: the batch in flight finishes, the writers
 * flush what they hold (nothing is left half-written: every write is idempotent by merge key and object path), and a
 * RunCancelledError carries what was written.
 */
export async function writeRecords<T>(
  writers: NamedWriter[],
  records: Iterable<T> | AsyncIterable<T>,
  toBatch: (items: T[]) => SyncBatch,
  batchSize = batchSizeFor(writers),
  options: { signal?: AbortSignal; onProgress?: (soFar: SyncResult) => void } = {},
): Promise<SyncResult> {
  const result: SyncResult = { records: 0, bytes: 0 };
  let writing: Promise<void> | undefined;
  let items: T[] = [];
  const flush = async () => {
    if (items.length === 0) return;
    const batch = toBatch(items);
    items = [];
    await writing;
    writing = writeBatch(writers, batch).then((bytes) => {
      result.records += batch.records;
      result.bytes += bytes;
      options.onProgress?.({ ...result });
    });
    // A failed write must not go unobserved while the next batch is read; it is rethrown where awaited.
    writing.catch(() => {});
  };
  let turn = performance.now();
  let cancelled = false;
  try {
    for await (const item of records) {
      items.push(item);
      if (items.length >= batchSize) {
        // A batch boundary: the cheap check (the signal is set by a timer, see watchCancel).
        if (options.signal?.aborted) {
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
  if (cancelled) throw new RunCancelledError({ ...result });
  return result;
}
