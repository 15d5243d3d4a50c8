import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type snowflake from "snowflake-sdk";
import { SNOWFLAKE_ACCOUNT_PATTERN, SNOWFLAKE_IDENTIFIER_PATTERN, STAGE_NAME_PATTERN } from "../../../contract/destinations.js";
import { checkName, checkObjectPath, columnsOf, latestPerKey, scalar, type ColumnKind, type DestinationObject, type DestinationWriter, type Row } from "./writer.js";
import { AccessCheckError } from "./google.js";
import { connectionTestTimeoutMs, describeMs, isTimeoutError, OutboundTimeout, providerTimeoutMs, withDeadline } from "../../lib/outbound.js";

/**
 * Snowflake through the official snowflake-sdk. The host is always built here
 * from a validated account identifier (<account>.snowflakecomputing.com);
 * only the server's environment (SNOWFLAKE_HOST_OVERRIDE, a full URL such as
 * http://127.0.0.1:4455, for tests/fakes/) can send it elsewhere.
 */
let sdk: Promise<typeof snowflake> | undefined;
/** Loaded on first use: the SDK is large and warns about Node versions at import. Its own logging is off. */
function loadSdk(): Promise<typeof snowflake> {
  sdk ??= import("snowflake-sdk").then((module) => {
    const loaded = ((module as { default?: typeof snowflake }).default ?? module) as typeof snowflake;
    loaded.configure({ logLevel: "OFF" });
    return loaded;
  });
  return sdk;
}

export interface SnowflakeTarget {
  account: string;
  user: string;
  password: string;
  warehouse?: string;
  database: string;
  schema: string;
  stageName?: string;
}

export function snowflakeAccessUrl(account: string, env: NodeJS.ProcessEnv = process.env): string {
  const override = env.SNOWFLAKE_HOST_OVERRIDE?.trim();
  if (override) return override.includes("://") ? override.replace(/\/+$/, "") : `https://${override}`;
  if (!SNOWFLAKE_ACCOUNT_PATTERN.test(account)) throw new AccessCheckError("the account identifier is not valid");
  return `https://${account.toLowerCase()}.snowflakecomputing.com`;
}

function ident(value: string | undefined, what: string, pattern = SNOWFLAKE_IDENTIFIER_PATTERN): string {
  if (!value || !pattern.test(value)) throw new AccessCheckError(`${what} is not a valid identifier`);
  return value.toUpperCase();
}

export interface SnowflakeConnectOptions {
  /** Bound on each request the SDK sends (its `timeout`) and on the whole sign-in. */
  timeoutMs?: number;
  /** Sign-in attempts the SDK retries after a network failure (its sfRetryMaxLoginRetries; its default is 7). */
  loginRetries?: number;
}

/**
 * Signs in. The SDK's retries alone kept an unreachable host's sign-in going for minutes, so the sign-in is also
 * raced against `timeoutMs`: past it the connection is destroyed and OutboundTimeout is thrown.
 */
export async function connectSnowflake(target: SnowflakeTarget, options: SnowflakeConnectOptions = {}): Promise<snowflake.Connection> {
  const accessUrl = snowflakeAccessUrl(target.account);
  const timeoutMs = options.timeoutMs ?? providerTimeoutMs();
  const connection = (await loadSdk()).createConnection({
    account: target.account,
    accessUrl,
    username: target.user,
    password: target.password,
    ...(target.warehouse ? { warehouse: target.warehouse } : {}),
    database: target.database,
    schema: target.schema,
    application: "Tributary",
    timeout: timeoutMs,
    ...(options.loginRetries !== undefined ? { sfRetryMaxLoginRetries: options.loginRetries } : {}),
  });
  const signIn = new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
  try {
    await withDeadline(signIn, timeoutMs, `Snowflake account ${target.account}`);
  } catch (error) {
    if (error instanceof OutboundTimeout) void closeSnowflake(connection).catch(() => {});
    throw error;
  }
  return connection;
}

export function runSql(connection: snowflake.Connection, sqlText: string, binds: snowflake.Binds = []): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    connection.execute({
      sqlText,
      binds,
      complete: (error, _statement, rows) => (error ? reject(error) : resolve((rows ?? []) as Record<string, unknown>[])),
    });
  });
}

export function closeSnowflake(connection: snowflake.Connection): Promise<void> {
  return new Promise((resolve) => {
    try {
      connection.destroy(() => resolve());
    } catch {
      // Not connected (a sign-in that never finished): nothing to close.
      resolve();
    }
  });
}

