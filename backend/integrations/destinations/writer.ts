import type { StreamColumnType } from "../../../contract/integrations/streams.js";

/**
 * What the sync engine writes through: one small interface for every
 * destination. Writes are idempotent: an object path or a row key written
 * twice leaves one object or one row (the later one).
 */
export interface DestinationObject {
  /** Relative path inside the destination ("zoom/meetings/2026-11-22/123.json"); no "..", no leading "/". */
  path: string;
  body: string | Uint8Array;
  contentType?: string;
}

export type RowValue = string | number | boolean | null | Date | Record<string, unknown> | unknown[];
export type Row = Record<string, RowValue>;

export interface DestinationWriter {
  /** Writes (or overwrites) objects laid out as in a bucket. */
  writeObjects(objects: DestinationObject[]): Promise<void>;
  /**
   * Inserts rows, replacing any row with the same values in `key` columns. Creates the table (and new columns) as
   * needed: with `columns` (a stream's declaration), each declared column of its declared kind whatever the values (a
   * column null in this batch, or absent from it, included), in their order; a column of the rows that is not declared,
   * and every column without `columns`, of the kind of its values (tableColumns). An existing column keeps its type.
   */
  upsertRows(table: string, rows: Row[], key: string[], columns?: readonly DeclaredColumn[]): Promise<void>;
  /**
   * A writer that gathers rows over upsertRows calls (a bulk load) makes them durable here; an error of
   * theirs may come out of a later upsertRows call or of flush. Absent: upsertRows writes before it returns.
   */
  flush?(): Promise<void>;
  /** Lets go of connections (after writing what a flush would write). */
  close(): Promise<void>;
  /**
   * True when writeObjects and upsertRows may run at the same time (they share
   * no connection), so a batch's files and rows are written side by side, and
   * when upsertRows may be called for several tables at once (the writer keeps
   * their order). Absent: one after the other.
   */
  readonly concurrentWrites?: boolean;
  /**
   * Records per batch this writer works best with. The sync engine batches by the largest that its writers
   * ask for, counting BATCH_RECORDS (backend/sync/batch.ts) for a writer that does not ask.
   */
  readonly batchRecords?: number;
}

/** Table and column names every destination accepts unquoted-safe: letters, digits, _; not starting with a digit. */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export function checkName(kind: "table" | "column", name: string): string {
  if (!NAME_PATTERN.test(name)) throw new Error(`Invalid ${kind} name ${JSON.stringify(name)}: use letters, digits and _`);
  return name;
}

/**
 * The checks every upsertRows makes before it writes: a valid table name, at least one valid key column, and a value
 * in every row's key columns. False when there is nothing to write (no rows).
 */
export function checkUpsert(table: string, rows: Row[], key: string[]): boolean {
  checkName("table", table);
  if (key.length === 0) throw new Error("upsertRows needs at least one key column");
  key.forEach((k) => checkName("column", k));
  for (const row of rows) for (const k of key) if (row[k] === null || row[k] === undefined) throw new Error(`Row without key column ${k}`);
  return rows.length > 0;
}

/** A relative object path, normalised; throws on anything that could leave the destination's root. */
export function checkObjectPath(path: string): string {
  if (!VALID_OBJECT_PATH.test(path) || DOT_SEGMENT.test(path)) throw new Error(`Invalid object path ${JSON.stringify(path)}`);
  return path;
}

/** Segments of one or more characters other than "/", "\\" and control characters, joined by single slashes. */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const VALID_OBJECT_PATH = /^[^/\\\u0000-\u001f]+(?:\/[^/\\\u0000-\u001f]+)*$/;
/** A segment that is "." or "..". */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/** A column's kind: the types a stream declares its columns with (each writer maps them to its own SQL types). */
export type ColumnKind = StreamColumnType;

/** A column a table is declared with (a stream's, contract/integrations/streams.ts StreamColumn): its name and kind. */
export interface DeclaredColumn {
  readonly name: string;
  readonly type: ColumnKind;
}

export function kindOf(value: RowValue): ColumnKind | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  if (value instanceof Date) return "timestamp";
  return "json";
}

/**
 * The column kinds of a batch of rows: a column takes the kind of its first non-null value, unless that comes
 * after a null and some row holds a string there; a column that is always null is a string. Each name is checked
 * once, and a column is looked at again only while it may still change (a sync passes ~100k rows a second).
 */
