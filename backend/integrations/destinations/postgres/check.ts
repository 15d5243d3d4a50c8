import type pg from "pg";
import { DESTINATION_MESSAGES } from "../../../../contract/destinations.js";
import { connectionTestTimeoutMs, describeMs, isTimeoutError, withDeadline } from "../../../lib/outbound.js";
import { HostNotFoundError, RefusedHostError } from "../../../lib/public-address.js";
import { ConnectionTestError } from "../plugin.js";
import { closePostgres, connectPostgres, ident, qualified, serverName, type PostgresTarget } from "./connect.js";

/** The table a connection test creates in a transaction it rolls back: nothing is left behind. */
const TEST_TABLE = "tributary_connection_test";

const failed = (detail: string) => `Connection test failed: ${detail}`;
/** The server's own sentence, on one line (never the password: the server does not echo it). */
const serverSays = (error: unknown) => String((error as Error).message ?? error).replace(/\s+/g, " ").trim().slice(0, 300);
const codeOf = (error: unknown) => (error as { code?: unknown }).code;

/** What a failed sign-in means to the user (SQLSTATEs of the server, Node's socket codes, TLS's). */
function signInFailure(target: PostgresTarget, error: unknown): ConnectionTestError {
  const code = codeOf(error);
  if (error instanceof RefusedHostError) return new ConnectionTestError(400, failed(`${error.message}.`));
  if (error instanceof HostNotFoundError) return new ConnectionTestError(422, failed(`${error.message}. Check the host name.`));
  if (code === "28P01") return new ConnectionTestError(422, DESTINATION_MESSAGES.credentialsFailed);
  if (code === "3D000") return new ConnectionTestError(422, failed(`database ${target.database} does not exist on ${serverName(target)}.`));
  if (code === "42501") return new ConnectionTestError(422, failed(`user ${target.user} may not connect to database ${target.database}: grant CONNECT on it to the user.`));
  if (code === "28000") return new ConnectionTestError(422, failed(`${serverName(target)} refused user ${target.user} (${serverSays(error)}).`));
  if (/does not support SSL/i.test(serverSays(error))) {
    return new ConnectionTestError(502, failed(`${serverName(target)} does not accept TLS connections, which Tributary requires for a server on the internet.`));
  }
  if (code === "ECONNREFUSED") return new ConnectionTestError(502, failed(`${serverName(target)} refused the connection. Check the host and port.`));
  return new ConnectionTestError(502, failed(`could not connect to ${serverName(target)} (${serverSays(error)}).`));
}

/**
 * Signs in and checks what the destination needs: the schema exists or can be created, and tables can be created in
 * it. One deadline bounds the whole test (CONNECTION_TEST_TIMEOUT_SECONDS); throws ConnectionTestError.
 */
export async function checkPostgresAccess(target: PostgresTarget, timeoutMs = connectionTestTimeoutMs()): Promise<void> {
  const end = Date.now() + timeoutMs;
  const remaining = () => Math.max(1, end - Date.now());
  const tooSlow = () =>
    new ConnectionTestError(504, failed(`${serverName(target)} did not answer within ${describeMs(timeoutMs)}. Check the host and port, and that the server is reachable from this server.`));
  let client: pg.Client;
  try {
    client = await connectPostgres(target, { timeoutMs, queryTimeoutMs: timeoutMs });
  } catch (error) {
    if (isTimeoutError(error) || Date.now() >= end - 50) throw tooSlow();
    throw signInFailure(target, error);
  }
  const step = async (sql: string, values: unknown[], missing: string) => {
    try {
      return await withDeadline(client.query(sql, values), remaining(), serverName(target));
    } catch (error) {
      if (isTimeoutError(error)) throw tooSlow();
      throw new ConnectionTestError(422, failed(`${missing} (${serverSays(error)}).`));
    }
  };
  const schema = target.schema;
  try {
    const found = await step("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema], `could not look up schema ${schema}`);
    if (found.rowCount === 0) {
      await step(
        `CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`,
        [],
        `user ${target.user} cannot create schema ${schema} in database ${target.database}: create it and grant USAGE, CREATE on it to the user, or grant CREATE on the database`,
      );
    }
    await step("BEGIN", [], "could not start a transaction");
    await step(`CREATE TABLE ${qualified(schema, TEST_TABLE)} (checked_at timestamptz)`, [], `user ${target.user} cannot create tables in schema ${schema}: grant USAGE, CREATE on the schema to the user`);
    await step("ROLLBACK", [], "could not roll back the test table");
  } finally {
    await closePostgres(client, remaining());
  }
}