const firstLine = (error: unknown) =>
  String((error as Error).message ?? error)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join(" ")
    .slice(0, 300);

/**
 * Signs in and checks what the destination needs: the warehouse, database and
 * schema can be used and a table created (warehouse variant), or the stage
 * listed (stage variant). Throws AccessCheckError naming what is missing.
 */
export async function checkSnowflakeAccess(target: SnowflakeTarget, variant: "snowflake" | "snowflake_stage", timeoutMs = connectionTestTimeoutMs()): Promise<void> {
  const database = ident(target.database, "Database");
  const schema = ident(target.schema, "Schema");
  // One deadline for the whole test: the sign-in and every statement share it.
  const end = Date.now() + timeoutMs;
  const remaining = () => Math.max(1, end - Date.now());
  const tooSlow = () =>
    new AccessCheckError(
      `Snowflake account ${target.account} did not answer within ${describeMs(timeoutMs)}. Check the account identifier, and that Snowflake is reachable from this server.`,
      true,
      true,
    );
  let connection: snowflake.Connection;
  try {
    connection = await connectSnowflake(target, { timeoutMs, loginRetries: 0 });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 390100 || code === "390100" || /incorrect username or password/i.test(firstLine(error))) {
      throw new AccessCheckError(`Snowflake refused the sign-in of ${target.user.toUpperCase()}: incorrect username or password`);
    }
    if (isTimeoutError(error) || Date.now() >= end - 50) throw tooSlow();
    throw new AccessCheckError(`could not sign in to Snowflake account ${target.account} (${firstLine(error)})`, true);
  }
  const step = async (sql: string, missing: string) => {
    try {
      return await withDeadline(runSql(connection, sql), remaining(), `Snowflake account ${target.account}`);
    } catch (error) {
      if (isTimeoutError(error)) throw tooSlow();
      throw new AccessCheckError(`${missing} (${firstLine(error)})`);
    }
  };
  try {
    if (variant === "snowflake") {
      const warehouse = ident(target.warehouse, "Warehouse");
      await step(`USE WAREHOUSE ${warehouse}`, `the user cannot use warehouse ${warehouse}: grant USAGE on it to the user's role`);
    }
    await step(`USE DATABASE ${database}`, `the user cannot use database ${database}: grant USAGE on it to the user's role`);
    await step(`USE SCHEMA ${database}.${schema}`, `the user cannot use schema ${database}.${schema}: grant USAGE on it to the user's role`);
    if (variant === "snowflake") {
      await step(
        `CREATE TRANSIENT TABLE IF NOT EXISTS ${database}.${schema}.TRIBUTARY_CONNECTION_TEST (CHECKED_AT TIMESTAMP_NTZ)`,
        `the user cannot create tables in ${database}.${schema}: grant CREATE TABLE on the schema to the user's role`,
      );
      await step(`DROP TABLE IF EXISTS ${database}.${schema}.TRIBUTARY_CONNECTION_TEST`, `the user cannot drop its own test table in ${database}.${schema}`);
    } else {
      const stage = ident(target.stageName, "Stage name", STAGE_NAME_PATTERN);
      await step(`LIST @${database}.${schema}.${stage}`, `the user cannot read stage ${database}.${schema}.${stage}: create it and grant READ, WRITE on it to the user's role`);
    }
  } finally {
    // Logging out is a request too: it may wait for what is left of the deadline, no longer.
    await withDeadline(closeSnowflake(connection), remaining(), "Snowflake").catch(() => {});
  }
}

const SNOWFLAKE_TYPES: Record<ColumnKind, string> = { string: "VARCHAR", number: "FLOAT", boolean: "BOOLEAN", timestamp: "TIMESTAMP_TZ", json: "VARIANT" };

/** Rows per MERGE: Snowflake takes at most 16,384 expressions in a list (the VALUES rows). */
export const MERGE_MAX_ROWS = 16_384;
/** Bound values per MERGE. */
export const MERGE_MAX_BINDS = 50_000;
/**
 * Bytes of bound text and placeholders per MERGE: Snowflake asks for at most
 * 1 MB of statement text, binds included (a single larger row still goes, alone).
 */
export const MERGE_MAX_BYTES = 1_000_000;

