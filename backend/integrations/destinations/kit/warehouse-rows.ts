import { isUuid } from "../../../db/values.js";
import type { ScanColumn } from "../warehouse.js";
import { PLATFORM_FILE_TYPES } from "../../../../contract/integrations/sources.js";

/** What the warehouse plug-ins share when they read synced rows for transforms: filters, row shapes, plain values. */

export function platformsFor(fileTypes: string[]): string[] {
  return Object.entries(PLATFORM_FILE_TYPES)
    .filter(([, types]) => types.some((t) => fileTypes.includes(t)))
    .map(([p]) => p);
}

/** A source id checked to be a UUID (it is put into SQL text by some warehouses). */
export const uuid = (id: string) => {
  if (!isUuid(id)) throw new Error("Invalid source id");
  return id;
};
const KNOWN_PLATFORMS = Object.keys(PLATFORM_FILE_TYPES);
/** Only known platform names (they are put into SQL text by some warehouses). */
export const platformList = (platforms: string[]) => platforms.filter((p) => KNOWN_PLATFORMS.includes(p));
export const num = (v: unknown) => (typeof v === "number" ? v : Number(v ?? 0));

/** A row with lower-case column names (warehouses that answer upper case). */
export const lower = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));

/** A result cell as plain JSON (the results call's rows hold scalars): timestamps as ISO text, JSON values as their text. */
function plainValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "object") return JSON.stringify(v);
  return v;
}
export const plainRow = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plainValue(v)]));

/** A scanned row with each column as its stream type says (timestamps are read as epoch milliseconds by every dialect). */
export function typedRow(row: Record<string, unknown>, columns: readonly ScanColumn[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, type } of columns) {
    const v = row[name] ?? row[name.toUpperCase()];
    if (v === null || v === undefined) out[name] = null;
    else if (type === "timestamp") out[name] = v instanceof Date ? v : new Date(num(v));
    else if (type === "number") out[name] = num(v);
    else if (type === "boolean") out[name] = v === true || v === "true" || v === 1;
    else if (type === "json") out[name] = typeof v === "string" ? parseJson(v) : v;
    else out[name] = typeof v === "string" ? v : String(v);
  }
  return out;
}
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Rows regrouped into batches of at most `size` (a driver's own chunks may be larger or smaller). */
export async function* rebatch(chunks: AsyncIterable<Record<string, unknown>[]>, size: number, columns: readonly ScanColumn[]): AsyncGenerator<Record<string, unknown>[]> {
  let batch: Record<string, unknown>[] = [];
  for await (const chunk of chunks) {
    for (const row of chunk) {
      batch.push(typedRow(row, columns));
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/**
 * A warehouse's table lookup that remembers the tables it found: a transform's scans ask again for every batch of
 * meetings, and a table does not vanish while a warehouse is open. A table not found is asked for again.
 */
export function foundOnce<A extends unknown[]>(lookup: (...args: A) => Promise<boolean>): (...args: A) => Promise<boolean> {
  const found = new Set<string>();
  return async (...args) => {
    const key = JSON.stringify(args);
    if (found.has(key)) return true;
    const exists = await lookup(...args);
    if (exists) found.add(key);
    return exists;
  };
}
