import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client.js";
import { connectorStreamStates } from "../db/schema.js";
import { ReadTracker, type LandedItems } from "../integrations/sources/index.js";

/**
 * Issue 52: a connector's state per stream (connector_stream_states) and the read it plans. The first sync reads the
 * lookback window; a later one, when every stream it syncs has a state that every destination of the connector
 * shares, reads from the earliest stream's end less the late-arrival overlap, with a tracker of what landed there. A
 * stream switched on or re-synced (its state dropped) reads the whole window again; a destination added since gets the
 * whole window in a read of its own, the others only what is new (ReadPlan.fresh).
 */

const HOUR_MS = 3_600_000;

export type StreamState = typeof connectorStreamStates.$inferSelect;

export async function streamStates(db: Database, connectorId: string): Promise<StreamState[]> {
  return db.select().from(connectorStreamStates).where(eq(connectorStreamStates.connectorId, connectorId));
}

export interface ReadPlan {
  window: { from: Date; to: Date };
  /** Whether the window starts at the earlier syncs' end (false: the whole lookback window). */
  incremental: boolean;
  tracker: ReadTracker;
  /**
   * The destinations an incremental read must not be left to (added since the streams' state was saved): they get the
   * whole lookback window in a read of their own, the others only what is new. Empty for a read of the whole window.
   */
  fresh: string[];
}

/**
 * The read of a sync ending at `until`: `lookback` is the whole window; `streams` the streams it syncs; `canNarrow`
 * whether the source's reader reads incrementally (else it reads the whole window every time, as the data generator).
 */
export function planRead(options: {
  states: StreamState[];
  streams: string[];
  destinationIds: string[];
  lookback: { from: Date; to: Date };
  overlapHours: number;
  canNarrow: boolean;
}): ReadPlan {
  const { states, streams, destinationIds, lookback } = options;
  const whole: ReadPlan = { window: lookback, incremental: false, tracker: new ReadTracker(), fresh: [] };
  if (!options.canNarrow || streams.length === 0) return whole;
  const mine = streams.map((name) => states.find((s) => s.stream === name));
  if (mine.some((s) => !s)) return whole;
  const fresh = destinationIds.filter((d) => !mine.every((s) => s!.destinationIds.includes(d)));
  // No destination holds what the state says (all replaced since): one read of the whole window serves them all.
  if (fresh.length === destinationIds.length) return whole;
  const syncedTo = Math.min(...mine.map((s) => s!.syncedTo.getTime()));
  const from = Math.max(lookback.from.getTime(), Math.min(syncedTo, lookback.to.getTime()) - options.overlapHours * HOUR_MS);
  // The streams of one source are read together, from the same records: an item is skipped only when it landed, the
  // same, in every stream the read writes.
  const landed: LandedItems = {};
  for (const [key, entry] of Object.entries(mine[0]!.landed)) {
    if (mine.every((s) => s!.landed[key]?.[0] === entry[0])) landed[key] = entry;
  }
  return { window: { from: new Date(from), to: lookback.to }, incremental: true, tracker: new ReadTracker(landed, mine[0]!.token ?? null), fresh };
}

/**
 * After the read's records landed at every destination: each synced stream's state says it holds up to `until`, with
 * the items the next read's overlap may list again. Never moves a stream's end backwards (a late retry of an older slot).
 * An incremental read only moves states that are still there: a Re-sync that dropped one while the read ran wins, and
 * the next sync reads that stream's whole window.
 */
export async function saveStreamStates(
  db: Database,
  connectorId: string,
  streams: string[],
  state: { until: Date; overlapHours: number; plan: ReadPlan; destinationIds: string[] },
): Promise<void> {
  if (streams.length === 0) return;
  const next = state.plan.tracker.next(new Date(state.until.getTime() - state.overlapHours * HOUR_MS));
  const values = { syncedTo: state.until, token: next.token, landed: next.landed, destinationIds: state.destinationIds, updatedAt: new Date() };
  if (state.plan.incremental) {
    await db
      .update(connectorStreamStates)
      .set({ ...values, syncedTo: sql`GREATEST(${connectorStreamStates.syncedTo}, ${state.until})` })
      .where(and(eq(connectorStreamStates.connectorId, connectorId), inArray(connectorStreamStates.stream, streams)));
    return;
  }
  await db
    .insert(connectorStreamStates)
    .values(streams.map((stream) => ({ connectorId, stream, ...values })))
    .onConflictDoUpdate({
      target: [connectorStreamStates.connectorId, connectorStreamStates.stream],
      set: {
        syncedTo: sql`GREATEST(${connectorStreamStates.syncedTo}, excluded.synced_to)`,
        token: sql`excluded.token`,
        landed: sql`excluded.landed`,
        destinationIds: sql`excluded.destination_ids`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/** Re-sync: the stream's state goes, so the next sync reads its whole window again. */
export async function dropStreamState(db: Database, connectorId: string, stream: string): Promise<void> {
  await db.delete(connectorStreamStates).where(and(eq(connectorStreamStates.connectorId, connectorId), eq(connectorStreamStates.stream, stream)));
}