/** A value bound as text (so every VALUES column has one type); the statement casts it to the column's type. */
function boundText(value: Row[string] | undefined): string | null {
  const v = scalar(value ?? null);
  return v === null ? null : String(v);
}

/** The batch's rows as chunks of binds (row after row, columns in `columns` order), each within the MERGE limits. */
export function mergeChunks(rows: Row[], columns: string[]): { rows: Row[]; binds: (string | null)[] }[] {
  const chunks: { rows: Row[]; binds: (string | null)[] }[] = [];
  let current: { rows: Row[]; binds: (string | null)[] } = { rows: [], binds: [] };
  let bytes = 0;
  for (const row of rows) {
    const binds = columns.map((c) => boundText(row[c]));
    // The row's bound text, and its "(?, ?, …), " in the statement.
    const size = binds.reduce((sum, b) => sum + (b === null ? 4 : Buffer.byteLength(b)), 3 * binds.length + 2);
    const full = current.rows.length >= MERGE_MAX_ROWS || current.binds.length + binds.length > MERGE_MAX_BINDS || bytes + size > MERGE_MAX_BYTES;
    if (current.rows.length > 0 && full) {
      chunks.push(current);
      current = { rows: [], binds: [] };
      bytes = 0;
    }
    current.rows.push(row);
    current.binds.push(...binds);
    bytes += size;
  }
  if (current.rows.length) chunks.push(current);
  return chunks;
}

