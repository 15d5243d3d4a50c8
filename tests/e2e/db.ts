import { randomBytes } from "node:crypto";
import pg from "pg";
import { databaseUrl, IDP_ORIGIN } from "./env";

/**
 * Direct access to the e2e run's embedded Postgres, for seeding records that
 * no screen can create yet (the create pages come in later issues) and for
 * states a browser cannot reach by itself (an expired session).
 */
export async function withDb<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function userIdByEmail(client: pg.Client, email: string): Promise<string> {
  const { rows } = await client.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [email.toLowerCase()]);
  if (rows.length !== 1) throw new Error(`Expected exactly one user with e-mail ${email}, found ${rows.length}.`);
  return rows[0]!.id;
}

/** A user who never signed in through the browser (someone else's account). */
export async function insertUser(client: pg.Client, name: string, email: string): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    "INSERT INTO users (issuer, subject, email, name, given_name) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    [IDP_ORIGIN, randomBytes(10).toString("hex"), email.toLowerCase(), name, name.split(" ")[0]],
  );
  return rows[0]!.id;
}

export async function insertSource(client: pg.Client, ownerId: string, fields: { name: string; description?: string; createdAt?: string }): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO sources (owner_id, name, description, integration_name, integration_label, created_at)
     VALUES ($1, $2, $3, 'zoom', 'Zoom', COALESCE($4::timestamptz, now())) RETURNING id`,
    [ownerId, fields.name, fields.description ?? "", fields.createdAt ?? null],
  );
  return rows[0]!.id;
}

export async function insertDestination(client: pg.Client, ownerId: string, fields: { name: string; description?: string; createdAt?: string }): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO destinations (owner_id, name, description, integration_name, integration_label, category, created_at)
     VALUES ($1, $2, $3, 'bigquery', 'BigQuery', 'WAREHOUSE', COALESCE($4::timestamptz, now())) RETURNING id`,
    [ownerId, fields.name, fields.description ?? "", fields.createdAt ?? null],
  );
  return rows[0]!.id;
}

export async function insertConnector(
  client: pg.Client,
  ownerId: string,
  fields: { name: string; description?: string; sourceId: string; destinationIds: string[]; createdAt?: string; lastSyncedAt?: string | null; paused?: boolean },
): Promise<string> {
  // Paused unless asked otherwise: a seeded connector's schedule would otherwise come due (its created_at is in the
  // past) and the running product's scheduler would queue runs that change what the list shows.
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO connectors (owner_id, name, description, source_id, frequency, lookback_days, created_at, last_synced_at, paused)
     VALUES ($1, $2, $3, $4, 'daily', 7, COALESCE($5::timestamptz, now()), $6, $7) RETURNING id`,
    [ownerId, fields.name, fields.description ?? "", fields.sourceId, fields.createdAt ?? null, fields.lastSyncedAt ?? null, fields.paused ?? true],
  );
  const id = rows[0]!.id;
  for (const destinationId of fields.destinationIds) {
    await client.query("INSERT INTO connector_destinations (connector_id, destination_id) VALUES ($1, $2)", [id, destinationId]);
  }
  return id;
}

export async function insertTransform(
  client: pg.Client,
  ownerId: string,
  fields: { name: string; description?: string; type: string; connectorId: string; createdAt?: string },
): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO transforms (owner_id, name, description, transform_type, connector_id, created_at)
     VALUES ($1, $2, $3, $4, $5, COALESCE($6::timestamptz, now())) RETURNING id`,
    [ownerId, fields.name, fields.description ?? "", fields.type, fields.connectorId, fields.createdAt ?? null],
  );
  return rows[0]!.id;
}
