import { randomBytes } from "node:crypto";
import pg from "pg";
import type { PostgresTarget } from "../../backend/integrations/destinations/postgres/connect.js";

/**
 * A database of its own on the tests' Postgres server, standing in for a user's PostgreSQL destination (schema
 * "tributary"). The server is on loopback, which only TRIBUTARY_ALLOW_PRIVATE_HOSTS permits: it is set until `drop`.
 */
export async function userPostgresDatabase(adminUrl: string, prefix: string): Promise<{ target: PostgresTarget; drop(): Promise<void> }> {
  const saved = process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS;
  process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS = "true";
  const server = new URL(adminUrl);
  const database = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server.href });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const target = { host: server.hostname, port: Number(server.port), database, schema: "tributary", user: decodeURIComponent(server.username), password: decodeURIComponent(server.password) };
  const owner = new pg.Client({ ...target });
  await owner.connect();
  await owner.query("CREATE SCHEMA tributary");
  await owner.end();
  return {
    target,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
      if (saved === undefined) delete process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS;
      else process.env.TRIBUTARY_ALLOW_PRIVATE_HOSTS = saved;
    },
  };
}
