import pg from "pg";

/** pg-boss 10's schema version: pg-boss 11 rewrote its tables, and pg-boss 12 migrates only from 11's (25) on. */
export const PG_BOSS_10_SCHEMA_VERSION = 24;

/**
 * Makes way for pg-boss 12 in a database an earlier Tributary left on pg-boss 10 (schema version 24 or older): pg-boss 12
 * cannot migrate it (it refuses to start: "Cannot migrate pg-boss schema from version 24"), and pg-boss documents no
 * in-place path from 10. The old schema is dropped and pg-boss installs its own at start. Nothing is lost that matters:
 * the runs tables are the record of every run; a run still queued or running under an old job is found by the
 * schedulers' recovery (recoverLost: its job is gone) and queued again or failed, and the cron schedules are upserted
 * at every start. Runs under an advisory lock, so processes starting side by side drop it once. Answers whether it
 * dropped one.
 */
export async function dropPgBoss10Schema(databaseUrl: string, schema: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`tributary:pg-boss-upgrade:${schema}`]);
    const table = await client.query<{ found: string | null }>("SELECT to_regclass(format('%I.version', $1::text))::text AS found", [schema]);
    let dropped = false;
    if (table.rows[0]?.found) {
      const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${client.escapeIdentifier(schema)}.version`);
      const version = rows[0]?.version;
      if (version !== undefined && Number(version) <= PG_BOSS_10_SCHEMA_VERSION) {
        await client.query(`DROP SCHEMA ${client.escapeIdentifier(schema)} CASCADE`);
        dropped = true;
      }
    }
    await client.query("COMMIT");
    return dropped;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
