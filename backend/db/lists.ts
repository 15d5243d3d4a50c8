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

/**
 * Every list is one user's records, newest first, a page at a time. The
 * correlated sub-queries name the outer table explicitly: drizzle renders
 * columns unqualified, which inside a sub-query would bind to the inner table.
 */
export interface Page<T> {
  rows: T[];
  total: number;
}

const window = (page: PageQuery) => ({ limit: page.page_size, offset: (page.page - 1) * page.page_size });

export async function listSources(db: Database, ownerId: string, page: PageQuery): Promise<Page<Source>> {
  const connectorCount = sql<number>`(SELECT count(*)::int FROM connectors c WHERE c.source_id = "sources"."id")`;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ s: sources, connectorCount })
      .from(sources)
      .where(eq(sources.ownerId, ownerId))
      .orderBy(desc(sources.createdAt), desc(sources.id))
      .limit(window(page).limit)
      .offset(window(page).offset),
    db.select({ total: count() }).from(sources).where(eq(sources.ownerId, ownerId)),
  ]);
  return {
    total,
    rows: rows.map(({ s, connectorCount }) => toSource(s, connectorCount)),
  };
}

export async function listDestinations(db: Database, ownerId: string, page: PageQuery): Promise<Page<Destination>> {
  const connectorCount = sql<number>`(SELECT count(*)::int FROM connector_destinations cd WHERE cd.destination_id = "destinations"."id")`;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ d: destinations, connectorCount })
      .from(destinations)
      .where(eq(destinations.ownerId, ownerId))
      .orderBy(desc(destinations.createdAt), desc(destinations.id))
      .limit(window(page).limit)
      .offset(window(page).offset),
    db.select({ total: count() }).from(destinations).where(eq(destinations.ownerId, ownerId)),
  ]);
  return {
    total,
    rows: rows.map(({ d, connectorCount }) => toDestination(d, connectorCount)),
  };
}

export async function listConnectors(db: Database, ownerId: string, page: PageQuery): Promise<Page<Connector>> {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ c: connectors, sourceName: sources.name, linked: linkedDestinations, run: lastRun })
      .from(connectors)
      .leftJoin(sources, eq(sources.id, connectors.sourceId))
      .where(eq(connectors.ownerId, ownerId))
      .orderBy(desc(connectors.createdAt), desc(connectors.id))
      .limit(window(page).limit)
      .offset(window(page).offset),
    db.select({ total: count() }).from(connectors).where(eq(connectors.ownerId, ownerId)),
  ]);
  return { total, rows: rows.map(({ c, sourceName, linked, run }) => toConnector(c, sourceName, linked, run)) };
}

export async function listTransforms(db: Database, ownerId: string, page: PageQuery): Promise<Page<Transform>> {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ t: transforms, connectorName: connectors.name, run: lastTransformRun })
      .from(transforms)
      .leftJoin(connectors, eq(connectors.id, transforms.connectorId))
      .where(eq(transforms.ownerId, ownerId))
      .orderBy(desc(transforms.createdAt), desc(transforms.id))
      .limit(window(page).limit)
      .offset(window(page).offset),
    db.select({ total: count() }).from(transforms).where(eq(transforms.ownerId, ownerId)),
  ]);
  return { total, rows: rows.map(({ t, connectorName, run }) => toTransform(t, connectorName, run)) };
}
