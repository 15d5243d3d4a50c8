import type http from "node:http";
import { gunzipSync } from "node:zlib";
import { randomUUID } from "node:crypto";
import { HttpFake, json, type RecordedRequest } from "./google-http-fake.js";
import { matching, parseSql, runSelect, SqlError, type SqlKind, type SqlTable, type SqlValue, type TableRef } from "./warehouse-sql.js";

/**
 * A local Snowflake endpoint good enough for the official snowflake-sdk:
 * password login (POST /session/v1/login-request), statements
 * (POST /queries/v1/query-request) answered from a small model of users,
 * warehouses, schemas and stages, telemetry and logout. Point the SDK at it
 * with `accessUrl` (the backend: SNOWFLAKE_HOST_OVERRIDE=<url>).
 *
 * Tables keep what is written: CREATE TABLE records the columns and their
 * types, ALTER TABLE … ADD COLUMN adds one; the writer's MERGE (a multi-row
 * VALUES source, values bound as the SDK sends them and cast as the statement
 * says) inserts or updates the rows with the same key; SELECT and DELETE (the shapes ./warehouse-sql.ts evaluates,
 * with ? bindings, INFORMATION_SCHEMA.TABLES/COLUMNS included) read and
 * remove rows. Results come back typed (rowtype + JSON rowset) for the SDK.
 */
export interface SnowflakeUser {
  password: string;
  warehouses: string[];
  databases: string[];
  /** "DB.SCHEMA" the user may use. */
  schemas: string[];
  /** "DB.SCHEMA" the user may create tables in. */
  createTableIn: string[];
  /** "DB.SCHEMA.STAGE" the user may read and write. */
  stages: string[];
}

export interface ReceivedStatement {
  user: string;
  sqlText: string;
  bindings: unknown;
}

interface Session {
  user: string;
  account: string;
}

/** A column as created: its name (upper case) and Snowflake type. */
export interface SnowflakeColumn {
  name: string;
  type: string;
}

