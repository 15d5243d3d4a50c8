/**
 * The parser of ./warehouse-sql.ts (the fakes' SQL evaluator): the statement shapes it evaluates, as tokens and then
 * statements; its types and SqlError, which ./warehouse-sql.ts exports again.
 */
export type SqlValue = string | number | boolean | Date | null;
/** Column kinds the fakes map to and from their own type names. */
export type SqlKind = "string" | "number" | "integer" | "boolean" | "timestamp" | "json";

export interface SqlColumn {
  name: string;
  kind: SqlKind;
}
export interface SqlTable {
  columns: SqlColumn[];
  rows: Record<string, SqlValue>[];
}

export class SqlError extends Error {
  constructor(
    message: string,
    readonly code: "syntax" | "not_found" = "syntax",
  ) {
    super(message);
  }
}

export type Expr =
  | { kind: "col"; qualifier?: string; name: string }
  | { kind: "lit"; value: SqlValue }
  | { kind: "param"; name: string }
  | { kind: "count"; distinct?: Expr }
  | { kind: "epoch_ms"; arg: Expr };
export type Pred =
  | { kind: "cmp"; op: "=" | "<>"; left: Expr; right: Expr }
  | { kind: "in"; expr: Expr; list: Expr[] }
  | { kind: "in_array"; expr: Expr; param: string }
  | { kind: "null"; expr: Expr; not: boolean }
  | { kind: "const"; value: boolean };

export interface TableRef {
  /** The dotted parts as written ("p.d.t" inside backticks is split too). */
  parts: string[];
  alias?: string;
}
export interface SelectStatement {
  type: "select";
  distinct: boolean;
  items: ({ star: true } | { star?: false; expr: Expr; as?: string })[];
  from: TableRef;
  where: Pred[];
  orderBy: { expr: Expr; desc: boolean }[];
  limit?: number;
  /** Rows skipped before the LIMIT's (only after a LIMIT, as BigQuery requires). */
  offset?: number;
}
export interface DeleteStatement {
  type: "delete";
  from: TableRef;
  where: Pred[];
}
export type Statement = SelectStatement | DeleteStatement;

/* ---- tokens --------------------------------------------------------------------------------------- */

