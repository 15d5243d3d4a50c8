import type snowflake from "snowflake-sdk";
import { SNOWFLAKE_ACCOUNT_PATTERN, SNOWFLAKE_IDENTIFIER_PATTERN, STAGE_NAME_PATTERN } from "../../../../contract/integrations/snowflake.js";
import { AccessCheckError } from "../kit/access-check.js";
import { connectionTestTimeoutMs, describeMs, isTimeoutError, OutboundTimeout, providerTimeoutMs, withDeadline } from "../../../lib/outbound.js";

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

export function ident(value: string | undefined, what: string, pattern = SNOWFLAKE_IDENTIFIER_PATTERN): string {
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

/**
 * A statement's rows in batches of at most `batchRows`, streamed (streamResult: true): Snowflake answers a large result
 * in chunks that the SDK downloads as the rows are read, so only the chunk being read is held, never the whole result.
 * One stream over the result (statement.streamRows()), read as the batches are asked for: each window of rows
 * streamed apart (streamRows({ start, end })) would download again every chunk it shares with the window before.
 */
export async function* streamSql(connection: snowflake.Connection, sqlText: string, binds: snowflake.Binds, batchRows: number): AsyncGenerator<Record<string, unknown>[]> {
  const statement = await new Promise<snowflake.RowStatement>((resolve, reject) => {
    connection.execute({ sqlText, binds, streamResult: true, complete: (error, executed) => (error ? reject(error) : resolve(executed)) });
  });
  const size = Math.max(1, Math.floor(batchRows));
  let batch: Record<string, unknown>[] = [];
  for await (const row of statement.streamRows()) {
    batch.push(row as Record<string, unknown>);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
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

