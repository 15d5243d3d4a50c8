/**
 * A small SQL evaluator shared by the BigQuery and Snowflake fakes: just the
 * statement shapes the transform runner and the sync writers send, over rows
 * the fakes keep in memory.
 *
 *   SELECT [DISTINCT] * | expr [AS name], …  FROM table [alias]
 *     [WHERE pred AND …] [ORDER BY expr [ASC|DESC], …] [LIMIT n [OFFSET m]]
 *   DELETE FROM table [alias] WHERE pred AND …
 *
 * expr: column | alias.column | literal | parameter (@name or ?) |
 * COUNT(*) | COUNT(DISTINCT column) | UNIX_MILLIS(column) | DATE_PART(EPOCH_MILLISECOND, column);
 * pred: expr = expr | expr <> expr | expr != expr | expr IN (expr, …) | expr IN UNNEST(@array) |
 * expr IS [NOT] NULL | TRUE | FALSE. Anything else is a SqlError (the fakes answer it as a syntax error). Text compares
 * and orders as its UTF-8 bytes. The parser is ./warehouse-sql-parse.ts.
 */
import { SqlError, type DeleteStatement, type Expr, type Pred, type SelectStatement, type SqlColumn, type SqlKind, type SqlTable, type SqlValue, type TableRef } from "./warehouse-sql-parse.js";

export { parseSql, SqlError } from "./warehouse-sql-parse.js";
export type { DeleteStatement, SelectStatement, SqlColumn, SqlKind, SqlTable, SqlValue, Statement, TableRef } from "./warehouse-sql-parse.js";

/* ---- evaluation ---------------------------------------------------------------------------------- */

export interface EvalContext {
  /** Parameter values by name (BigQuery @name) or 1-based position (Snowflake ?). */
  params: Record<string, SqlValue | SqlValue[]>;
  /** Snowflake: unquoted names are upper-cased in results. */
  upperCaseNames?: boolean;
}

export interface SqlResult {
  columns: SqlColumn[];
  rows: SqlValue[][];
}

const lowerEq = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function column(table: SqlTable, ref: TableRef, expr: { qualifier?: string; name: string }): SqlColumn {
  if (expr.qualifier && !lowerEq(expr.qualifier, ref.alias ?? ref.parts.at(-1)!)) throw new SqlError(`Unrecognized name: ${expr.qualifier}`, "syntax");
  const found = table.columns.find((c) => lowerEq(c.name, expr.name));
  if (!found) throw new SqlError(`Unrecognized name: ${expr.name}`, "syntax");
  return found;
}

const timeOf = (v: SqlValue): number | null => (v === null ? null : v instanceof Date ? v.getTime() : typeof v === "number" ? v : Date.parse(String(v)));

function compare(a: SqlValue, b: SqlValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (a instanceof Date || b instanceof Date) return (timeOf(a) ?? 0) - (timeOf(b) ?? 0);
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  // Text as its UTF-8 bytes, as BigQuery and Snowflake order it (JavaScript's < compares UTF-16 code units).
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}
const equal = (a: SqlValue, b: SqlValue) => a !== null && b !== null && compare(a, b) === 0;

function kindOfExpr(table: SqlTable, ref: TableRef, expr: Expr): SqlKind {
  switch (expr.kind) {
    case "col":
      return column(table, ref, expr).kind;
    case "count":
    case "epoch_ms":
      return "integer";
    case "lit":
      return typeof expr.value === "number" ? "number" : typeof expr.value === "boolean" ? "boolean" : "string";
    case "param":
      return "string";
  }
}

function value(table: SqlTable, ref: TableRef, ctx: EvalContext, row: Record<string, SqlValue>, expr: Expr): SqlValue {
  switch (expr.kind) {
    case "col":
      return row[column(table, ref, expr).name] ?? null;
    case "lit":
      return expr.value;
    case "param": {
      if (!(expr.name in ctx.params)) throw new SqlError(`Query parameter '${expr.name}' not found`);
      const v = ctx.params[expr.name]!;
      if (Array.isArray(v)) throw new SqlError(`Query parameter '${expr.name}' is an array; use IN UNNEST(@${expr.name})`);
      return v;
    }
    case "epoch_ms": {
      const v = value(table, ref, ctx, row, expr.arg);
      return v === null ? null : timeOf(v);
    }
    case "count":
      throw new SqlError("Syntax error: COUNT is only allowed in the select list");
  }
}

