import path from "node:path";
import type pg from "pg";
import { dataDir, insertConnector, insertDestination, insertSource, insertTransform, seedLocalDestination, seedSource, userIdByEmail, withDb } from "../e2e/db";

/**
 * Records the browser specs (tests/e2e/) and the HTTP specs (tests/http/) both start from, written straight into the
 * run's Postgres for a user looked up by e-mail.
 */

/** A user's own connector (active, daily, between a source and a destination) and a transform of it. */
export async function seedScheduled(email: string, name: string): Promise<{ connectorId: string; transformId: string }> {
  return withDb(async (db) => {
    const ownerId = await userIdByEmail(db, email);
    const sourceId = await insertSource(db, ownerId, { name: `${name} source` });
    const destinationId = await insertDestination(db, ownerId, { name: `${name} destination` });
    const connectorId = await insertConnector(db, ownerId, { name, sourceId, destinationIds: [destinationId], paused: false });
    const transformId = await insertTransform(db, ownerId, { name: `${name} topics`, type: "topic_modeling", connectorId });
    return { connectorId, transformId };
  });
}

/** A finished run written straight into the history (no worker runs it). */
export async function seedRun(
  client: pg.Client,
  table: "sync_runs" | "transform_runs",
  key: string,
  ownerId: string,
  status: "succeeded" | "failed",
  minutesAgo: number,
  error: string | null = null,
): Promise<string> {
  const column = table === "sync_runs" ? "connector_id" : "transform_id";
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO ${table} (${column}, owner_id, status, trigger, attempts, records, error, created_at, started_at, finished_at)
     VALUES ($1, $2, $3, 'schedule', 1, 0, $4, now() - make_interval(mins => $5), now() - make_interval(mins => $5), now() - make_interval(mins => $5) + interval '2 seconds')
     RETURNING id`,
    [key, ownerId, status, error, minutesAgo],
  );
  return rows[0]!.id;
}

/** A datagen source of `meetingsPerDay` → a local destination, through a paused connector of a 1-day lookback. */
export async function seedPausedConnector(email: string, meetingsPerDay: number): Promise<{ ownerId: string; connectorId: string; folder: string }> {
  return withDb(async (client) => {
    const ownerId = await userIdByEmail(client, email);
    const sourceId = await seedSource(client, ownerId, "Generated calls", { company: "Acme Rockets", format: "zoom", meetings_per_day: meetingsPerDay });
    const destinationId = await seedLocalDestination(client, ownerId, "Laptop folder");
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO connectors (owner_id, name, description, source_id, platform, frequency, lookback_days, paused) VALUES ($1, 'Calls to disk', '', $2, 'zoom', 'daily', 1, true) RETURNING id`,
      [ownerId, sourceId],
    );
    const connectorId = rows[0]!.id;
    await client.query("INSERT INTO connector_destinations (connector_id, destination_id) VALUES ($1, $2)", [connectorId, destinationId]);
    return { ownerId, connectorId, folder: path.join(await dataDir(client), "destinations", ownerId, destinationId) };
  });
}

/**
 * A connector a transform can read: a data generator source of `format` (zoom: .vtt and .txt files; gong: .txt and
 * .json) named "<name> meetings", a local folder "<name> folder", and an active daily connector `name` between them.
 */
export async function seedTranscriptConnector(client: pg.Client, ownerId: string, name: string, format: "zoom" | "gong" = "zoom"): Promise<string> {
  const sourceId = await seedSource(client, ownerId, `${name} meetings`, { company: "Acme Rockets", format });
  const destinationId = await seedLocalDestination(client, ownerId, `${name} folder`);
  const connector = await client.query<{ id: string }>(
    "INSERT INTO connectors (owner_id, name, description, source_id, platform, frequency, lookback_days) VALUES ($1, $2, '', $3, $4, 'daily', 7) RETURNING id",
    [ownerId, name, sourceId, format],
  );
  await client.query("INSERT INTO connector_destinations (connector_id, destination_id) VALUES ($1, $2)", [connector.rows[0]!.id, destinationId]);
  return connector.rows[0]!.id;
}

/** Two sources ("Alpha calls", "Beta calls") and a warehouse for the connector form's specs. */
export async function seedConnectorChoices(email: string): Promise<{ ownerId: string; first: string; second: string; warehouse: string }> {
  return withDb(async (client) => {
    const ownerId = await userIdByEmail(client, email);
    const first = await insertSource(client, ownerId, { name: "Alpha calls" });
    const second = await insertSource(client, ownerId, { name: "Beta calls" });
    const warehouse = await insertDestination(client, ownerId, { name: "Team warehouse" });
    return { ownerId, first, second, warehouse };
  });
}