/** A VALUES column (text) as the target column's type. */
function castTo(expr: string, type: string): string {
  const base = type.replace(/\(.*$/, "").trim();
  if (base === "VARIANT") return `PARSE_JSON(${expr})`;
  if (base === "OBJECT" || base === "ARRAY") return `PARSE_JSON(${expr})::${base}`;
  return /^[A-Z_]+$/.test(base) ? `${expr}::${base}` : expr;
}

/**
 * MERGE INTO <table> t USING (SELECT column1::TYPE AS A, PARSE_JSON(column2) AS B
 * FROM VALUES (?, ?), (?, ?)) s ON t.K = s.K WHEN MATCHED THEN UPDATE SET …
 * WHEN NOT MATCHED THEN INSERT (…) VALUES (…).
 */
export function mergeStatement(table: string, source: { name: string; type: string }[], keys: string[], missing: string[], rowCount: number): string {
  const select = source.map((c, i) => `${castTo(`column${i + 1}`, c.type)} AS ${c.name}`).join(", ");
  const row = `(${source.map(() => "?").join(", ")})`;
  const values = Array.from({ length: rowCount }, () => row).join(", ");
  const set = [...source.filter((c) => !keys.includes(c.name)).map((c) => `t.${c.name} = s.${c.name}`), ...missing.map((c) => `t.${c} = NULL`)];
  return [
    `MERGE INTO ${table} t USING (SELECT ${select} FROM VALUES ${values}) s ON ${keys.map((k) => `t.${k} = s.${k}`).join(" AND ")}`,
    ...(set.length ? [`WHEN MATCHED THEN UPDATE SET ${set.join(", ")}`] : []),
    `WHEN NOT MATCHED THEN INSERT (${source.map((c) => c.name).join(", ")}) VALUES (${source.map((c) => `s.${c.name}`).join(", ")})`,
  ].join(" ");
}

/** Rows go to tables keyed by the key columns (MERGE); objects to the stage (stage variant) with PUT. */
export class SnowflakeWriter implements DestinationWriter {
  private connection?: snowflake.Connection;
  /** Each table's columns (upper-case name → type), as read or added by this writer. */
  private readonly tables = new Map<string, Map<string, string>>();

  constructor(
    private readonly target: SnowflakeTarget,
    private readonly variant: "snowflake" | "snowflake_stage",
  ) {}

  private async db() {
    this.connection ??= await connectSnowflake(this.target);
    return this.connection;
  }

  private qualified(name: string) {
    return `${ident(this.target.database, "Database")}.${ident(this.target.schema, "Schema")}.${name.toUpperCase()}`;
  }

  async writeObjects(objects: DestinationObject[]): Promise<void> {
    if (this.variant !== "snowflake_stage") {
      const rows = objects.map((o) => ({ path: checkObjectPath(o.path), content: typeof o.body === "string" ? o.body : Buffer.from(o.body).toString("base64"), content_type: o.contentType ?? null }));
      return this.upsertRows("objects", rows, ["path"]);
    }
    const stage = this.qualified(ident(this.target.stageName, "Stage name", STAGE_NAME_PATTERN));
    const folder = await mkdtemp(path.join(os.tmpdir(), "tributary-put-"));
    try {
      for (const object of objects) {
        const relative = checkObjectPath(object.path);
        const directory = path.posix.dirname(relative);
        const file = path.join(folder, path.posix.basename(relative));
        await writeFile(file, object.body);
        await runSql(await this.db(), `PUT 'file://${file.replace(/'/g, "")}' '@${stage}/${directory === "." ? "" : directory}' AUTO_COMPRESS = FALSE OVERWRITE = TRUE`);
        await rm(file);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /**
   * One MERGE per chunk of the batch (see MERGE_MAX_ROWS / MERGE_MAX_BINDS /
   * MERGE_MAX_BYTES), its rows bound as a multi-row VALUES source. A key given
   * twice in the batch keeps its later row (Snowflake refuses a MERGE whose
   * source matches a target row twice). The table is created on first use and
   * a batch's new columns are added to it; a replaced row keeps nothing of the
   * old one (the table's columns the batch lacks are set to NULL).
   */
  async upsertRows(table: string, rows: Row[], key: string[]): Promise<void> {
    checkName("table", table);
    if (key.length === 0) throw new Error("upsertRows needs at least one key column");
    key.forEach((k) => checkName("column", k));
    if (rows.length === 0) return;
    for (const row of rows) for (const k of key) if (row[k] === null || row[k] === undefined) throw new Error(`Row without key column ${k}`);
    const kinds = columnsOf(rows);
    const given = [...kinds.keys()];
    const upper = new Map<string, string>();
    for (const original of given) {
      const other = upper.get(original.toUpperCase());
      if (other !== undefined) throw new Error(`Columns ${JSON.stringify(other)} and ${JSON.stringify(original)} are the same column in Snowflake`);
      upper.set(original.toUpperCase(), original);
    }
    const name = this.qualified(table);
    const connection = await this.db();
    try {
      const columns = await this.ensureColumns(connection, name, kinds);
      const batch = latestPerKey(rows, key);
      const source = given.map((original) => ({ original, name: original.toUpperCase(), type: columns.get(original.toUpperCase()) ?? SNOWFLAKE_TYPES[kinds.get(original)!] }));
      const keys = key.map((k) => k.toUpperCase());
      const missing = [...columns.keys()].filter((c) => !upper.has(c));
      for (const chunk of mergeChunks(batch, given)) {
        await runSql(connection, mergeStatement(name, source, keys, missing, chunk.rows.length), chunk.binds);
      }
    } catch (error) {
      // The table may have changed under us: read its columns again next time.
      this.tables.delete(name);
      throw error;
    }
  }

  /**
   * Creates the table (first use by this writer: then its columns are read)
   * and adds the batch's columns it lacks. Answers every column of the table
   * (upper-case name → Snowflake type).
   */
  private async ensureColumns(connection: snowflake.Connection, name: string, kinds: Map<string, ColumnKind>): Promise<Map<string, string>> {
    let columns = this.tables.get(name);
    if (!columns) {
      const definitions = [...kinds].map(([column, kind]) => `${column.toUpperCase()} ${SNOWFLAKE_TYPES[kind]}`);
      await runSql(connection, `CREATE TABLE IF NOT EXISTS ${name} (${definitions.join(", ")})`);
      const [database, schema, table] = name.split(".") as [string, string, string];
      const found = await runSql(connection, `SELECT COLUMN_NAME, DATA_TYPE FROM ${database}.INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`, [schema, table]);
      columns = new Map(found.map((r) => [String(r.COLUMN_NAME).toUpperCase(), String(r.DATA_TYPE).toUpperCase()]));
      this.tables.set(name, columns);
    }
    for (const [column, kind] of kinds) {
      const upperName = column.toUpperCase();
      if (columns.has(upperName)) continue;
      // One column per statement; IF NOT EXISTS: another writer may have added it meanwhile.
      await runSql(connection, `ALTER TABLE ${name} ADD COLUMN IF NOT EXISTS ${upperName} ${SNOWFLAKE_TYPES[kind]}`);
      columns.set(upperName, SNOWFLAKE_TYPES[kind]);
    }
    return columns;
  }

  async close(): Promise<void> {
    if (this.connection) await closeSnowflake(this.connection);
    this.connection = undefined;
    this.tables.clear();
  }
}
