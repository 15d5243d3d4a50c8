import { SqlError, type SqlValue } from "./warehouse-sql.js";
import { typed, type FakeTable, type SchemaField } from "./google-bigquery-values.js";

/**
 * GoogleSQL MERGE, as far as a sync writer sends it (the documented statement, with a table as its source):
 *
 *   MERGE [INTO] target [AS] t USING source [AS] s ON t.k = s.k [AND …]
 *     [WHEN MATCHED THEN UPDATE SET col = s.col | NULL, …]
 *     [WHEN NOT MATCHED [BY TARGET] THEN INSERT (col, …) VALUES (s.col | NULL, …)]
 *
 * Like BigQuery, a target row matched by two source rows is an error, and NULL keys never match.
 */
export interface MergeStatement {
  target: string[];
  source: string[];
  /** Target column = source column. */
  on: { target: string; source: string }[];
  /** Target column ← source column (null: NULL). */
  set?: { column: string; from: string | null }[];
  insert?: { columns: string[]; values: (string | null)[] };
}

const IDENT = "(?:`[^`]+`|[A-Za-z_][\\w-]*(?:\\.[A-Za-z_][\\w-]*)*)";
const PATTERN = new RegExp(
  `^MERGE\\s+(?:INTO\\s+)?(${IDENT})\\s+(?:AS\\s+)?(\\w+)\\s+USING\\s+(${IDENT})\\s+(?:AS\\s+)?(\\w+)\\s+ON\\s+(.+?)` +
    `(?:\\s+WHEN\\s+MATCHED\\s+THEN\\s+UPDATE\\s+SET\\s+(.+?))?` +
    `(?:\\s+WHEN\\s+NOT\\s+MATCHED(?:\\s+BY\\s+TARGET)?\\s+THEN\\s+INSERT\\s*\\((.+?)\\)\\s*VALUES\\s*\\((.+?)\\))?\\s*;?\\s*$`,
  "is",
);

export const isMerge = (sql: string) => /^\s*MERGE\b/i.test(sql);
export const isCreateTable = (sql: string) => /^\s*CREATE\s+TABLE\b/i.test(sql);

/** GoogleSQL's column types by their schema names (tables.insert speaks FLOAT, DDL FLOAT64). */
const SCHEMA_TYPE: Record<string, string> = { FLOAT64: "FLOAT", INT64: "INTEGER", BOOL: "BOOLEAN" };
const UNIT_MS: Record<string, number> = { SECOND: 1_000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000 };

/**
 * CREATE TABLE [IF NOT EXISTS] t (`col` TYPE, …) [OPTIONS (expiration_timestamp =
 * TIMESTAMP_ADD(CURRENT_TIMESTAMP(), INTERVAL n SECOND|MINUTE|HOUR|DAY))]: the table's parts, fields and expiry.
 */
export function parseCreateTable(sql: string): { table: string[]; ifNotExists: boolean; fields: SchemaField[]; expirationTime?: number } {
  const m = new RegExp(`^CREATE\\s+TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?(${IDENT})\\s*\\((.+?)\\)\\s*(?:OPTIONS\\s*\\((.+)\\))?\\s*;?\\s*$`, "is").exec(sql.trim());
  if (!m) throw new SqlError("Syntax error: this fake understands CREATE TABLE t (`col` TYPE, …) [OPTIONS (expiration_timestamp = …)]");
  const fields = m[3]!.split(",").map((definition) => {
    const [name, type, ...rest] = definition.trim().split(/\s+/);
    if (!name || !type || rest.length) throw new SqlError(`Syntax error: this fake expects \`name\` TYPE, got ${JSON.stringify(definition.trim())}`);
    return { name: unquote(name), type: SCHEMA_TYPE[type.toUpperCase()] ?? type.toUpperCase() };
  });
  let expirationTime: number | undefined;
  if (m[4]) {
    const e = /^\s*expiration_timestamp\s*=\s*TIMESTAMP_ADD\s*\(\s*CURRENT_TIMESTAMP\s*\(\s*\)\s*,\s*INTERVAL\s+(\d+)\s+(SECOND|MINUTE|HOUR|DAY)\s*\)\s*$/i.exec(m[4]);
    if (!e) throw new SqlError("Syntax error: this fake understands OPTIONS (expiration_timestamp = TIMESTAMP_ADD(CURRENT_TIMESTAMP(), INTERVAL n UNIT)) only");
    expirationTime = Date.now() + Number(e[1]) * UNIT_MS[e[2]!.toUpperCase()]!;
  }
  return { table: tableParts(m[2]!), ifNotExists: Boolean(m[1]), fields, expirationTime };
}

const unquote = (name: string) => name.trim().replace(/^`|`$/g, "");
const tableParts = (ref: string) => unquote(ref).split(".").flatMap((p) => unquote(p).split("."));

