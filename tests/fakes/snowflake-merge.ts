import { assign, cast, kindOfType, MAX_LIST_EXPRESSIONS, rowKey, type SnowflakeColumn } from "./snowflake-values.js";
import { SqlError, type SqlValue } from "./warehouse-sql.js";

export type Bindings = Record<string, { type: string; value: unknown }> | undefined;

/**
 * The writer's MERGE: USING (SELECT columnN::TYPE AS C | PARSE_JSON(columnN)[::TYPE] AS C, …
 * FROM VALUES (?, …), (?, …) …) s ON t.K = s.K [AND …] [WHEN MATCHED THEN UPDATE SET t.C = s.C | NULL, …]
 * WHEN NOT MATCHED THEN INSERT (…) VALUES (s.C, …). Like Snowflake, a source with more than
 * MAX_LIST_EXPRESSIONS rows is refused; a source naming one key twice is refused too (Snowflake
 * refuses it when the key matches a row, "Duplicate row detected"; unmatched, it would insert both,
 * which this fake's keyed rows cannot hold).
 */
export function mergeRows(rows: Map<string, Record<string, SqlValue>>, columns: SnowflakeColumn[], sqlText: string, bindings: Bindings): { inserted: number; updated: number } {
  const m = /^MERGE INTO \S+ t USING \(SELECT (.+?) FROM VALUES (.+?)\) s ON (.+?)(?:\s+WHEN MATCHED THEN UPDATE SET (.+?))?\s+WHEN NOT MATCHED THEN INSERT \((.+?)\) VALUES \((.+?)\)$/is.exec(sqlText);
  if (!m) throw new SqlError(`SQL compilation error:\nsyntax error: the fake does not understand this MERGE ${JSON.stringify(sqlText.slice(0, 80))}`);
  const [, selectList, valuesList, onList, setList, insertList, insertValues] = m as unknown as [string, string, string, string, string | undefined, string, string];
  const column = (name: string) => {
    const found = columns.find((c) => c.name === name.toUpperCase());
    if (!found) throw new SqlError(`SQL compilation error: error line 1 at position 0\ninvalid identifier '${name.toUpperCase()}'`);
    return found;
  };

  // The VALUES rows: each a list of ? (or NULL); the bindings fill the ? in order.
  const values = Object.entries(bindings ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, b]) => b.value);
  const tuples = valuesList.trim().replace(/^\(|\)$/g, "").split(/\)\s*,\s*\(/);
  if (tuples.length > MAX_LIST_EXPRESSIONS) throw new SqlError(`SQL compilation error: error line 1 at position 0\nmaximum number of expressions in a list exceeded, expected at most ${MAX_LIST_EXPRESSIONS.toLocaleString("en-US")}, got ${tuples.length.toLocaleString("en-US")}`);
  let next = 0;
  const sourceRows = tuples.map((tuple) =>
    tuple.split(/\s*,\s*/).map((item) => {
      if (/^NULL$/i.test(item.trim())) return null;
      if (item.trim() !== "?") throw new SqlError(`SQL compilation error:\nsyntax error near ${JSON.stringify(item)} (this fake wants ? or NULL in VALUES)`);
      if (next >= values.length) throw new SqlError("SQL compilation error:\nBind variable ? not set.");
      return values[next++] ?? null;
    }),
  );
  if (next !== values.length) throw new SqlError(`SQL compilation error:\n${values.length} bind values for ${next} placeholders`);
  const arity = sourceRows[0]!.length;
  if (sourceRows.some((r) => r.length !== arity)) throw new SqlError("SQL compilation error:\nDifferent number of values in VALUES rows");

  // The SELECT over VALUES: casts of its columns, named.
  const source = selectList.split(/,\s*/).map((item) => {
    const parsed = /^column(\d+)::(\w+) AS (\w+)$/i.exec(item) ?? /^PARSE_JSON\(column(\d+)\)(?:::(\w+))? AS (\w+)$/i.exec(item);
    if (!parsed) throw new SqlError(`SQL compilation error:\nsyntax error near ${JSON.stringify(item)}`);
    const position = Number(parsed[1]);
    if (position < 1 || position > arity) throw new SqlError(`SQL compilation error: error line 1 at position 0\ninvalid identifier 'COLUMN${position}'`);
    const type = parsed[2] ? parsed[2].toUpperCase() : "VARIANT";
    const parseJson = /^PARSE_JSON/i.test(item);
    if (parseJson && !["VARIANT", "OBJECT", "ARRAY"].includes(type)) throw new SqlError(`SQL compilation error:\nthis fake casts PARSE_JSON only to VARIANT, OBJECT or ARRAY, not ${type}`);
    return { name: parsed[3]!.toUpperCase(), position, type: parseJson ? "VARIANT" : type };
  });
  const sourceNames = new Set(source.map((s) => s.name));
  const sourceColumn = (ref: string) => {
    const name = /^s\.(\w+)$/i.exec(ref.trim())?.[1]?.toUpperCase();
    if (!name || !sourceNames.has(name)) throw new SqlError(`SQL compilation error: error line 1 at position 0\ninvalid identifier '${ref.trim().toUpperCase()}'`);
    return name;
  };
  const keys = onList.split(/\s+AND\s+/i).map((cond) => {
    const k = /^t\.(\w+) = s\.(\w+)$/i.exec(cond.trim());
    if (!k || k[1]!.toUpperCase() !== k[2]!.toUpperCase()) throw new SqlError(`SQL compilation error:\nsyntax error near ${JSON.stringify(cond)}`);
    column(k[1]!);
    return sourceColumn(`s.${k[2]}`);
  });
  const set = (setList ?? "")
    .split(/,\s*/)
    .filter((s) => s.trim())
    .map((assignment) => {
      const a = /^t\.(\w+) = (s\.\w+|NULL)$/i.exec(assignment.trim());
      if (!a) throw new SqlError(`SQL compilation error:\nsyntax error near ${JSON.stringify(assignment)}`);
      return { target: column(a[1]!), from: /^NULL$/i.test(a[2]!) ? null : sourceColumn(a[2]!) };
    });
  const insertColumns = insertList.split(/,\s*/).map((c) => column(c.trim()));
  const insertFrom = insertValues.split(/,\s*/).map(sourceColumn);
  if (insertColumns.length !== insertFrom.length) throw new SqlError("SQL compilation error:\nInsert value list does not match column list");

  // Evaluate: each source row typed by its cast, then stored as the target column's type.
  const typedRows = sourceRows.map((raw) => Object.fromEntries(source.map((s) => [s.name, cast(raw[s.position - 1], kindOfType(s.type), s.type)])));
  const seen = new Set<string>();
  let inserted = 0;
  let updated = 0;
  const planned: (() => void)[] = [];
  for (const row of typedRows) {
    const key = rowKey(keys.map((k) => row[k] ?? null));
    if (seen.has(key)) throw new SqlError(`Duplicate row detected during DML action\nRow Values: [${keys.map((k) => JSON.stringify(row[k])).join(", ")}]`);
    seen.add(key);
    const existing = rows.get(key);
    if (existing) {
      if (!set.length) continue;
      updated++;
      planned.push(() => {
        for (const s of set) existing[s.target.name] = s.from === null ? null : assign(row[s.from] ?? null, s.target);
      });
    } else {
      inserted++;
      planned.push(() => {
        const created: Record<string, SqlValue> = Object.fromEntries(columns.map((c) => [c.name, null]));
        insertColumns.forEach((c, i) => (created[c.name] = assign(row[insertFrom[i]!] ?? null, c)));
        rows.set(key, created);
      });
    }
  }
  // All or nothing, like a statement: nothing changes unless every row could be evaluated.
  for (const apply of planned) apply();
  return { inserted, updated };
}
