import type http from "node:http";
import { gunzipSync } from "node:zlib";
import { randomUUID } from "node:crypto";
import { HttpFake, json, type RecordedRequest } from "./google-http-fake.js";
import { mergeRows, type Bindings } from "./snowflake-merge.js";
import { SnowflakeStages } from "./snowflake-stage.js";
import { SnowflakeResults } from "./snowflake-results.js";
import { cell, kindOfType, type SnowflakeColumn } from "./snowflake-values.js";
import { matching, parseSql, runSelect, SqlError, type SqlKind, type SqlTable, type SqlValue, type TableRef } from "./warehouse-sql.js";

export { MAX_LIST_EXPRESSIONS, type SnowflakeColumn } from "./snowflake-values.js";

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
 * remove rows. Results come back typed (rowtype + JSON rowset) for the SDK, a large one in chunks the SDK downloads
 * as it reads the rows (./snowflake-results.ts).
 *
 * Stages keep what is PUT (./snowflake-stage.ts: the SDK copies the file
 * into a folder the fake names) and LIST shows it.
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

export class FakeSnowflake {
  readonly users = new Map<string, SnowflakeUser>();
  readonly statements: ReceivedStatement[] = [];
  readonly logins: { account: string; user: string; ok: boolean }[] = [];
  /** "DB.SCHEMA.TABLE" → rows (column name → value) by key. */
  readonly tables = new Map<string, Map<string, Record<string, SqlValue>>>();
  /** "DB.SCHEMA.TABLE" → its columns, as created. */
  readonly columns = new Map<string, SnowflakeColumn[]>();
  private readonly sessions = new Map<string, Session>();
  private readonly stages = new SnowflakeStages();
  /** Results' chunks, for the SDK to download (./snowflake-results.ts). */
  readonly results = new SnowflakeResults();
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
    this.stages.clear();
    this.results.clear();
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
    this.stages.clear();
    this.results.clear();
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
    const chunk = req.method === "GET" ? this.results.chunk(req.path) : undefined;
    if (chunk !== undefined) return void res.writeHead(200, { "content-type": "application/octet-stream" }).end(chunk);
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

  /** The files PUT on a stage ("DB.SCHEMA.STAGE"), path in the stage → content. */
  stageFiles(stage: string): Map<string, Buffer> {
    return this.stages.files(stage.toUpperCase());
  }

  /** Rows of a table, in insertion order. */
  rowsOf(table: string): Record<string, SqlValue>[] {
    return [...(this.tables.get(table.toUpperCase())?.values() ?? [])];
  }

  private rows(res: http.ServerResponse, columns: (string | { name: string; kind: SqlKind })[], rowset: (string | null)[][], statementTypeId = 4096) {
    json(res, 200, { data: this.results.data(this.url, columns, rowset, statementTypeId), code: null, message: null, success: true });
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
        const rows = this.tables.get(table);
        const columns = this.columns.get(table);
        if (!rows || !columns) return this.fail(res, "002003", `SQL compilation error:\nObject '${table}' does not exist or not authorized.`);
        const { inserted, updated } = mergeRows(rows, columns, sqlText, body.bindings as Bindings);
        const counts = [
          { name: "number of rows inserted", kind: "integer" as const },
          { name: "number of rows updated", kind: "integer" as const },
        ];
        return this.rows(res, counts, [[String(inserted), String(updated)]], 0x3400);
      } catch (error) {
        if (error instanceof SqlError) return this.fail(res, "100038", error.message);
        throw error;
      }
    }
    if (/^(SELECT|DELETE)\b/i.test(sqlText) && !/^SELECT 1$/i.test(sqlText)) return this.evaluate(res, user, sqlText, body.bindings);
    // PUT 'file://<local file>' '@DB.SCHEMA.STAGE[/path]' [options] and LIST @DB.SCHEMA.STAGE[/prefix], quotes optional.
    if ((m = /^(PUT\s+(?:'file:\/\/([^']+)'|file:\/\/(\S+))|LIST)\s+'?@(\w+)\.(\w+)\.(\w+)(?:\/([^'\s]*))?'?(.*?);?$/is.exec(sqlText))) {
      const stage = `${m[4]}.${m[5]}.${m[6]}`.toUpperCase();
      if (!user.stages.includes(stage)) return this.fail(res, "002003", `SQL compilation error:\nStage '${m[4]}.${m[5]}.${m[6]}' does not exist or not authorized.`);
      try {
        if (/^LIST/i.test(m[1]!)) {
          if (m[8]!.trim()) throw new SqlError(`SQL compilation error:\nsyntax error: the fake does not understand the LIST option ${JSON.stringify(m[8]!.trim())}`);
          const listed = this.stages.list(stage, m[7] ?? "");
          return this.rows(res, ["name", { name: "size", kind: "integer" }, "md5", "last_modified"], listed.map((f) => [f.name, String(f.size), f.md5, f.last_modified]));
        }
        return json(res, 200, { data: this.stages.put(stage, m[7] ?? "", m[2] ?? m[3]!, m[8]!), code: null, message: null, success: true });
      } catch (error) {
        if (error instanceof SqlError) return this.fail(res, "001003", error.message);
        throw error;
      }
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