export function columnsOf(rows: Row[]): Map<string, ColumnKind> {
  const columns = new Map<string, ColumnKind>();
  /** Columns whose kind is "string" only because their values so far were null. */
  const undecided = new Set<string>();
  /** The own names of the last row looked at, in order. */
  let lastNames: string[] = [];
  for (const row of rows) {
    // A row with the very names of the row before, in the same order, while no column is undecided, has nothing to
    // tell: this check alone is ~4× faster than looking its names up (a sync's rows all have one shape).
    if (undecided.size === 0 && sameNames(row, lastNames)) continue;
    const names: string[] = [];
    for (const name in row) {
      if (!Object.hasOwn(row, name)) continue;
      names.push(name);
      const known = columns.get(name);
      if (known !== undefined && !undecided.has(name)) continue;
      const kind = kindOf(row[name]);
      if (known === undefined) {
        checkName("column", name);
        columns.set(name, kind ?? "string");
        if (kind === null) undecided.add(name);
        continue;
      }
      if (kind === null) continue;
      undecided.delete(name);
      if (kind !== "string" && !holdsString(rows, name)) columns.set(name, kind);
    }
    lastNames = names;
  }
  return columns;
}

/**
 * The columns an upsert makes sure the table has, name → kind: the declared ones first, in their order, of their
 * declared kinds (whatever the values: a column null in the first batch is not made a string); then the columns of the
 * rows that are not declared, of the kind of their values (columnsOf), so that no value is dropped. Without a
 * declaration (a transform's result table): columnsOf(rows).
 */
export function tableColumns(rows: Row[], declared?: readonly DeclaredColumn[]): Map<string, ColumnKind> {
  const inferred = columnsOf(rows);
  if (!declared?.length) return inferred;
  const columns = new Map<string, ColumnKind>();
  for (const { name, type } of declared) {
    if (columns.has(checkName("column", name))) throw new Error(`Column ${JSON.stringify(name)} is declared twice`);
    columns.set(name, type);
  }
  for (const [name, kind] of inferred) if (!columns.has(name)) columns.set(name, kind);
  return columns;
}

/** Whether the row's enumerable names are `names`, in that order (an inherited one makes it false). */
function sameNames(row: Row, names: string[]): boolean {
  let i = 0;
  for (const name in row) if (names[i++] !== name) return false;
  return i === names.length;
}

/**
 * Whether some row holds a string in the column. A function of its own: a closure over the loop's `name` in
 * columnsOf made every pass of that loop allocate a context (~530 bytes per row of 13 columns).
 */
function holdsString(rows: Row[], name: string): boolean {
  for (const row of rows) if (typeof row[name] === "string") return true;
  return false;
}

/** The minute isoTime formatted last (its first millisecond), and its text up to the seconds ("2026-11-20T09:41:"). */
let minuteStart = NaN;
let minuteText = "";
/** The last millisecond of year 9999: toISOString writes years past it (and before year 0) with six digits. */
const LAST_FOUR_DIGIT_MS = 253_402_300_799_999;

/**
 * `date.toISOString()`, about five times faster for a time in the minute of the time before it (a sync formats
 * one for each of ~100k transcript lines a second, most in the minute of the line before).
 */
export function isoTime(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= 0 && ms <= LAST_FOUR_DIGIT_MS)) return date.toISOString(); // invalid (throws as it does), or far out
  let offset = ms - minuteStart;
  if (!(offset >= 0 && offset < 60_000)) {
    minuteStart = ms - (ms % 60_000);
    minuteText = new Date(minuteStart).toISOString().slice(0, 17);
    offset = ms - minuteStart;
  }
  const seconds = Math.floor(offset / 1000);
  const milliseconds = offset % 1000;
  return `${minuteText}${seconds < 10 ? "0" : ""}${seconds}.${milliseconds < 10 ? "00" : milliseconds < 100 ? "0" : ""}${milliseconds}Z`;
}

/** A value as a scalar the drivers bind: JSON for objects, ISO text for dates. */
export function scalar(value: RowValue): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return isoTime(value);
  if (typeof value === "object") return JSON.stringify(value);
  return value;
}

/**
 * The rows of a batch with one row per key: a key given twice keeps its later row (as writing them in
 * order would). Keys compare as text, as a warehouse's key column would take them (1 and "1" are one key).
 */
export function latestPerKey(rows: Row[], key: string[]): Row[] {
  const byKey = new Map<string, Row>();
  for (const row of rows) byKey.set(rowKey(row, key), row);
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

/** A row's key as text, as latestPerKey compares keys (the parts of a composite key joined by NUL). */
export function rowKey(row: Row, key: string[]): string {
  return key.length === 1 ? String(scalar(row[key[0]!] ?? null)) : key.map((k) => String(scalar(row[k] ?? null))).join("\u0000");
}
