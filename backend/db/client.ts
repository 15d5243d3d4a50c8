import pg from "pg";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import * as schema from "./schema.js";

export type Database = NodePgDatabase<typeof schema>;

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function connectDatabase(url: string, max = 10): DatabaseHandle {
  // One connection stays open once made (min): a worker's sync no longer opens one before its first query, which
  // cost a small run ~10% of its time. Idle connections do not keep a process alive (allowExitOnIdle).
  const pool = new pg.Pool({ connectionString: url, max, min: 1, allowExitOnIdle: true });
  // An idle client that loses its connection must not crash the process.
  pool.on("error", () => {});
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
