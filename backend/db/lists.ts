import { and, count, eq, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectors, destinations, sources, transforms } from "./schema.js";
import type { ListQuery } from "../../contract/lists.js";
import { connectorHealth, connectorRecord, connectorSelection, type ConnectorRecord } from "./connectors.js";
import { sourceConnectorCount, type SourceRecord } from "./sources.js";
import { destinationConnectorCount, type DestinationRecord } from "./destinations.js";
import { transformRecord, transformSelection, type TransformRecord } from "./transforms.js";
import { prepared } from "./prepared.js";
import { inWorkspace } from "./scope.js";

/**
 * Every list is one user's records, a page at a time, newest first unless the query sorts otherwise, narrowed by
 * its search and filters (contract/lists.ts). The correlated sub-queries name the outer table explicitly: drizzle
 * renders columns unqualified, which inside a sub-query would bind to the inner table.
 *
 * Each list is one prepared statement whatever the query: a filter that is not set is a NULL parameter
 * ("$status IS NULL OR …") and the order is chosen by CASE on the sort parameter, so user input only ever travels
 * as parameters. They answer records (backend/db/<resource>.ts); the routers map them to the API's shape.
 */
export interface Page<T> {
  rows: T[];
  total: number;
}

/** A name search as an ILIKE pattern: the user's % and _ are literal characters. */
const namePattern = (q: string | undefined) => (q ? `%${q.replace(/[\\%_]/g, "\\$&")}%` : null);

/** The parameters every list statement takes. */
const params = (ownerId: string, query: ListQuery) => ({
  owner: ownerId,
  limit: query.page_size,
  offset: (query.page - 1) * query.page_size,
  pattern: namePattern(query.q),
  status: query.status ?? null,
  type: query.type ?? null,
  sort: query.sort,
});
const owner = sql.placeholder("owner");
const limit = sql.placeholder("limit");
const offset = sql.placeholder("offset");
const pattern = sql.placeholder("pattern");
const status = sql.placeholder("status");
const type = sql.placeholder("type");
const sort = sql.placeholder("sort");

/** "Any" when the parameter is NULL, else the column's match. */
const nameMatches = (table: string) => sql`(${pattern}::text IS NULL OR ${sql.raw(`"${table}"."name"`)} ILIKE ${pattern}::text)`;
const equalsUnlessNull = (param: Placeholder, value: SQL) => sql`(${param}::text IS NULL OR ${value} = ${param}::text)`;

/** The time the list's last-sync column shows of the outer "connectors" row (app: LastConnection). */
const lastShownSync = sql`COALESCE((SELECT COALESCE(r.finished_at, r.started_at, r.created_at) FROM sync_runs r
  WHERE r.connector_id = "connectors"."id" ORDER BY r.created_at DESC, r.id DESC LIMIT 1), "connectors"."last_synced_at")`;

/** The order a sort names, then newest first (and the id, so pages never overlap). */
function orderBy(table: string, lastSync: SQL | null) {
  const column = (name: string) => sql.raw(`"${table}"."${name}"`);
  return [
    sql`CASE WHEN ${sort}::text = 'name' THEN lower(${column("name")}) END ASC`,
    sql`CASE WHEN ${sort}::text = 'name_desc' THEN lower(${column("name")}) END DESC`,
    sql`CASE WHEN ${sort}::text = 'oldest' THEN ${column("created_at")} END ASC`,
    ...(lastSync ? [sql`CASE WHEN ${sort}::text = 'last_sync' THEN ${lastSync} END DESC NULLS LAST`] : []),
    sql`${column("created_at")} DESC`,
    sql`${column("id")} DESC`,
  ];
}

/** One page and the total, from a list's two prepared statements (run side by side). */
async function pageOf<R>(
  rows: { execute(values: ReturnType<typeof params>): Promise<R[]> },
  total: { execute(values: ReturnType<typeof params>): Promise<{ total: number }[]> },
  ownerId: string,
  query: ListQuery,
): Promise<{ rows: R[]; total: number }> {
  const values = params(ownerId, query);
  const [found, [counted]] = await Promise.all([rows.execute(values), total.execute(values)]);
  return { rows: found, total: counted!.total };
}

/** The lists are what every page shows: prepared statements (parsed and planned once per connection, see prepared.ts). */
const sourcesWhere = () => and(inWorkspace(sources, owner), nameMatches("sources"), equalsUnlessNull(status, sql`"sources"."status"`), equalsUnlessNull(type, sql`"sources"."integration_name"`));
const sourcesPage = (db: Database) =>
  prepared(db, "list_sources", (d) =>
    d
      .select({ s: sources, connectorCount: sourceConnectorCount })
      .from(sources)
      .where(sourcesWhere())
      .orderBy(...orderBy("sources", null))
      .limit(limit)
      .offset(offset)
      .prepare("list_sources"),
  );
