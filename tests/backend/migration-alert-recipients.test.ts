import { rmSync } from "node:fs";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { afterAll, beforeAll, expect, it } from "vitest";
import { applyMigrations } from "../../backend/db/migrate.js";
import { emptyDatabase } from "../support/backend.js";
import { migrationsUpTo } from "../support/migrations.js";

/**
 * Migration 0017 (issue 51 item 5): on a database of the schema before it (0016), every saved alert address becomes a
 * member's own for its workspace — its user's in a personal workspace, the earliest member's in a shared one — with its
 * confirmation and its pending link's token unchanged; the workspace keeps its webhook, secret and thresholds.
 */
let client: pg.Client;
let databaseUrl: string;
const confirmedAt = new Date("2026-03-04T05:06:07.000Z");
let ada: string;
let ben: string;
let cy: string;
let team: string;

async function seedUser(who: string): Promise<string> {
  const { rows } = await client.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', $1, $1 || '@example.com', $1) RETURNING id", [who]);
  return rows[0]!.id;
}

beforeAll(async () => {
  databaseUrl = await emptyDatabase();
  client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const folder = migrationsUpTo(16);
  await migrate(drizzle(client), { migrationsFolder: folder });
  rmSync(folder, { recursive: true, force: true });
  ada = await seedUser("ada");
  ben = await seedUser("ben");
  cy = await seedUser("cy");
  // A confirmed address (Ada's personal workspace) and one waiting for its link (Ben's).
  await client.query(
    "INSERT INTO alert_settings (owner_id, email, email_confirmed_at, email_token_hash, webhook_url, signing_secret, warn_after, pause_after) VALUES ($1, 'ada-alerts@example.com', $2, NULL, 'https://example.com/hook', 'sealed-ada', 2, 5)",
    [ada, confirmedAt],
  );
  await client.query("INSERT INTO alert_settings (owner_id, email, email_token_hash, signing_secret) VALUES ($1, 'Ben@Example.com', 'pending-hash', 'sealed-ben')", [ben]);
  // Cy asked for a webhook only: no address to keep.
  await client.query("INSERT INTO alert_settings (owner_id, email, webhook_url, signing_secret) VALUES ($1, '', 'https://example.com/cy', 'sealed-cy')", [cy]);
  // A shared workspace: Ben joined first, then Ada; its address becomes Ben's.
  team = (await client.query<{ id: string }>("INSERT INTO workspaces (name) VALUES ('Data team') RETURNING id")).rows[0]!.id;
  await client.query("INSERT INTO workspace_members (workspace_id, user_id, created_at) VALUES ($1, $2, now() - interval '2 days'), ($1, $3, now() - interval '1 day')", [team, ben, ada]);
  await client.query("INSERT INTO alert_settings (owner_id, email, email_confirmed_at, signing_secret) VALUES ($1, 'team@example.com', $2, 'sealed-team')", [team, confirmedAt]);
  await applyMigrations(databaseUrl);
}, 60_000);
afterAll(() => client?.end());

it("moves every saved address, with its confirmation and its pending token, to its member's own, and drops the columns", async () => {
  const { rows } = await client.query(
    "SELECT workspace_id::text AS workspace, user_id::text AS member, email, email_confirmed_at, email_token_hash FROM alert_recipients ORDER BY lower(email)",
  );
  expect(rows).toEqual([
    { workspace: ada, member: ada, email: "ada-alerts@example.com", email_confirmed_at: confirmedAt, email_token_hash: null },
    { workspace: ben, member: ben, email: "Ben@Example.com", email_confirmed_at: null, email_token_hash: "pending-hash" },
    { workspace: team, member: ben, email: "team@example.com", email_confirmed_at: confirmedAt, email_token_hash: null },
  ]);
  const settings = await client.query("SELECT owner_id::text AS owner, webhook_url, signing_secret, warn_after, pause_after FROM alert_settings ORDER BY signing_secret");
  expect(settings.rows).toEqual([
    { owner: ada, webhook_url: "https://example.com/hook", signing_secret: "sealed-ada", warn_after: 2, pause_after: 5 },
    { owner: ben, webhook_url: "", signing_secret: "sealed-ben", warn_after: 3, pause_after: 10 },
    { owner: cy, webhook_url: "https://example.com/cy", signing_secret: "sealed-cy", warn_after: 3, pause_after: 10 },
    { owner: team, webhook_url: "", signing_secret: "sealed-team", warn_after: 3, pause_after: 10 },
  ]);
  const columns = await client.query("SELECT column_name FROM information_schema.columns WHERE table_name = 'alert_settings' AND column_name LIKE 'email%'");
  expect(columns.rows).toEqual([]);
});

it("a member removed from the workspace takes their address with them", async () => {
  await client.query("DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2", [team, ben]);
  const { rows } = await client.query("SELECT email FROM alert_recipients WHERE workspace_id = $1", [team]);
  expect(rows).toEqual([]);
});
