import { randomBytes } from "node:crypto";
import path from "node:path";
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

/**
 * A transform of `connectorId`, no run queued. Without `templateId` it has no template, so a run of it fails; with one
 * (a template id such as "deal_risk") it runs that template's pipeline with the template's default inputs. Its file
 * types are the table's default (a transcript's: .vtt, .txt) unless given (an e-mail connector's: .txt, as the wizard offers).
 */
export async function insertTransform(
  client: pg.Client,
  ownerId: string,
  fields: { name: string; description?: string; type: string; connectorId: string; createdAt?: string; templateId?: string; fileTypes?: string[] },
): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO transforms (owner_id, name, description, transform_type, connector_id, created_at, template_id)
     VALUES ($1, $2, $3, $4, $5, COALESCE($6::timestamptz, now()), $7) RETURNING id`,
    [ownerId, fields.name, fields.description ?? "", fields.type, fields.connectorId, fields.createdAt ?? null, fields.templateId ?? null],
  );
  if (fields.fileTypes) await client.query("UPDATE transforms SET file_types = $2 WHERE id = $1", [rows[0]!.id, fields.fileTypes]);
  return rows[0]!.id;
}

/** One record of each kind for `ownerId`, named after `label`: a source, a destination, a connector between them and a transform on it. */
export async function seedRecords(ownerId: string, label: string): Promise<{ source: string; destination: string; connector: string; transform: string }> {
  return withDb(async (db) => {
    const source = await insertSource(db, ownerId, { name: `${label} source` });
    const destination = await insertDestination(db, ownerId, { name: `${label} destination` });
    const connector = await insertConnector(db, ownerId, { name: `${label} connector`, sourceId: source, destinationIds: [destination] });
    const transform = await insertTransform(db, ownerId, { name: `${label} transform`, type: "topic_modeling", connectorId: connector });
    return { source, destination, connector, transform };
  });
}

/** A data generator source (its metadata: company, format, and meetings_per_day for another volume). */
export async function seedSource(client: pg.Client, ownerId: string, name: string, metadata: Record<string, unknown> = { company: "Acme Rockets", format: "zoom" }) {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO sources (owner_id, name, integration_name, integration_label, status, metadata) VALUES ($1, $2, 'datagen', 'Data Generator', 'active', $3) RETURNING id`,
    [ownerId, name, JSON.stringify(metadata)],
  );
  return rows[0]!.id;
}

/** A local destination: files and a DuckDB warehouse under DATA_DIR/destinations/<owner>/<id>. */
export async function seedLocalDestination(client: pg.Client, ownerId: string, name: string) {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO destinations (owner_id, name, integration_name, integration_label, category, status, config)
     VALUES ($1, $2, 'local', 'Local folder', 'STORAGE', 'ACTIVE', '{}') RETURNING id`,
    [ownerId, name],
  );
  const id = rows[0]!.id;
  await client.query("UPDATE destinations SET config = jsonb_build_object('folder', $2::text) WHERE id = $1", [id, `destinations/${ownerId}/${id}`]);
  return id;
}

/** A data generator source, a local folder destination and a (paused) connector between them, of `ownerId`. */
export async function seedConnector(client: pg.Client, ownerId: string, name: string, meetingsPerDay?: number) {
  const metadata = { company: "Acme Rockets", format: "zoom", ...(meetingsPerDay ? { meetings_per_day: meetingsPerDay } : {}) };
  const sourceId = await seedSource(client, ownerId, `${name} meetings`, metadata);
  const destinationId = await seedLocalDestination(client, ownerId, `${name} folder`);
  const connectorId = await insertConnector(client, ownerId, { name, sourceId, destinationIds: [destinationId] });
  return { connectorId, destinationId, sourceId };
}

/**
 * A Gmail source of the whole Workspace of the fake Google (tests/fakes/google-admin.ts: its admin admin@acme.example,
 * the mailboxes of sam@, lee@ and admin@acme.example), authenticated the way its create page does it in the default
 * mode (a credential naming Tributary's service account, no secret), a local folder destination and a (paused)
 * connector between them, of `ownerId`. Its "Sync now" reads the fake's messages.
 */
export async function seedGmailConnector(client: pg.Client, ownerId: string, name: string) {
  const credential = await client.query<{ id: string }>(
    "INSERT INTO credentials (owner_id, integration_name, metadata) VALUES ($1, 'gmail', $2) RETURNING id",
    [ownerId, JSON.stringify({ mode: "service_account", service_account_email: "tributary-gmail@tributary-test.iam.gserviceaccount.com" })],
  );
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO sources (owner_id, name, integration_name, integration_label, credential_id, status, metadata) VALUES ($1, $2, 'gmail', 'Gmail', $3, 'active', $4) RETURNING id`,
    [ownerId, `${name} mail`, credential.rows[0]!.id, JSON.stringify({ gmail_auth_mode: "service_account", gmail_extraction_scope: "ORG", admin_email: "admin@acme.example" })],
  );
  const sourceId = rows[0]!.id;
  const destinationId = await seedLocalDestination(client, ownerId, `${name} folder`);
  const connectorId = await insertConnector(client, ownerId, { name, sourceId, destinationIds: [destinationId] });
  return { connectorId, destinationId, sourceId };
}

/** The run's DATA_DIR: the embedded Postgres keeps its data in DATA_DIR/pg. */
export async function dataDir(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ data_directory: string }>("SHOW data_directory");
  return path.dirname(rows[0]!.data_directory);
}

/** A database and a login role of a test's own on the run's embedded Postgres, standing in for a user's warehouse. */
export interface UserDatabase {
  database: string;
  role: string;
  password: string;
  /** Runs `sql` in the database as the cluster's owner. */
  query<T extends pg.QueryResultRow>(sql: string): Promise<T[]>;
  /** Rows of `table` ("schema.table") in the database, as its owner sees them; 0 while the table does not exist yet. */
  count(table: string): Promise<number>;
  /** Drops the database (closing any connection to it) and the role. */
  drop(): Promise<void>;
}

/**
 * A database and a login role granted as the PostgreSQL destination's instructions say (CONNECT, CREATE on the
 * database), named `<prefix>_<random>` and `<prefix>_<random>_loader`, for a PostgreSQL destination of a test's own.
 * Its password holds a quote and a backslash, which every place that quotes it must escape.
 */
export async function createUserDatabase(prefix: string): Promise<UserDatabase> {
  const suffix = randomBytes(4).toString("hex");
  const database = `${prefix}_${suffix}`;
  const role = `${database}_loader`;
  const password = `pa'ss\\${randomBytes(6).toString("hex")}`;
  await withDb(async (client) => {
    await client.query(`CREATE DATABASE ${database}`);
    await client.query(`CREATE ROLE ${role} LOGIN PASSWORD ${client.escapeLiteral(password)}`);
    await client.query(`GRANT CONNECT, CREATE ON DATABASE ${database} TO ${role}`);
  });
  const url = new URL(databaseUrl());
  url.pathname = `/${database}`;
  async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: url.href });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  }
  return {
    database,
    role,
    password,
    query,
    async count(table) {
      try {
        return (await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
      } catch (error) {
        // undefined_table, invalid_schema_name: the destination has not written its first batch yet.
        if (["42P01", "3F000"].includes((error as { code?: string }).code ?? "")) return 0;
        throw error;
      }
    },
    async drop() {
      await withDb(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await client.query(`DROP ROLE IF EXISTS ${role}`);
      });
    },
  };
}
