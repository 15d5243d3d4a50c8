import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type snowflake from "snowflake-sdk";
import { SNOWFLAKE_ACCOUNT_PATTERN, SNOWFLAKE_IDENTIFIER_PATTERN, STAGE_NAME_PATTERN } from "../../../contract/destinations.js";
import { checkName, checkObjectPath, columnsOf, scalar, type DestinationObject, type DestinationWriter, type Row } from "./writer.js";
import { AccessCheckError } from "./google.js";

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

export async function connectSnowflake(target: SnowflakeTarget): Promise<snowflake.Connection> {
  const accessUrl = snowflakeAccessUrl(target.account);
  const connection = (await loadSdk()).createConnection({
    account: target.account,
    accessUrl,
    username: target.user,
    password: target.password,
    ...(target.warehouse ? { warehouse: target.warehouse } : {}),
    database: target.database,
    schema: target.schema,
    application: "Tributary",
    timeout: 30_000,
  });
  await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
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
  return new Promise((resolve) => connection.destroy(() => resolve()));
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
export async function checkSnowflakeAccess(target: SnowflakeTarget, variant: "snowflake" | "snowflake_stage"): Promise<void> {
  const database = ident(target.database, "Database");
  const schema = ident(target.schema, "Schema");
  let connection: snowflake.Connection;
  try {
    connection = await connectSnowflake(target);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 390100 || code === "390100" || /incorrect username or password/i.test(firstLine(error))) {
      throw new AccessCheckError(`Snowflake refused the sign-in of ${target.user.toUpperCase()}: incorrect username or password`);
    }
    throw new AccessCheckError(`could not sign in to Snowflake account ${target.account} (${firstLine(error)})`, true);
  }
  const step = async (sql: string, missing: string) => {
    try {
      return await runSql(connection, sql);
    } catch (error) {
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
    await closeSnowflake(connection);
  }
}

/** Rows go to tables keyed by the key columns (MERGE); objects to the stage (stage variant) with PUT. */
export class SnowflakeWriter implements DestinationWriter {
  private connection?: snowflake.Connection;

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

  async upsertRows(table: string, rows: Row[], key: string[]): Promise<void> {
    checkName("table", table);
    key.forEach((k) => checkName("column", k));
    if (rows.length === 0) return;
    const columns = [...columnsOf(rows).keys()].map((c) => c.toUpperCase());
    const types = [...columnsOf(rows).values()].map((k) => ({ string: "VARCHAR", number: "FLOAT", boolean: "BOOLEAN", timestamp: "TIMESTAMP_TZ", json: "VARIANT" })[k]);
    const name = this.qualified(table);
    const connection = await this.db();
    await runSql(connection, `CREATE TABLE IF NOT EXISTS ${name} (${columns.map((c, i) => `${c} ${types[i]}`).join(", ")})`);
    const names = columns;
    const keys = key.map((k) => k.toUpperCase());
    const source = names.map((c, i) => (types[i] === "VARIANT" ? `PARSE_JSON(?) AS ${c}` : `?::${types[i]} AS ${c}`)).join(", ");
    const sql = `MERGE INTO ${name} t USING (SELECT ${source}) s ON ${keys.map((k) => `t.${k} = s.${k}`).join(" AND ")}
      WHEN MATCHED THEN UPDATE SET ${names.map((c) => `t.${c} = s.${c}`).join(", ")}
      WHEN NOT MATCHED THEN INSERT (${names.join(", ")}) VALUES (${names.map((c) => `s.${c}`).join(", ")})`;
    const original = [...columnsOf(rows).keys()];
    for (const row of rows) await runSql(connection, sql, original.map((c) => scalar(row[c] ?? null)) as snowflake.Binds);
  }

  async close(): Promise<void> {
    if (this.connection) await closeSnowflake(this.connection);
    this.connection = undefined;
  }
}
