import { scalar, type ColumnKind, type Row } from "../writer.js";

/**
 * How a batch reaches DuckDB: the rows as one JSON array (JSON.stringify of the whole batch, one native call) in a
 * file; at the merge, DuckDB's own `read_json` inserts every file staged for a table at once, and SQL keeps one row
 * per key before the transaction commits.
 */

/**
 * Rows a bulk writer (the sync's) holds before it commits them: two of DuckDB's row groups (122,880 rows each). DuckDB
 * writes a transaction's row groups to the file as they fill, so such a commit mostly adds finished row groups; a
 * smaller one left a part-filled row group that every later commit compressed again, at a cost and a memory that grew
 * with the table (bench/RESULTS.md, sync section).
 */
export const BULK_ROWS = 2 * 122_880;
/** Rows of a table staged before a bulk writer inserts them, in the background while the next calls stage theirs. */
export const MERGE_ROWS = 16_384;
/** Records per batch a bulk writer asks the sync engine for: small batches keep the heap small. */
export const BULK_BATCH_RECORDS = 50;

export const DUCK_TYPES: Record<ColumnKind, string> = { string: "VARCHAR", number: "DOUBLE", boolean: "BOOLEAN", timestamp: "TIMESTAMPTZ", json: "JSON" };

export const q = (name: string) => `"${name}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** NaN, ±Infinity and -0, which JSON has no number for: sent as text, which DuckDB casts back to DOUBLE. */
function special(value: number): boolean {
  return !Number.isFinite(value) || (value === 0 && 1 / value < 0);
}

function keepSpecialNumbers(_key: string, value: unknown): unknown {
  return typeof value === "number" && special(value) ? (Object.is(value, -0) ? "-0" : String(value)) : value;
}

/** A row holding more text than this (UTF-16 units) is inserted on its own, its values bound: read_json is slow on huge objects. */
const LARGE_ROW_CHARS = 2 ** 20;

/** The kinds of value a column was given in a batch, as bits (below); null and undefined count as none. */
export type SeenKinds = Record<string, number>;
const STRING = 1;
const NUMBER = 2;
const BOOLEAN = 4;
const DATE = 8;
const OTHER = 16;

/** The kinds of value each of our column types takes from JSON as given, with no cast that could fail. */
const TAKES: Record<string, number> = { VARCHAR: STRING, DOUBLE: NUMBER, BOOLEAN: BOOLEAN, "TIMESTAMP WITH TIME ZONE": DATE, TIMESTAMPTZ: DATE, JSON: STRING | NUMBER | BOOLEAN | OTHER };

/** A staged batch: its rows as a JSON array (null when every row is large), its large rows, the kinds each column got. */
export interface StagedBatch {
  json: string | null;
  large: Row[];
  seen: SeenKinds;
}

/**
 * The batch as a JSON array (Dates become ISO text through their toJSON), its large rows (which go in one by one,
 * insertRow) and the kinds of value each column got. A batch with a number JSON cannot hold goes through a replacer
 * (slower, and rare).
 */
export function batchJson(rows: Row[]): StagedBatch {
  let needsReplacer = false;
  let large: Row[] = [];
  const seen: SeenKinds = Object.create(null) as SeenKinds;
  for (const row of rows) {
    let chars = 0;
    for (const name in row) {
      const value = row[name];
      if (value === null || value === undefined) continue;
      let kind: number;
      if (typeof value === "string") {
        chars += value.length;
        kind = STRING;
      } else if (typeof value === "number") {
        if (special(value)) needsReplacer = true;
        kind = NUMBER;
      } else if (typeof value === "boolean") kind = BOOLEAN;
      else kind = value instanceof Date ? DATE : OTHER;
      seen[name] = (seen[name] ?? 0) | kind;
    }
    if (chars > LARGE_ROW_CHARS) large.push(row);
  }
  let small = rows;
  if (large.length > 0) {
    const set = new Set(large);
    small = rows.filter((row) => !set.has(row));
  } else large = [];
  if (small.length === 0) return { json: null, large, seen };
  return { json: needsReplacer ? JSON.stringify(small, keepSpecialNumbers) : JSON.stringify(small), large, seen };
}

/**
 * Whether every value of the batch goes into its column as given (types: the table's, by lower-case name). A batch
 * with another kind of value (text in a DOUBLE column) is for DuckDB to cast, which may refuse it.
 */
export function fitsColumns(seen: SeenKinds, types: Map<string, string>): boolean {
  for (const name in seen) {
    const takes = TAKES[types.get(name.toLowerCase()) ?? ""] ?? 0;
    if ((seen[name]! & ~takes) !== 0) return false;
  }
  return true;
}

/** A table's columns, types, and how many key constraints it has ($1: its name). */
export const TABLE_COLUMNS =
  "SELECT column_name, data_type, (SELECT count(*) FROM duckdb_constraints() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $1 AND constraint_type IN ('PRIMARY KEY', 'UNIQUE'))::INT FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = 'main' AND table_name = $1 ORDER BY ordinal_position";

export const createTable = (table: string, columns: [string, ColumnKind][]) => `CREATE TABLE IF NOT EXISTS ${q(table)} (${columns.map(([name, kind]) => `${q(name)} ${DUCK_TYPES[kind]}`).join(", ")})`;

/** The table made again without its key constraints, its rows kept (through a table named `spare`). */
export const rebuildTable = (table: string, spare: string) => `CREATE TABLE ${q(spare)} AS SELECT * FROM ${q(table)}; DROP TABLE ${q(table)}; ALTER TABLE ${q(spare)} RENAME TO ${q(table)}`;

/** The INSERT of one row, its values bound as text, numbers or booleans and cast to the columns' types. */
export function insertRow(table: string, row: Row, types: Map<string, string>): { sql: string; values: (string | number | boolean | null)[] } {
  const names = Object.keys(row).filter((name) => row[name] !== undefined);
  const values = names.map((name) => scalar(row[name]!));
  const casts = names.map((name, i) => `CAST($${i + 1} AS ${types.get(name.toLowerCase()) ?? "VARCHAR"})`);
  return { sql: `INSERT INTO ${q(table)} (${names.map(q).join(", ")}) VALUES (${casts.join(", ")})`, values };
}

/**
 * One INSERT of batch files into `table`, in their order: their columns read as the given types (a file without one of
 * them gives NULL there), the table's others are NULL.
 */
export function insertBatches(table: string, files: string[], columns: [string, string][]): string {
  const types = columns.map(([name, type]) => `${literal(name)}: ${literal(type)}`).join(", ");
  return `INSERT INTO ${q(table)} BY NAME SELECT * FROM read_json([${files.map(literal).join(", ")}], format = 'array', columns = {${types}})`;
}

/**
 * What a transaction that inserted rows into `table` runs before it commits, so that each key keeps one row, the
 * last given: its own rows (rowid above `before`, the highest committed when it began) of a key inserted twice keep
 * the last one; then the older rows of its keys go. A replaced row keeps nothing of the old one.
 */
export function replaceStatements(table: string, key: string[], before: bigint, repeated: boolean): string[] {
  const t = q(table);
  const keys = key.map(q).join(", ");
  const match = key.map((k) => `${t}.${q(k)} = s.${q(k)}`).join(" AND ");
  const statements: string[] = [];
  if (repeated) {
    statements.push(
      `DELETE FROM ${t} USING (SELECT ${keys}, max(rowid) AS keep FROM ${t} WHERE rowid > ${before} GROUP BY ALL HAVING count(*) > 1) AS s ` +
        `WHERE ${match} AND ${t}.rowid > ${before} AND ${t}.rowid < s.keep`,
    );
  }
  if (before >= 0n) statements.push(`DELETE FROM ${t} USING (SELECT ${keys} FROM ${t} WHERE rowid > ${before}) AS s WHERE ${match} AND ${t}.rowid <= ${before}`);
  return statements;
}

/** A table written in the open transaction. */
export interface Written {
  key: string[];
  /** The highest rowid committed when the transaction first wrote the table (-1: none); its own rows come after. */
  before: bigint;
  /** Calls written: more than one may hold a key twice. */
  calls: number;
  /** Staged files not yet in the table, in call order, and the columns they hold (by lower-case name: name, type). */
  files: string[];
  columns: Map<string, [string, string]>;
  /** Rows in `files`. */
  stagedRows: number;
}