function holds(table: SqlTable, ref: TableRef, ctx: EvalContext, row: Record<string, SqlValue>, pred: Pred): boolean {
  switch (pred.kind) {
    case "const":
      return pred.value;
    case "cmp": {
      const a = value(table, ref, ctx, row, pred.left);
      const b = value(table, ref, ctx, row, pred.right);
      if (a === null || b === null) return false;
      return pred.op === "=" ? equal(a, b) : !equal(a, b);
    }
    case "null": {
      const isNull = value(table, ref, ctx, row, pred.expr) === null;
      return pred.not ? !isNull : isNull;
    }
    case "in": {
      const v = value(table, ref, ctx, row, pred.expr);
      return pred.list.some((e) => equal(v, value(table, ref, ctx, row, e)));
    }
    case "in_array": {
      const list = ctx.params[pred.param];
      if (!Array.isArray(list)) throw new SqlError(`Query parameter '${pred.param}' is not an array`);
      const v = value(table, ref, ctx, row, pred.expr);
      return list.some((x) => equal(v, x));
    }
  }
}

/** Which rows of `table` a DELETE's WHERE picks (for the fakes to remove). */
export function matching(statement: DeleteStatement, table: SqlTable, ctx: EvalContext): Set<Record<string, SqlValue>> {
  return new Set(table.rows.filter((row) => statement.where.every((p) => holds(table, statement.from, ctx, row, p))));
}

export function runSelect(statement: SelectStatement, table: SqlTable, ctx: EvalContext): SqlResult {
  const ref = statement.from;
  const name = (n: string) => (ctx.upperCaseNames ? n.toUpperCase() : n);
  let rows = table.rows.filter((row) => statement.where.every((p) => holds(table, ref, ctx, row, p)));
  if (statement.orderBy.length) {
    const keyed = rows.map((row) => ({ row, keys: statement.orderBy.map((o) => value(table, ref, ctx, row, o.expr)) }));
    keyed.sort((a, b) => {
      for (let k = 0; k < statement.orderBy.length; k++) {
        const c = compare(a.keys[k]!, b.keys[k]!);
        if (c !== 0) return statement.orderBy[k]!.desc ? -c : c;
      }
      return 0;
    });
    rows = keyed.map((k) => k.row);
  }
  const items: { expr: Expr; as?: string }[] = statement.items.flatMap((item) =>
    item.star ? table.columns.map((c) => ({ expr: { kind: "col", name: c.name } as Expr, as: c.name })) : [{ expr: item.expr, as: item.as }],
  );
  const columns = items.map((item) => ({
    name: item.as ? name(item.as) : item.expr.kind === "col" ? name(item.expr.name) : name(`f${items.indexOf(item)}_`),
    kind: kindOfExpr(table, ref, item.expr),
  }));
  const aggregate = items.some((i) => i.expr.kind === "count");
  let out: SqlValue[][];
  if (aggregate) {
    if (!items.every((i) => i.expr.kind === "count")) throw new SqlError("Syntax error: mixing aggregates and columns needs GROUP BY, which this fake does not support");
    out = [
      items.map((i) => {
        const distinct = (i.expr as { distinct?: Expr }).distinct;
        if (!distinct) return rows.length;
        const seen = new Set(rows.map((row) => value(table, ref, ctx, row, distinct)).filter((v) => v !== null).map((v) => (v instanceof Date ? v.getTime() : JSON.stringify(v))));
        return seen.size;
      }),
    ];
  } else {
    out = rows.map((row) => items.map((i) => value(table, ref, ctx, row, i.expr)));
    if (statement.distinct) {
      const seen = new Set<string>();
      out = out.filter((r) => {
        const key = JSON.stringify(r);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
  }
  if (statement.limit !== undefined) out = out.slice(statement.offset ?? 0, (statement.offset ?? 0) + statement.limit);
  return { columns, rows: out };
}