type Token = { t: "word" | "quoted" | "string" | "number" | "param" | "punct"; v: string };

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let positional = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const rest = sql.slice(i);
    let m: RegExpExecArray | string[] | null;
    if ((m = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(rest))) tokens.push({ t: "word", v: m[0] });
    else if ((m = /^`([^`]*)`/.exec(rest))) tokens.push({ t: "quoted", v: m[1]! });
    else if ((m = /^"((?:[^"]|"")*)"/.exec(rest))) tokens.push({ t: "quoted", v: m[1]!.replace(/""/g, '"') });
    else if ((m = /^'((?:[^'\\]|\\.|'')*)'/.exec(rest))) tokens.push({ t: "string", v: m[1]!.replace(/''/g, "'").replace(/\\(.)/g, "$1") });
    else if ((m = /^\d+(?:\.\d+)?/.exec(rest))) tokens.push({ t: "number", v: m[0] });
    else if ((m = /^@([A-Za-z_][A-Za-z0-9_]*)/.exec(rest))) tokens.push({ t: "param", v: m[1]! });
    else if (ch === "?") {
      m = ["?"];
      tokens.push({ t: "param", v: String(++positional) });
    } else if ((m = /^(<>|!=|[(),.*=])/.exec(rest))) tokens.push({ t: "punct", v: m[0] === "!=" ? "<>" : m[0] });
    else throw new SqlError(`Syntax error: unexpected ${JSON.stringify(rest.slice(0, 20))}`);
    i += m[0]!.length;
  }
  return tokens;
}

/* ---- parser ----------------------------------------------------------------------------------------- */

const KEYWORDS = new Set(["SELECT", "FROM", "WHERE", "AND", "ORDER", "BY", "LIMIT", "AS", "IN", "IS", "NOT", "NULL", "ASC", "DESC", "OFFSET", "DISTINCT", "DELETE", "UNNEST", "JOIN", "ON", "OR", "GROUP"]);

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0) {
    return this.tokens[this.i + offset];
  }
  private isWord(word: string, offset = 0) {
    const token = this.peek(offset);
    return token?.t === "word" && token.v.toUpperCase() === word;
  }
  private isPunct(p: string) {
    const token = this.peek();
    return token?.t === "punct" && token.v === p;
  }
  private take(): Token {
    const token = this.tokens[this.i++];
    if (!token) throw new SqlError("Syntax error: unexpected end of statement");
    return token;
  }
  private word(word: string) {
    if (!this.isWord(word)) throw new SqlError(`Syntax error: expected ${word} but got ${JSON.stringify(this.peek()?.v ?? "end of statement")}`);
    this.i++;
  }
  private punct(p: string) {
    if (!this.isPunct(p)) throw new SqlError(`Syntax error: expected "${p}" but got ${JSON.stringify(this.peek()?.v ?? "end of statement")}`);
    this.i++;
  }
  private identifier(): string {
    const token = this.take();
    if (token.t === "quoted" || (token.t === "word" && !KEYWORDS.has(token.v.toUpperCase()))) return token.v;
    throw new SqlError(`Syntax error: unexpected ${JSON.stringify(token.v)}`);
  }

  statement(): Statement {
    let statement: Statement;
    if (this.isWord("SELECT")) statement = this.select();
    else if (this.isWord("DELETE")) {
      this.word("DELETE");
      this.word("FROM");
      const from = this.tableRef();
      this.word("WHERE");
      statement = { type: "delete", from, where: this.predicates() };
    } else throw new SqlError(`Syntax error: unsupported statement ${JSON.stringify(this.peek()?.v ?? "")}`);
    if (this.isPunct(";")) this.i++;
    if (this.peek()) throw new SqlError(`Syntax error: unexpected ${JSON.stringify(this.peek()!.v)}`);
    return statement;
  }

  private select(): SelectStatement {
    this.word("SELECT");
    const distinct = this.isWord("DISTINCT");
    if (distinct) this.i++;
    const items: SelectStatement["items"] = [];
    do {
      if (items.length) this.punct(",");
      if (this.isPunct("*")) {
        this.i++;
        items.push({ star: true });
        continue;
      }
      const expr = this.expr();
      let as: string | undefined;
      if (this.isWord("AS")) {
        this.i++;
        as = this.identifier();
      }
      items.push({ expr, as });
    } while (this.isPunct(","));
    this.word("FROM");
    const from = this.tableRef();
    if (this.isWord("JOIN") || this.isPunct(",")) throw new SqlError("Syntax error: joins are not supported by this fake");
    const where = this.isWord("WHERE") ? (this.i++, this.predicates()) : [];
    const orderBy: SelectStatement["orderBy"] = [];
    if (this.isWord("ORDER")) {
      this.i++;
      this.word("BY");
      do {
        if (orderBy.length) this.punct(",");
        const expr = this.expr();
        let desc = false;
        if (this.isWord("ASC") || this.isWord("DESC")) desc = this.take().v.toUpperCase() === "DESC";
        orderBy.push({ expr, desc });
      } while (this.isPunct(","));
    }
    let limit: number | undefined;
    if (this.isWord("LIMIT")) {
      this.i++;
      const token = this.take();
      if (token.t !== "number") throw new SqlError("Syntax error: LIMIT needs a number");
      limit = Number(token.v);
    }
    let offset: number | undefined;
    if (limit !== undefined && this.isWord("OFFSET")) {
      this.i++;
      const token = this.take();
      if (token.t !== "number" || !/^\d+$/.test(token.v)) throw new SqlError("Syntax error: OFFSET needs a whole number");
      offset = Number(token.v);
    }
    return { type: "select", distinct, items, from, where, orderBy, limit, offset };
  }

  private tableRef(): TableRef {
    const parts: string[] = [];
    do {
      if (parts.length) this.punct(".");
      const token = this.take();
      if (token.t === "quoted") parts.push(...token.v.split("."));
      else if (token.t === "word") parts.push(token.v);
      else throw new SqlError(`Syntax error: expected a table name, got ${JSON.stringify(token.v)}`);
    } while (this.isPunct("."));
    let alias: string | undefined;
    if (this.isWord("AS")) {
      this.i++;
      alias = this.identifier();
    } else if (this.peek()?.t === "word" && !KEYWORDS.has(this.peek()!.v.toUpperCase())) alias = this.identifier();
    return { parts, alias };
  }

  private predicates(): Pred[] {
    const list = [this.predicate()];
    while (this.isWord("AND")) {
      this.i++;
      list.push(this.predicate());
    }
    if (this.isWord("OR")) throw new SqlError("Syntax error: OR is not supported by this fake");
    return list;
  }

  private predicate(): Pred {
    if ((this.isWord("TRUE") || this.isWord("FALSE")) && !this.isPunct2(1)) return { kind: "const", value: this.take().v.toUpperCase() === "TRUE" };
    const expr = this.expr();
    if (this.isPunct("=") || this.isPunct("<>")) {
      const op = this.take().v as "=" | "<>";
      return { kind: "cmp", op, left: expr, right: this.expr() };
    }
    if (this.isWord("IS")) {
      this.i++;
      const not = this.isWord("NOT");
      if (not) this.i++;
      this.word("NULL");
      return { kind: "null", expr, not };
    }
    if (this.isWord("IN")) {
      this.i++;
      if (this.isWord("UNNEST")) {
        this.i++;
        this.punct("(");
        const token = this.take();
        if (token.t !== "param") throw new SqlError("Syntax error: UNNEST needs an array parameter");
        this.punct(")");
        return { kind: "in_array", expr, param: token.v };
      }
      this.punct("(");
      const list = [this.expr()];
      while (this.isPunct(",")) {
        this.i++;
        list.push(this.expr());
      }
      this.punct(")");
      return { kind: "in", expr, list };
    }
    throw new SqlError(`Syntax error: unsupported condition near ${JSON.stringify(this.peek()?.v ?? "end of statement")}`);
  }

  private isPunct2(offset: number) {
    const token = this.peek(offset);
    return token?.t === "punct" && (token.v === "=" || token.v === "<>");
  }

  private expr(): Expr {
    const token = this.take();
    if (token.t === "param") return { kind: "param", name: token.v };
    if (token.t === "string") return { kind: "lit", value: token.v };
    if (token.t === "number") return { kind: "lit", value: Number(token.v) };
    if (token.t === "word" && this.isPunct("(")) {
      const fn = token.v.toUpperCase();
      this.punct("(");
      let expr: Expr;
      if (fn === "COUNT") {
        if (this.isPunct("*")) {
          this.i++;
          expr = { kind: "count" };
        } else {
          this.word("DISTINCT");
          expr = { kind: "count", distinct: this.expr() };
        }
      } else if (fn === "UNIX_MILLIS") expr = { kind: "epoch_ms", arg: this.expr() };
      else if (fn === "DATE_PART") {
        const part = this.take();
        if (part.v.toUpperCase() !== "EPOCH_MILLISECOND") throw new SqlError(`Syntax error: DATE_PART(${part.v}, …) is not supported by this fake`);
        this.punct(",");
        expr = { kind: "epoch_ms", arg: this.expr() };
      } else throw new SqlError(`Syntax error: unknown function ${fn}`);
      this.punct(")");
      return expr;
    }
    if (token.t === "word" && ["TRUE", "FALSE", "NULL"].includes(token.v.toUpperCase())) {
      const v = token.v.toUpperCase();
      return { kind: "lit", value: v === "NULL" ? null : v === "TRUE" };
    }
    if (token.t === "word" || token.t === "quoted") {
      if (token.t === "word" && KEYWORDS.has(token.v.toUpperCase())) throw new SqlError(`Syntax error: unexpected ${token.v}`);
      if (this.isPunct(".")) {
        this.i++;
        return { kind: "col", qualifier: token.v, name: this.identifier() };
      }
      return { kind: "col", name: token.v };
    }
    throw new SqlError(`Syntax error: unexpected ${JSON.stringify(token.v)}`);
  }
}

export function parseSql(sql: string): Statement {
  return new Parser(tokenize(sql)).statement();
}
