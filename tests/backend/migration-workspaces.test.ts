import { rmSync } from "node:fs";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { afterAll, beforeAll, expect, it } from "vitest";
import { applyMigrations } from "../../backend/db/migrate.js";
import { emptyDatabase } from "../support/backend.js";
import { migrationsUpTo } from "../support/migrations.js";

/**
 * Migration 0015 (issue 51 item 2): on a database of the schema before it (0014) holding the records of three users,
 * every user gets a personal workspace with their own id, of which they are the member, and every record ends in its
 * owner's personal workspace: the counts, the ids and each record's owner are the same before and after.
 */
const OWNED = ["credentials", "sources", "destinations", "connectors", "transforms", "sync_runs", "transform_runs", "alert_settings", "alert_deliveries", "api_keys"];
let client: pg.Client;
let databaseUrl: string;
let before: string;

async function seedUser(who: string, givenName: string | null): Promise<string> {
  const q = async (text: string, values: unknown[]) => (await client.query<{ id: string }>(text, values)).rows[0]?.id;
  const user = (await q("INSERT INTO users (issuer, subject, email, name, given_name) VALUES ('test', $1, $1 || '@example.com', $2, $3) RETURNING id", [who, `${who} Example`, givenName]))!;
  const credential = await q("INSERT INTO credentials (owner_id, integration_name) VALUES ($1, 'datagen') RETURNING id", [user]);
  const source = await q("INSERT INTO sources (owner_id, name, integration_name, integration_label, credential_id) VALUES ($1, $2, 'datagen', 'Data Generator', $3) RETURNING id", [user, `${who} source`, credential]);
  const destination = await q("INSERT INTO destinations (owner_id, name, integration_name, integration_label, category) VALUES ($1, $2, 'local', 'Local folder', 'STORAGE') RETURNING id", [user, `${who} disk`]);
  const connector = await q("INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days) VALUES ($1, $2, $3, 'daily', 7) RETURNING id", [user, `${who} connector`, source]);
  await client.query("INSERT INTO connector_destinations (connector_id, destination_id) VALUES ($1, $2)", [connector, destination]);
  const transform = await q("INSERT INTO transforms (owner_id, name, transform_type, connector_id) VALUES ($1, $2, 'topic_modeling', $3) RETURNING id", [user, `${who} transform`, connector]);
  await client.query("INSERT INTO sync_runs (connector_id, owner_id) VALUES ($1, $2), ($1, $2)", [connector, user]);
  await client.query("INSERT INTO transform_runs (transform_id, owner_id) VALUES ($1, $2)", [transform, user]);
  await client.query("INSERT INTO alert_settings (owner_id, email, signing_secret) VALUES ($1, $2, 'sealed')", [user, `${who}@example.com`]);
  await client.query("INSERT INTO alert_deliveries (owner_id, event, channel, target, subject) VALUES ($1, 'sync.failed', 'email', $2, 'A sync failed')", [user, `${who}@example.com`]);
  await client.query("INSERT INTO api_keys (owner_id, name, scope, prefix, hash) VALUES ($1, $2, 'read', 'trb_x', $3)", [user, `${who} key`, `hash-${who}`]);
  return user;
}

/** Every owned record, as table/id → owner, in one text to compare. */
async function owners(): Promise<string> {
  const lines: string[] = [];
  for (const table of OWNED) {
    const key = table === "alert_settings" ? "owner_id" : "id";
    const { rows } = await client.query<{ id: string; owner: string }>(`SELECT ${key}::text AS id, owner_id::text AS owner FROM ${table} ORDER BY 1`);
    lines.push(`${table}: ${rows.length}`, ...rows.map((r) => `  ${r.id} → ${r.owner}`));
  }
  return lines.join("\n");
}

beforeAll(async () => {
  databaseUrl = await emptyDatabase();
  client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const folder = migrationsUpTo(14);
  await migrate(drizzle(client), { migrationsFolder: folder });
  rmSync(folder, { recursive: true, force: true });
  await seedUser("ada", "Ada");
  await seedUser("ben", null);
  await seedUser("cy", "");
  before = await owners();
  await applyMigrations(databaseUrl);
}, 60_000);
afterAll(() => client?.end());

it("keeps every record, its id and its owner, and each owner is now a workspace: the user's personal one", async () => {
  expect(await owners()).toBe(before);
  expect(before).toContain("sources: 3");
  expect(before).toContain("sync_runs: 6");
  const { rows } = await client.query<{ user_id: string; workspace: string; name: string; members: string }>(
    `SELECT u.id AS user_id, w.id AS workspace, w.name, (SELECT string_agg(m.user_id::text, ',') FROM workspace_members m WHERE m.workspace_id = w.id) AS members
       FROM users u JOIN workspaces w ON w.id = u.id ORDER BY u.email`,
  );
  expect(rows.map((r) => r.name)).toEqual(["Ada's workspace", "ben Example's workspace", "cy Example's workspace"]);
  for (const row of rows) expect(row.members).toBe(row.user_id);
  expect((await client.query("SELECT count(*)::int AS n FROM workspaces")).rows[0].n).toBe(3);
  // Every owner is a workspace now (the foreign keys point there), and every key was made by its owner.
  for (const table of OWNED) {
    const { rows: orphans } = await client.query(`SELECT 1 FROM ${table} t LEFT JOIN workspaces w ON w.id = t.owner_id WHERE w.id IS NULL`);
    expect(orphans, table).toEqual([]);
  }
  expect((await client.query("SELECT count(*)::int AS n FROM api_keys WHERE created_by <> owner_id")).rows[0].n).toBe(0);
});

it("gives a user made after it a personal workspace and its membership, however the row is made", async () => {
  const { rows } = await client.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', 'dee', 'dee@example.com', 'Dee') RETURNING id");
  const id = rows[0]!.id;
  expect((await client.query("SELECT name FROM workspaces WHERE id = $1", [id])).rows).toEqual([{ name: "Dee's workspace" }]);
  expect((await client.query("SELECT user_id::text FROM workspace_members WHERE workspace_id = $1", [id])).rows).toEqual([{ user_id: id }]);
  await expect(client.query("INSERT INTO sources (owner_id, name, integration_name, integration_label) VALUES (gen_random_uuid(), 'Nobody', 'datagen', 'Data Generator')")).rejects.toThrow(/foreign key/);
});
