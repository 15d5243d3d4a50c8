import { count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "./client.js";
import { connectors, destinations, sources, transforms } from "./schema.js";
import type { PageQuery } from "../../contract/pagination.js";
import type { Source } from "../../contract/sources.js";
import type { Destination } from "../../contract/destinations.js";
import type { Connector } from "../../contract/connectors.js";
import type { Transform } from "../../contract/transforms.js";
import { lastRun, linkedDestinations, toConnector } from "./connectors.js";
import { toSource } from "./sources.js";
import { toDestination } from "./destinations.js";
import { lastTransformRun, toTransform } from "./transforms.js";
import { prepared } from "./prepared.js";

/**
 * Every list is one user's records, newest first, a page at a time. The
 * correlated sub-queries name the outer table explicitly: drizzle renders
 * columns unqualified, which inside a sub-query would bind to the inner table.
 */
export interface Page<T> {
  rows: T[];
  total: number;
}

/** The parameters every list statement takes. */
const params = (ownerId: string, page: PageQuery) => ({ owner: ownerId, limit: page.page_size, offset: (page.page - 1) * page.page_size });
const owner = sql.placeholder("owner");
const limit = sql.placeholder("limit");
const offset = sql.placeholder("offset");

/** One page and the total, from a list's two prepared statements (run side by side). */
async function pageOf<R>(
  rows: { execute(values: ReturnType<typeof params>): Promise<R[]> },
  total: { execute(values: ReturnType<typeof params>): Promise<{ total: number }[]> },
  ownerId: string,
  page: PageQuery,
): Promise<{ rows: R[]; total: number }> {
  const values = params(ownerId, page);
  const [found, [counted]] = await Promise.all([rows.execute(values), total.execute(values)]);
  return { rows: found, total: counted!.total };
}

/** The lists are what every page shows: prepared statements (parsed and planned once per connection, see prepared.ts). */
const sourcesPage = (db: Database) =>
  prepared(db, "list_sources", (d) =>
    d
      .select({ s: sources, connectorCount: sql<number>`(SELECT count(*)::int FROM connectors c WHERE c.source_id = "sources"."id")` })
      .from(sources)
      .where(eq(sources.ownerId, owner))
      .orderBy(desc(sources.createdAt), desc(sources.id))
      .limit(limit)
      .offset(offset)
      .prepare("list_sources"),
  );
const sourcesTotal = (db: Database) =>
  prepared(db, "count_sources", (d) => d.select({ total: count() }).from(sources).where(eq(sources.ownerId, owner)).prepare("count_sources"));

export async function listSources(db: Database, ownerId: string, page: PageQuery): Promise<Page<Source>> {
  const { rows, total } = await pageOf(sourcesPage(db), sourcesTotal(db), ownerId, page);
  return { total, rows: rows.map(({ s, connectorCount }) => toSource(s, connectorCount)) };
}

const destinationsPage = (db: Database) =>
  prepared(db, "list_destinations", (d) =>
    d
      .select({ d: destinations, connectorCount: sql<number>`(SELECT count(*)::int FROM connector_destinations cd WHERE cd.destination_id = "destinations"."id")` })
      .from(destinations)
      .where(eq(destinations.ownerId, owner))
      .orderBy(desc(destinations.createdAt), desc(destinations.id))
      .limit(limit)
      .offset(offset)
      .prepare("list_destinations"),
  );
const destinationsTotal = (db: Database) =>
  prepared(db, "count_destinations", (d) => d.select({ total: count() }).from(destinations).where(eq(destinations.ownerId, owner)).prepare("count_destinations"));

export async function listDestinations(db: Database, ownerId: string, page: PageQuery): Promise<Page<Destination>> {
  const { rows, total } = await pageOf(destinationsPage(db), destinationsTotal(db), ownerId, page);
  return { total, rows: rows.map(({ d, connectorCount }) => toDestination(d, connectorCount)) };
}

const connectorsPage = (db: Database) =>
  prepared(db, "list_connectors", (d) =>
    d
      .select({ c: connectors, sourceName: sources.name, linked: linkedDestinations, run: lastRun })
      .from(connectors)
      .leftJoin(sources, eq(sources.id, connectors.sourceId))
      .where(eq(connectors.ownerId, owner))
      .orderBy(desc(connectors.createdAt), desc(connectors.id))
      .limit(limit)
      .offset(offset)
      .prepare("list_connectors"),
  );
const connectorsTotal = (db: Database) =>
  prepared(db, "count_connectors", (d) => d.select({ total: count() }).from(connectors).where(eq(connectors.ownerId, owner)).prepare("count_connectors"));

export async function listConnectors(db: Database, ownerId: string, page: PageQuery): Promise<Page<Connector>> {
  const { rows, total } = await pageOf(connectorsPage(db), connectorsTotal(db), ownerId, page);
  return { total, rows: rows.map(({ c, sourceName, linked, run }) => toConnector(c, sourceName, linked, run)) };
}

const transformsPage = (db: Database) =>
  prepared(db, "list_transforms", (d) =>
    d
      .select({ t: transforms, connectorName: connectors.name, run: lastTransformRun })
      .from(transforms)
      .leftJoin(connectors, eq(connectors.id, transforms.connectorId))
      .where(eq(transforms.ownerId, owner))
      .orderBy(desc(transforms.createdAt), desc(transforms.id))
      .limit(limit)
      .offset(offset)
      .prepare("list_transforms"),
  );
const transformsTotal = (db: Database) =>
  prepared(db, "count_transforms", (d) => d.select({ total: count() }).from(transforms).where(eq(transforms.ownerId, owner)).prepare("count_transforms"));

export async function listTransforms(db: Database, ownerId: string, page: PageQuery): Promise<Page<Transform>> {
  const { rows, total } = await pageOf(transformsPage(db), transformsTotal(db), ownerId, page);
  return { total, rows: rows.map(({ t, connectorName, run }) => toTransform(t, connectorName, run)) };
}
