import type http from "node:http";
import { gunzipSync } from "node:zlib";
import { randomUUID } from "node:crypto";
import { HttpFake, json, type RecordedRequest } from "./google-http-fake.js";

/**
 * A local Snowflake endpoint good enough for the official snowflake-sdk:
 * password login (POST /session/v1/login-request), statements
 * (POST /queries/v1/query-request) answered from a small model of users,
 * warehouses, schemas and stages, telemetry and logout. Point the SDK at it
 * with `accessUrl` (the backend: SNOWFLAKE_HOST_OVERRIDE=<url>).
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
  readonly tables = new Map<string, Map<string, Record<string, unknown>>>();
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

  private rows(res: http.ServerResponse, columns: string[], rowset: (string | null)[][], statementTypeId = 4096) {
    json(res, 200, {
      data: {
        parameters: [],
        rowtype: columns.map((name) => ({ name, database: "", schema: "", table: "", byteLength: 16777216, type: "text", scale: null, precision: null, nullable: true, collation: null, length: 16777216 })),
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
    if ((m = /^(?:CREATE (?:TRANSIENT )?TABLE IF NOT EXISTS|DROP TABLE IF EXISTS|MERGE INTO) (\w+)\.(\w+)\.(\w+)/i.exec(sqlText))) {
      const schema = `${m[1]}.${m[2]}`.toUpperCase();
      if (!user.createTableIn.includes(schema)) return this.fail(res, "003001", `SQL access control error:\nInsufficient privileges to operate on schema '${m[2]}'`);
      const table = `${schema}.${m[3]!.toUpperCase()}`;
      if (/^CREATE/i.test(sqlText)) this.tables.set(table, this.tables.get(table) ?? new Map());
      if (/^DROP/i.test(sqlText)) this.tables.delete(table);
      if (/^MERGE/i.test(sqlText)) {
        const rows = this.tables.get(table);
        if (!rows) return this.fail(res, "002003", `SQL compilation error:\nTable '${table}' does not exist or not authorized.`);
        const values = Object.values((body.bindings ?? {}) as Record<string, { value: unknown }>).map((b) => b.value);
        rows.set(String(values[0]), Object.fromEntries(values.map((v, i) => [String(i), v])));
        return this.rows(res, ["number of rows inserted", "number of rows updated"], [["1", "0"]], 0x3000);
      }
      return ok("table");
    }
    if ((m = /^LIST @(\w+)\.(\w+)\.(\w+)/i.exec(sqlText))) {
      if (!user.stages.includes(`${m[1]}.${m[2]}.${m[3]}`.toUpperCase())) return this.fail(res, "002003", `SQL compilation error:\nStage '${m[1]}.${m[2]}.${m[3]}' does not exist or not authorized.`);
      return this.rows(res, ["name", "size", "md5", "last_modified"], []);
    }
    if (/^SELECT 1$/i.test(sqlText)) return this.rows(res, ["1"], [["1"]]);
    return this.fail(res, "001003", `SQL compilation error:\nsyntax error: the fake does not understand ${JSON.stringify(sqlText.slice(0, 80))}`);
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