const kindOfType = (type: string): SqlKind => {
  const t = type.toUpperCase().replace(/\(.*$/, "");
  if (["VARCHAR", "TEXT", "STRING", "CHAR", "CHARACTER"].includes(t)) return "string";
  if (["FLOAT", "FLOAT4", "FLOAT8", "DOUBLE", "REAL", "DECIMAL"].includes(t)) return "number";
  if (["NUMBER", "INT", "INTEGER", "BIGINT", "SMALLINT"].includes(t)) return "integer";
  if (t === "BOOLEAN") return "boolean";
  if (t.startsWith("TIMESTAMP") || t === "DATETIME") return "timestamp";
  if (["VARIANT", "OBJECT", "ARRAY"].includes(t)) return "json";
  throw new SqlError(`SQL compilation error: unsupported data type '${type}' in this fake`);
};

/** rowtype entries as Snowflake describes result columns. */
const ROW_TYPE: Record<SqlKind, { type: string; scale: number | null; precision: number | null }> = {
  string: { type: "text", scale: null, precision: null },
  number: { type: "real", scale: null, precision: null },
  integer: { type: "fixed", scale: 0, precision: 38 },
  boolean: { type: "boolean", scale: null, precision: null },
  timestamp: { type: "timestamp_tz", scale: 9, precision: 0 },
  json: { type: "variant", scale: null, precision: null },
};

/** A cell of a JSON rowset: text for everything; TIMESTAMP_TZ as "<epoch seconds>.<9 digits> <offset minutes + 1440>". */
function cell(v: SqlValue, kind: SqlKind): string | null {
  if (v === null) return null;
  switch (kind) {
    case "integer":
      return String(Math.trunc(Number(v)));
    case "boolean":
      return v === true || v === "true" ? "1" : "0";
    case "timestamp": {
      const ms = v instanceof Date ? v.getTime() : Date.parse(String(v));
      const seconds = Math.floor(ms / 1000);
      return `${seconds}.${String(ms - seconds * 1000).padStart(3, "0")}000000 1440`;
    }
    default:
      return v instanceof Date ? v.toISOString() : String(v);
  }
}

/** A bound value (as the SDK sends it: text, or null) cast to a column kind, as `?::TYPE` / PARSE_JSON(?) would. */
function cast(raw: unknown, kind: SqlKind, type: string): SqlValue {
  if (raw === null || raw === undefined) return null;
  const text = String(raw);
  switch (kind) {
    case "number":
    case "integer": {
      const n = Number(text);
      if (text.trim() === "" || !Number.isFinite(n)) throw new SqlError(`Numeric value '${text}' is not recognized`);
      return kind === "integer" ? Math.round(n) : n;
    }
    case "boolean":
      if (/^(true|t|yes|y|on|1)$/i.test(text)) return true;
      if (/^(false|f|no|n|off|0)$/i.test(text)) return false;
      throw new SqlError(`Boolean value '${text}' is not recognized`);
    case "timestamp": {
      const ms = Date.parse(text);
      if (Number.isNaN(ms)) throw new SqlError(`Timestamp '${text}' is not recognized`);
      return new Date(ms);
    }
    case "json":
      try {
        return JSON.stringify(JSON.parse(text));
      } catch {
        throw new SqlError(`Error parsing JSON: ${text.slice(0, 40)} (${type})`);
      }
    default:
      return text;
  }
}

/** A value stored into a column of another type, converted as Snowflake's assignment would. */
function assign(value: SqlValue, column: SnowflakeColumn): SqlValue {
  if (value === null) return null;
  const kind = kindOfType(column.type);
  const has = value instanceof Date ? "timestamp" : typeof value === "number" ? (kind === "integer" ? "integer" : "number") : typeof value === "boolean" ? "boolean" : kind === "json" ? "json" : "string";
  if (has === kind) return value;
  return cast(value instanceof Date ? value.toISOString() : String(value), kind, column.type);
}

/** Snowflake's limit on expressions in a list (the rows of a VALUES clause among them). */
export const MAX_LIST_EXPRESSIONS = 16_384;

const rowKey = (values: SqlValue[]) => JSON.stringify(values.map((v) => (v instanceof Date ? v.getTime() : v)));

export class FakeSnowflake {
  readonly users = new Map<string, SnowflakeUser>();
  readonly statements: ReceivedStatement[] = [];
  readonly logins: { account: string; user: string; ok: boolean }[] = [];
  /** "DB.SCHEMA.TABLE" → rows (column name → value) by key. */
  readonly tables = new Map<string, Map<string, Record<string, SqlValue>>>();
  /** "DB.SCHEMA.TABLE" → its columns, as created. */
  readonly columns = new Map<string, SnowflakeColumn[]>();
  private readonly sessions = new Map<string, Session>();
  private readonly http = new HttpFake((req, res) => this.handle(req, res));

  get requests(): RecordedRequest[] {
    return this.http.requests;
  }
  get url(): string {
    return this.http.url;
  }
  start(port = 0) {
    return this.http.start(port);
  }
  stop() {
    return this.http.stop();
  }

  addUser(name: string, user: Partial<SnowflakeUser> & { password: string }) {
    this.users.set(name.toUpperCase(), {
      warehouses: [],
      databases: [],
      schemas: [],
      createTableIn: [],
      stages: [],
      ...user,
    });
    return this;
  }
  reset() {
    this.users.clear();
    this.statements.length = 0;
    this.logins.length = 0;
    this.sessions.clear();
    this.tables.clear();
    this.columns.clear();
    this.http.requests.length = 0;
  }

  private body(req: RecordedRequest): Record<string, any> {
    if (!req.body.length) return {};
    const raw = req.headers["content-encoding"] === "gzip" ? gunzipSync(req.body) : req.body;
    return JSON.parse(raw.toString("utf8")) as Record<string, any>;
  }

  private handle(req: RecordedRequest, res: http.ServerResponse) {
    if (req.method === "POST" && req.path === "/session/v1/login-request") return this.login(req, res);
    if (req.method === "POST" && req.path === "/queries/v1/query-request") return this.query(req, res);
    if (req.method === "POST" && req.path === "/telemetry/send") return json(res, 200, { success: true, data: "Log Received" });
    if (req.method === "POST" && req.path === "/session") {
      const token = this.token(req);
      if (token) this.sessions.delete(token);
      return json(res, 200, { success: true, code: null, message: null, data: null });
    }
    if (req.method === "POST" && req.path === "/session/heartbeat") return json(res, 200, { success: true, data: null });
    json(res, 404, { success: false, code: "404", message: `Not found: ${req.method} ${req.path}`, data: null });
  }

  private token(req: RecordedRequest): string | undefined {
    return /Snowflake Token="([^"]+)"/.exec(String(req.headers.authorization ?? ""))?.[1];
  }

  private login(req: RecordedRequest, res: http.ServerResponse) {
    const data = this.body(req).data ?? {};
    const name = String(data.LOGIN_NAME ?? "").toUpperCase();
    const user = this.users.get(name);
    const ok = !!user && user.password === data.PASSWORD;
    this.logins.push({ account: String(data.ACCOUNT_NAME ?? ""), user: name, ok });
    if (!ok) {
      return json(res, 200, { data: { nextAction: "RETRY_LOGIN", authnMethod: "USERNAME_PASSWORD", loginName: name }, code: "390100", message: "Incorrect username or password was specified.", success: false, headers: null });
    }
    const token = `session-${randomUUID()}`;
    this.sessions.set(token, { user: name, account: String(data.ACCOUNT_NAME ?? "") });
    json(res, 200, {
      data: {
        masterToken: `master-${randomUUID()}`,
        token,
        validityInSeconds: 3600,
        masterValidityInSeconds: 14400,
        displayUserName: name,
        serverVersion: "8.40.0",
        firstLogin: false,
        remMeToken: null,
        remMeValidityInSeconds: 0,
        healthCheckInterval: 45,
        newClientForUpgrade: null,
        sessionId: Math.floor(Math.random() * 1e12),
        parameters: [{ name: "CLIENT_SESSION_KEEP_ALIVE_HEARTBEAT_FREQUENCY", value: 3600 }],
        sessionInfo: { databaseName: null, schemaName: null, warehouseName: null, roleName: `${name}_ROLE` },
        idToken: null,
        idTokenValidityInSeconds: 0,
        responseData: null,
        mfaToken: null,
        mfaTokenValidityInSeconds: 0,
      },
      code: null,
      message: null,
      success: true,
    });
  }

  private fail(res: http.ServerResponse, code: string, message: string) {
    json(res, 200, { data: { internalError: false, errorCode: code, age: 0, sqlState: "02000", queryId: randomUUID(), line: -1, pos: -1, type: "COMPILATION" }, code, message, success: false, headers: null });
  }

  /** Rows of a table, in insertion order. */
  rowsOf(table: string): Record<string, SqlValue>[] {
    return [...(this.tables.get(table.toUpperCase())?.values() ?? [])];
  }

  private rows(res: http.ServerResponse, columns: (string | { name: string; kind: SqlKind })[], rowset: (string | null)[][], statementTypeId = 4096) {
    json(res, 200, {
      data: {
        parameters: [],
        rowtype: columns.map((c) => {
          const { name, kind } = typeof c === "string" ? { name: c, kind: "string" as const } : c;
          return { name, database: "", schema: "", table: "", byteLength: 16777216, ...ROW_TYPE[kind], nullable: true, collation: null, length: 16777216 };
        }),
        rowset,
        total: rowset.length,
        returned: rowset.length,
        queryId: randomUUID(),
        databaseProvider: null,
        finalDatabaseName: null,
        finalSchemaName: null,
        finalWarehouseName: null,
        finalRoleName: null,
        numberOfBinds: 0,
        arrayBindSupported: false,
        statementTypeId,
        version: 1,
        sendResultTime: Date.now(),
        queryResultFormat: "json",
        queryContext: { entries: [] },
      },
      code: null,
      message: null,
      success: true,
    });
  }

  private query(req: RecordedRequest, res: http.ServerResponse) {
    const session = this.sessions.get(this.token(req) ?? "");
    if (!session) return json(res, 200, { data: null, code: "390112", message: "Your session has expired. Please login again.", success: false });
    const body = this.body(req);
    const sqlText = String(body.sqlText ?? "").trim();
    this.statements.push({ user: session.user, sqlText, bindings: body.bindings });
    const user = this.users.get(session.user)!;
    const ok = (kind: string) => this.rows(res, ["status"], [[`Statement executed successfully (${kind}).`]], 0x3000);
    let m: RegExpExecArray | null;
    if ((m = /^USE WAREHOUSE (\w+)$/i.exec(sqlText))) {
      if (!user.warehouses.includes(m[1]!.toUpperCase())) return this.fail(res, "002043", `SQL compilation error:\nObject does not exist, or operation cannot be performed.\nWarehouse '${m[1]}' does not exist or not authorized.`);
      return ok("use warehouse");
    }
    if ((m = /^USE DATABASE (\w+)$/i.exec(sqlText))) {
      if (!user.databases.includes(m[1]!.toUpperCase())) return this.fail(res, "002043", `SQL compilation error:\nDatabase '${m[1]}' does not exist or not authorized.`);
      return ok("use database");
    }
    if ((m = /^USE SCHEMA (\w+)\.(\w+)$/i.exec(sqlText))) {
      if (!user.schemas.includes(`${m[1]}.${m[2]}`.toUpperCase())) return this.fail(res, "002043", `SQL compilation error:\nSchema '${m[1]}.${m[2]}' does not exist or not authorized.`);
      return ok("use schema");
    }
    if ((m = /^(?:CREATE (?:TRANSIENT )?TABLE IF NOT EXISTS|DROP TABLE IF EXISTS|MERGE INTO|ALTER TABLE) (\w+)\.(\w+)\.(\w+)/i.exec(sqlText))) {
      const schema = `${m[1]}.${m[2]}`.toUpperCase();
      if (!user.createTableIn.includes(schema)) return this.fail(res, "003001", `SQL access control error:\nInsufficient privileges to operate on schema '${m[2]}'`);
      const table = `${schema}.${m[3]!.toUpperCase()}`;
      try {
        if (/^CREATE/i.test(sqlText)) return this.createTable(res, table, sqlText);
        if (/^DROP/i.test(sqlText)) {
          this.tables.delete(table);
          this.columns.delete(table);
          return ok("table");
        }
        if (/^ALTER/i.test(sqlText)) return this.alterTable(res, table, sqlText);
        return this.merge(res, table, sqlText, body.bindings);
      } catch (error) {
        if (error instanceof SqlError) return this.fail(res, "100038", error.message);
        throw error;
      }
    }
    if (/^(SELECT|DELETE)\b/i.test(sqlText) && !/^SELECT 1$/i.test(sqlText)) return this.evaluate(res, user, sqlText, body.bindings);
    if ((m = /^LIST @(\w+)\.(\w+)\.(\w+)/i.exec(sqlText))) {
      if (!user.stages.includes(`${m[1]}.${m[2]}.${m[3]}`.toUpperCase())) return this.fail(res, "002003", `SQL compilation error:\nStage '${m[1]}.${m[2]}.${m[3]}' does not exist or not authorized.`);
      return this.rows(res, ["name", "size", "md5", "last_modified"], []);
    }
    if (/^SELECT 1$/i.test(sqlText)) return this.rows(res, ["1"], [["1"]]);
    return this.fail(res, "001003", `SQL compilation error:\nsyntax error: the fake does not understand ${JSON.stringify(sqlText.slice(0, 80))}`);
  }

  private createTable(res: http.ServerResponse, table: string, sqlText: string) {
    const list = /\((.*)\)\s*$/s.exec(sqlText)?.[1];
    if (!list) throw new SqlError(`SQL compilation error:\nsyntax error: no column list in ${JSON.stringify(sqlText.slice(0, 80))}`);
    const columns = list.split(",").map((c) => {
      const [name, type] = c.trim().split(/\s+/);
      if (!name || !type) throw new SqlError(`SQL compilation error:\nsyntax error near ${JSON.stringify(c.trim())}`);
      kindOfType(type);
      return { name: name.toUpperCase(), type: type.toUpperCase() };
    });
    if (!this.columns.has(table)) {
      this.columns.set(table, columns);
      this.tables.set(table, new Map());
    }
    return this.rows(res, ["status"], [[`Table ${table.split(".").at(-1)} successfully created.`]], 0x6000);
  }

  /**
   * The writer's MERGE: USING (SELECT columnN::TYPE AS C | PARSE_JSON(columnN)[::TYPE] AS C, …
   * FROM VALUES (?, …), (?, …) …) s ON t.K = s.K [AND …] [WHEN MATCHED THEN UPDATE SET t.C = s.C | NULL, …]
   * WHEN NOT MATCHED THEN INSERT (…) VALUES (s.C, …). Like Snowflake, a source with more than
   * MAX_LIST_EXPRESSIONS rows is refused; a source naming one key twice is refused too (Snowflake
   * refuses it when the key matches a row, "Duplicate row detected"; unmatched, it would insert both,
   * which this fake's keyed rows cannot hold).
   */
  private merge(res: http.ServerResponse, table: string, sqlText: string, bindings: Record<string, { type: string; value: unknown }> | undefined) {
    const rows = this.tables.get(table);
    const columns = this.columns.get(table);
    if (!rows || !columns) return this.fail(res, "002003", `SQL compilation error:\nObject '${table}' does not exist or not authorized.`);
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
    return this.rows(
      res,
      [
        { name: "number of rows inserted", kind: "integer" },
        { name: "number of rows updated", kind: "integer" },
      ],
      [[String(inserted), String(updated)]],
      0x3400,
    );
  }

  /** ALTER TABLE DB.SCHEMA.T ADD [COLUMN] [IF NOT EXISTS] NAME TYPE: one column, NULL in the rows already there. */
  private alterTable(res: http.ServerResponse, table: string, sqlText: string) {
    const columns = this.columns.get(table);
    if (!columns) return this.fail(res, "002003", `SQL compilation error:\nTable '${table}' does not exist or not authorized.`);
    const m = /^ALTER TABLE \S+ ADD (?:COLUMN )?(IF NOT EXISTS )?(\w+) (\w+(?:\(\d+(?:,\s*\d+)?\))?)$/i.exec(sqlText);
    if (!m) throw new SqlError(`SQL compilation error:\nsyntax error: the fake only adds one column: ${JSON.stringify(sqlText.slice(0, 80))}`);
    const name = m[2]!.toUpperCase();
    const type = m[3]!.toUpperCase();
    kindOfType(type);
    if (columns.some((c) => c.name === name)) {
      if (!m[1]) return this.fail(res, "002028", `SQL compilation error:\ncolumn '${name}' already exists`);
    } else {
      columns.push({ name, type });
      for (const row of this.tables.get(table)!.values()) row[name] = null;
    }
    return this.rows(res, ["status"], [["Statement executed successfully."]], 0x6000);
  }

  /** A table of a SELECT or DELETE: DB.SCHEMA.TABLE, or DB.INFORMATION_SCHEMA.TABLES / COLUMNS. */
  private source(user: SnowflakeUser, ref: TableRef, writing: boolean): { table: SqlTable; name?: string } {
    if (ref.parts.length !== 3) throw new SqlError(`SQL compilation error:\nObject '${ref.parts.join(".")}' does not exist or not authorized. (this fake wants DB.SCHEMA.TABLE names)`, "not_found");
    const [db, schema, name] = ref.parts.map((p) => p.toUpperCase()) as [string, string, string];
    const visible = (key: string) => user.schemas.includes(key) || user.createTableIn.includes(key);
    if (schema === "INFORMATION_SCHEMA" && !writing && user.databases.includes(db)) {
      const tables = [...this.columns].filter(([key]) => key.startsWith(`${db}.`) && visible(key.split(".").slice(0, 2).join(".")));
      if (name === "TABLES") {
        return {
          table: {
            columns: ["TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME"].map((n) => ({ name: n, kind: "string" as const })),
            rows: tables.map(([key]) => {
              const [c, s, t] = key.split(".");
              return { TABLE_CATALOG: c!, TABLE_SCHEMA: s!, TABLE_NAME: t! };
            }),
          },
        };
      }
      if (name === "COLUMNS") {
        return {
          table: {
            columns: [
              { name: "TABLE_SCHEMA", kind: "string" },
              { name: "TABLE_NAME", kind: "string" },
              { name: "COLUMN_NAME", kind: "string" },
              { name: "ORDINAL_POSITION", kind: "integer" },
              { name: "DATA_TYPE", kind: "string" },
            ],
            rows: tables.flatMap(([key, columns]) => {
              const [, s, t] = key.split(".");
              return columns.map((c, i) => ({ TABLE_SCHEMA: s!, TABLE_NAME: t!, COLUMN_NAME: c.name, ORDINAL_POSITION: i + 1, DATA_TYPE: c.type }));
            }),
          },
        };
      }
    }
    const key = `${db}.${schema}.${name}`;
    const allowed = writing ? user.createTableIn.includes(`${db}.${schema}`) : visible(`${db}.${schema}`);
    const columns = this.columns.get(key);
    if (!allowed || !columns) throw new SqlError(`SQL compilation error:\nObject '${key}' does not exist or not authorized.`, "not_found");
    return { name: key, table: { columns: columns.map((c) => ({ name: c.name, kind: kindOfType(c.type) })), rows: [...this.tables.get(key)!.values()] } };
  }

  private evaluate(res: http.ServerResponse, user: SnowflakeUser, sqlText: string, bindings: Record<string, { type: string; value: unknown }> | undefined) {
    const params: Record<string, SqlValue> = {};
    for (const [position, b] of Object.entries(bindings ?? {})) {
      const v = b.value;
      params[position] = v === null || v === undefined ? null : b.type === "FIXED" || b.type === "REAL" ? Number(v) : b.type === "BOOLEAN" ? v === true || v === "true" : String(v);
    }
    try {
      const statement = parseSql(sqlText);
      const { table, name } = this.source(user, statement.from, statement.type === "delete");
      if (statement.type === "select") {
        const result = runSelect(statement, table, { params, upperCaseNames: true });
        return this.rows(res, result.columns, result.rows.map((row) => row.map((v, i) => cell(v, result.columns[i]!.kind))));
      }
      const doomed = matching(statement, table, { params });
      const rows = this.tables.get(name!)!;
      for (const [key, row] of rows) if (doomed.has(row)) rows.delete(key);
      return this.rows(res, [{ name: "number of rows deleted", kind: "integer" }], [[String(doomed.size)]], 0x3300);
    } catch (error) {
      if (!(error instanceof SqlError)) throw error;
      return this.fail(res, error.code === "not_found" ? "002003" : "001003", error.message.startsWith("SQL") ? error.message : `SQL compilation error:\n${error.message}`);
    }
  }
}

let shared: FakeSnowflake | undefined;
export async function start(port = 0): Promise<FakeSnowflake> {
  shared ??= new FakeSnowflake();
  if (!shared.url) await shared.start(port);
  return shared;
}
export async function stop(): Promise<void> {
  await shared?.stop();
  shared = undefined;
}
