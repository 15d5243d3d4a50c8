import type pg from "pg";
import { POSTGRES_SCHEMA_PATTERN } from "../../../../contract/integrations/postgres.js";
import { checkName } from "../writer.js";
import type { DestinationWriter } from "../writer.js";
import type { ResultsLocation, Warehouse } from "../warehouse.js";
import { lineOf, meetingOf, num, plainRow } from "../kit/warehouse-rows.js";
import { closePostgres, connectPostgres, qualified, type PostgresTarget } from "./connect.js";
import { PostgresWriter } from "./writer.js";

/**
 * Transforms on a PostgreSQL destination: they read the `meetings` and `transcript_utterances` tables a sync wrote
 * (by source_id and platform, every value bound), and write result tables to the destination's schema or to the
 * results schema a transform names.
 */
export class PostgresWarehouse implements Warehouse {
  private client?: Promise<pg.Client>;
  private target?: Promise<PostgresTarget>;

  /** `target` is asked for once, on first use (it opens the stored credential). */
  constructor(private readonly targetOf: () => Promise<PostgresTarget>) {}

  private async resolved(): Promise<PostgresTarget> {
    this.target ??= this.targetOf();
    this.target.catch(() => (this.target = undefined));
    return this.target;
  }

  private async db(): Promise<pg.Client> {
    if (!this.client) {
      this.client = this.resolved().then((target) => connectPostgres(target));
      this.client.catch(() => (this.client = undefined));
    }
    return this.client;
  }

  private async query(sql: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
    return (await (await this.db()).query(sql, values)).rows as Record<string, unknown>[];
  }

  private async schemaOf(location?: ResultsLocation): Promise<string> {
    const schema = location?.schema || (await this.resolved()).schema;
    if (!POSTGRES_SCHEMA_PATTERN.test(schema)) throw new Error("The results schema may contain only letters, digits, _ and $, and must start with a letter or _");
    return schema;
  }

  private async table(name: string, location?: ResultsLocation): Promise<string> {
    return qualified(await this.schemaOf(location), checkName("table", name));
  }

  private async exists(table: string): Promise<boolean> {
    const [row] = await this.query("SELECT to_regclass($1) IS NOT NULL AS found", [table]);
    return row?.found === true;
  }

  async countMeetings(sourceId: string, platforms: string[]): Promise<number> {
    const meetings = await this.table("meetings");
    if (!(await this.exists(meetings))) return 0;
    const [row] = await this.query(`SELECT count(*)::int AS n FROM ${meetings} WHERE source_id = $1 AND platform = ANY($2::text[])`, [sourceId, platforms]);
    return num(row?.n);
  }

  async readMeetings(sourceId: string, platforms: string[]) {
    const meetings = await this.table("meetings");
    if (!(await this.exists(meetings))) return [];
    const rows = await this.query(
      `SELECT meeting_id, title, account, (extract(epoch FROM started_at) * 1000)::float8 AS started_ms FROM ${meetings}
       WHERE source_id = $1 AND platform = ANY($2::text[]) ORDER BY started_at, meeting_id`,
      [sourceId, platforms],
    );
    return rows.map(meetingOf);
  }

  async readLines(sourceId: string, platforms: string[]) {
    const [meetings, utterances] = [await this.table("meetings"), await this.table("transcript_utterances")];
    if (!(await this.exists(meetings)) || !(await this.exists(utterances))) return [];
    const rows = await this.query(
      `SELECT u.meeting_id, u.utterance_id, u.speaker_id, u.speaker_name, u.affiliation, (extract(epoch FROM u.spoken_at) * 1000)::float8 AS spoken_ms,
              u.start_ms, u.end_ms, u.text
       FROM ${utterances} u JOIN ${meetings} m ON m.meeting_id = u.meeting_id
       WHERE m.source_id = $1 AND m.platform = ANY($2::text[]) AND u.source_id = $1
       ORDER BY u.meeting_id, u.start_ms, u.utterance_id`,
      [sourceId, platforms],
    );
    return rows.map(lineOf);
  }

  async readTable(table: string, limit: number, runId: string, location?: ResultsLocation) {
    const name = await this.table(table, location);
    if (!(await this.exists(name))) return null;
    const columns = await this.query("SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum", [name]);
    const [count] = await this.query(`SELECT count(*)::int AS n FROM ${name} WHERE run_id = $1`, [runId]);
    const rows = await this.query(`SELECT * FROM ${name} WHERE run_id = $1 LIMIT ${Math.max(0, Math.floor(limit))}`, [runId]);
    return { columns: columns.map((c) => String(c.name)), rows: rows.map(plainRow), total: num(count?.n) };
  }

  async resultsWriter(location?: ResultsLocation): Promise<{ writer: DestinationWriter; done(): Promise<void> }> {
    const writer = new PostgresWriter({ ...(await this.resolved()), schema: await this.schemaOf(location) });
    return { writer, done: () => writer.close() };
  }

  async prune(table: string, runId: string, location?: ResultsLocation): Promise<void> {
    const name = await this.table(table, location);
    if (await this.exists(name)) await this.query(`DELETE FROM ${name} WHERE run_id IS DISTINCT FROM $1`, [runId]);
  }

  async close(): Promise<void> {
    const client = await this.client?.catch(() => undefined);
    this.client = undefined;
    if (client) await closePostgres(client);
  }
}
