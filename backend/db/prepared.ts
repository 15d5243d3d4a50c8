import type { Database } from "./client.js";

/**
 * Named prepared statements for the queries every page makes (the session
 * check, the list pages): Postgres parses and plans them once per connection
 * instead of once per call. One prepared query per database handle and name
 * (tests run several backends, each with its own pool).
 */
const cache = new WeakMap<Database, Map<string, unknown>>();

export function prepared<T>(db: Database, name: string, build: (db: Database) => T): T {
  let byName = cache.get(db);
  if (!byName) cache.set(db, (byName = new Map()));
  let query = byName.get(name) as T | undefined;
  if (query === undefined) byName.set(name, (query = build(db)));
  return query;
}