/** `alias.col` (or a bare column) → the column, checking the alias. */
function qualified(text: string, alias: string): string {
  const m = /^(?:(\w+)\.)?(`[^`]+`|\w+)$/.exec(text.trim());
  if (!m) throw new SqlError(`Syntax error: this fake expects a column, got ${JSON.stringify(text.trim())}`);
  if (m[1] && m[1].toLowerCase() !== alias.toLowerCase()) throw new SqlError(`Unrecognized name: ${m[1]}`);
  return unquote(m[2]!);
}
const sourceOrNull = (text: string, alias: string) => (/^NULL$/i.test(text.trim()) ? null : qualified(text, alias));

export function parseMerge(sql: string): MergeStatement {
  const m = PATTERN.exec(sql.trim());
  if (!m) throw new SqlError("Syntax error: this fake understands MERGE … USING <table> … ON … WHEN MATCHED THEN UPDATE SET … WHEN NOT MATCHED THEN INSERT (…) VALUES (…)");
  const [, target, t, source, s, on, set, columns, values] = m as unknown as [string, string, string, string, string, string, string?, string?, string?];
  const statement: MergeStatement = {
    target: tableParts(target),
    source: tableParts(source),
    on: on.split(/\s+AND\s+/i).map((pair) => {
      const sides = pair.split("=");
      if (sides.length !== 2) throw new SqlError(`Syntax error: this fake joins MERGE on column equalities only, got ${JSON.stringify(pair)}`);
      return { target: qualified(sides[0]!, t), source: qualified(sides[1]!, s) };
    }),
  };
  if (set) {
    statement.set = set.split(",").map((item) => {
      const [column, from] = item.split("=");
      if (from === undefined) throw new SqlError(`Syntax error: expected column = value in UPDATE SET, got ${JSON.stringify(item)}`);
      return { column: qualified(column!, t), from: sourceOrNull(from, s) };
    });
  }
  if (columns && values) {
    const cols = columns.split(",").map((c) => unquote(c));
    const vals = values.split(",").map((v) => sourceOrNull(v, s));
    if (cols.length !== vals.length) throw new SqlError("Syntax error: INSERT has more columns than values, or fewer");
    statement.insert = { columns: cols, values: vals };
  }
  return statement;
}

const comparable = (v: SqlValue) => (v instanceof Date ? v.getTime() : v);

/** Applies the MERGE to the target's rows; answers how many rows it inserted or updated. */
export function applyMerge(statement: MergeStatement, target: FakeTable, source: FakeTable): number {
  const field = (table: FakeTable, name: string, which: string) => {
    const found = (table.schema?.fields ?? []).find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (!found) throw new SqlError(`Unrecognized name: ${name} (in the ${which} table)`);
    return found;
  };
  const on = statement.on.map((p) => ({ target: field(target, p.target, "target"), source: field(source, p.source, "source") }));
  const set = statement.set?.map((i) => ({ column: field(target, i.column, "target"), from: i.from === null ? null : field(source, i.from, "source") }));
  const insert = statement.insert && {
    columns: statement.insert.columns.map((c) => field(target, c, "target")),
    values: statement.insert.values.map((v) => (v === null ? null : field(source, v, "source"))),
  };
  const keyOf = (json: Record<string, unknown>, fields: { type: string; name: string }[]) => {
    const values = fields.map((f) => comparable(typed(f.type, json[f.name])));
    return values.some((v) => v === null) ? null : JSON.stringify(values);
  };
  const bySourceKey = new Map<string, Record<string, unknown>[]>();
  for (const row of source.rows) {
    const key = keyOf(row.json, on.map((p) => p.source));
    if (key !== null) bySourceKey.set(key, [...(bySourceKey.get(key) ?? []), row.json]);
  }
  const matchedSources = new Set<Record<string, unknown>>();
  let affected = 0;
  for (const row of target.rows) {
    const key = keyOf(row.json, on.map((p) => p.target));
    const matches = key === null ? [] : (bySourceKey.get(key) ?? []);
    if (matches.length > 1) throw new SqlError("UPDATE/MERGE must match at most one source row for each target row");
    if (matches.length === 0) continue;
    matchedSources.add(matches[0]!);
    if (!set) continue;
    const next = { ...row.json };
    for (const item of set) {
      const value = item.from === null ? null : matches[0]![item.from.name];
      if (value === null || value === undefined) delete next[item.column.name];
      else next[item.column.name] = value;
    }
    row.json = next;
    affected++;
  }
  if (insert) {
    for (const json of source.rows.map((r) => r.json)) {
      if (matchedSources.has(json)) continue;
      const next: Record<string, unknown> = {};
      insert.columns.forEach((column, i) => {
        const from = insert.values[i];
        const value = from ? json[from.name] : null;
        if (value !== null && value !== undefined) next[column.name] = value;
      });
      target.rows.push({ json: next });
      affected++;
    }
  }
  return affected;
}
