import { isIP } from "node:net";
import pg from "pg";
import { addressAllowed, resolvePublicHost } from "../../../lib/public-address.js";
import { providerTimeoutMs, withDeadline } from "../../../lib/outbound.js";

/** Where a PostgreSQL destination writes: the user's server, database and schema, and who signs in. */
export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  schema: string;
  user: string;
  password: string;
}

export interface ConnectOptions {
  /** Bound on resolving the host and signing in (default: a provider request's). */
  timeoutMs?: number;
  /** Bound on each statement, enforced by the client (default: a provider request's). */
  queryTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** "PostgreSQL server db.example.com:5432": for messages. */
export const serverName = (target: Pick<PostgresTarget, "host" | "port">) => `PostgreSQL server ${target.host}:${target.port}`;

/**
 * Signs in to the target's server. The host is resolved once under the SSRF rule (backend/lib/public-address.ts) and
 * the client connects to that very address. A public address is reached over TLS only, its certificate checked
 * against the name the user gave; a private one (allowed by TRIBUTARY_ALLOW_PRIVATE_HOSTS only) in plain text, as
 * the tests' server and most servers on a private network speak it.
 */
export async function connectPostgres(target: PostgresTarget, options: ConnectOptions = {}): Promise<pg.Client> {
  const timeoutMs = options.timeoutMs ?? providerTimeoutMs(options.env);
  const end = Date.now() + timeoutMs;
  const checked = await withDeadline(resolvePublicHost(target.host, { env: options.env }), timeoutMs, serverName(target));
  const tls = addressAllowed(checked.address);
  const name = checked.host.replace(/^\[|\]$/g, "");
  const client = new pg.Client({
    host: checked.address,
    port: target.port,
    database: target.database,
    user: target.user,
    password: target.password,
    // SNI and the certificate's name are the user's host name, not the address it resolved to.
    ssl: tls ? { rejectUnauthorized: true, ...(isIP(name) === 0 ? { servername: name } : {}) } : false,
    connectionTimeoutMillis: Math.max(1, end - Date.now()),
    query_timeout: options.queryTimeoutMs ?? providerTimeoutMs(options.env),
    application_name: "Tributary",
    keepAlive: true,
  });
  // A connection lost while idle: the next statement reports it, nothing else should (an unhandled 'error' kills the process).
  client.on("error", () => {});
  await withDeadline(client.connect(), Math.max(1, end - Date.now()), serverName(target), () => client.end());
  return client;
}

/** Ends a client, bounded: a server that stopped answering must not hold the caller. */
export async function closePostgres(client: pg.Client, ms = 5_000): Promise<void> {
  await withDeadline(client.end(), ms, "PostgreSQL").catch(() => {
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  });
}

/** A name in SQL: always quoted, so a user's mixed-case or reserved-word name means exactly itself. */
export const ident = (name: string) => pg.escapeIdentifier(name);

/** "schema"."table". */
export const qualified = (schema: string, table: string) => `${ident(schema)}.${ident(table)}`;
