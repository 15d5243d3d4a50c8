import { scalar, type ColumnKind, type Row } from "../writer.js";

/**
 * How a batch reaches DuckDB: the rows as one JSON array (JSON.stringify of the whole batch, one native call) in a
 * file, which DuckDB's own `read_json` inserts into the table; before the transaction commits, SQL keeps one row per key.
 */

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

/**
 * The batch as a JSON array (Dates become ISO text through their toJSON; null when every row is large), and its
 * large rows, which go in one by one (insertRow). A batch with a number JSON cannot hold goes through a replacer
 * (slower, and rare).
 */
export function batchJson(rows: Row[]): { json: string | null; large: Row[] } {
  let needsReplacer = false;
  let large: Row[] = [];
  for (const row of rows) {
    let chars = 0;
    for (const name in row) {
      const value = row[name];
      if (typeof value === "string") chars += value.length;
      else if (typeof value === "number" && special(value)) needsReplacer = true;
    }
    if (chars > LARGE_ROW_CHARS) large.push(row);
  }
  let small = rows;
  if (large.length > 0) {
    const set = new Set(large);
    small = rows.filter((row) => !set.has(row));
  } else large = [];
  if (small.length === 0) return { json: null, large };
  return { json: needsReplacer ? JSON.stringify(small, keepSpecialNumbers) : JSON.stringify(small), large };
}

/** The INSERT of one row, its values bound as text, numbers or booleans and cast to the columns' types. */
export function insertRow(table: string, row: Row, types: Map<string, string>): { sql: string; values: (string | number | boolean | null)[] } {
  const names = Object.keys(row).filter((name) => row[name] !== undefined);
  const values = names.map((name) => scalar(row[name]!));
  const casts = names.map((name, i) => `CAST($${i + 1} AS ${types.get(name.toLowerCase()) ?? "VARCHAR"})`);
  return { sql: `INSERT INTO ${q(table)} (${names.map(q).join(", ")}) VALUES (${casts.join(", ")})`, values };
}

/** An INSERT of a batch file into `table`: its columns read as the given types; the table's others are NULL. */
export function insertBatch(table: string, file: string, columns: [string, string][]): string {
  const types = columns.map(([name, type]) => `${literal(name)}: ${literal(type)}`).join(", ");
  return `INSERT INTO ${q(table)} BY NAME SELECT * FROM read_json(${literal(file)}, format = 'array', columns = {${types}})`;
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