const sourcesTotal = (db: Database) =>
  prepared(db, "count_sources", (d) => d.select({ total: count() }).from(sources).where(sourcesWhere()).prepare("count_sources"));

export async function listSources(db: Database, ownerId: string, query: ListQuery): Promise<Page<SourceRecord>> {
  const { rows, total } = await pageOf(sourcesPage(db), sourcesTotal(db), ownerId, query);
  return { total, rows: rows.map(({ s, connectorCount }) => ({ ...s, connectorCount })) };
}

const destinationsWhere = () => and(inWorkspace(destinations, owner), nameMatches("destinations"), equalsUnlessNull(type, sql`"destinations"."integration_name"`));
const destinationsPage = (db: Database) =>
  prepared(db, "list_destinations", (d) =>
    d
      .select({ d: destinations, connectorCount: destinationConnectorCount })
      .from(destinations)
      .where(destinationsWhere())
      .orderBy(...orderBy("destinations", null))
      .limit(limit)
      .offset(offset)
      .prepare("list_destinations"),
  );
const destinationsTotal = (db: Database) =>
  prepared(db, "count_destinations", (d) => d.select({ total: count() }).from(destinations).where(destinationsWhere()).prepare("count_destinations"));

export async function listDestinations(db: Database, ownerId: string, query: ListQuery): Promise<Page<DestinationRecord>> {
  const { rows, total } = await pageOf(destinationsPage(db), destinationsTotal(db), ownerId, query);
  return { total, rows: rows.map(({ d, connectorCount }) => ({ ...d, connectorCount })) };
}

const connectorsWhere = () =>
  and(inWorkspace(connectors, owner), nameMatches("connectors"), equalsUnlessNull(status, connectorHealth), equalsUnlessNull(type, sql`"sources"."integration_name"`));
const connectorsPage = (db: Database) =>
  prepared(db, "list_connectors", (d) =>
    d
      .select(connectorSelection)
      .from(connectors)
      .leftJoin(sources, eq(sources.id, connectors.sourceId))
      .where(connectorsWhere())
      // The "Last sync" sort follows the column the user sees: the newest run's time, else the last successful sync's.
      .orderBy(...orderBy("connectors", lastShownSync))
      .limit(limit)
      .offset(offset)
      .prepare("list_connectors"),
  );
const connectorsTotal = (db: Database) =>
  prepared(db, "count_connectors", (d) =>
    d.select({ total: count() }).from(connectors).leftJoin(sources, eq(sources.id, connectors.sourceId)).where(connectorsWhere()).prepare("count_connectors"),
  );

export async function listConnectors(db: Database, ownerId: string, query: ListQuery): Promise<Page<ConnectorRecord>> {
  const { rows, total } = await pageOf(connectorsPage(db), connectorsTotal(db), ownerId, query);
  return { total, rows: rows.map((row) => connectorRecord(row)) };
}

/** A transform's newest run's status, or never_run. */
const transformLastStatus = sql<string>`COALESCE((SELECT r.status FROM transform_runs r WHERE r.transform_id = "transforms"."id" ORDER BY r.created_at DESC, r.id DESC LIMIT 1), 'never_run')`;
const transformLastRunAt = sql`(SELECT max(r.created_at) FROM transform_runs r WHERE r.transform_id = "transforms"."id")`;
const transformsWhere = () =>
  and(inWorkspace(transforms, owner), nameMatches("transforms"), equalsUnlessNull(status, transformLastStatus), equalsUnlessNull(type, sql`"transforms"."transform_type"`));
const transformsPage = (db: Database) =>
  prepared(db, "list_transforms", (d) =>
    d
      .select(transformSelection)
      .from(transforms)
      .leftJoin(connectors, eq(connectors.id, transforms.connectorId))
      .where(transformsWhere())
      .orderBy(...orderBy("transforms", transformLastRunAt))
      .limit(limit)
      .offset(offset)
      .prepare("list_transforms"),
  );
const transformsTotal = (db: Database) =>
  prepared(db, "count_transforms", (d) => d.select({ total: count() }).from(transforms).where(transformsWhere()).prepare("count_transforms"));

export async function listTransforms(db: Database, ownerId: string, query: ListQuery): Promise<Page<TransformRecord>> {
  const { rows, total } = await pageOf(transformsPage(db), transformsTotal(db), ownerId, query);
  return { total, rows: rows.map((row) => transformRecord(row)) };
}
