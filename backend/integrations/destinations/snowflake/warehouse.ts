import type snowflake from "snowflake-sdk";
import type { Destination } from "../../../../contract/destinations.js";
import { SNOWFLAKE_IDENTIFIER_PATTERN } from "../../../../contract/integrations/snowflake.js";
import { checkName } from "../writer.js";
import type { DestinationCall } from "../plugin.js";
import type { ResultsLocation, Warehouse } from "../warehouse.js";
import { lineOf, lower, meetingOf, meetingsOnce, num, oncePer, plainRow, platformList, uuid } from "../kit/warehouse-rows.js";
import { closeSnowflake, connectSnowflake, runSql } from "./client.js";
import { snowflakeTarget } from "./target.js";
import { SnowflakeWriter } from "./writer.js";

/** Transforms on Snowflake (either variant): the synced tables read with snowflake-sdk, results merged by the writer. */
export class SnowflakeWarehouse implements Warehouse {
  private connection?: snowflake.Connection;
  constructor(
    private readonly destination: Destination,
    private readonly call: DestinationCall,
  ) {}
  private ident(value: unknown, what: string) {
    const text = String(value ?? "");
    if (!SNOWFLAKE_IDENTIFIER_PATTERN.test(text)) throw new Error(`The destination's ${what} is not a valid Snowflake identifier`);
    return text.toUpperCase();
  }
  private table(name: string, schema?: string) {
    return `${this.ident(this.destination.config.database, "database")}.${this.ident(schema || this.destination.config.schema, "schema")}.${checkName("table", name).toUpperCase()}`;
  }
  private async db() {
    this.connection ??= await connectSnowflake(await snowflakeTarget(this.destination, this.call));
    return this.connection;
  }
  private async run(sql: string, binds: snowflake.Binds = []) {
    return (await runSql(await this.db(), sql, binds)).map(lower);
  }
  private async exists(name: string, schema?: string) {
    const rows = await this.run(`SELECT COUNT(*) AS N FROM ${this.ident(this.destination.config.database, "database")}.INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?`, [
      this.ident(schema || this.destination.config.schema, "schema"),
      name.toUpperCase(),
    ]);
    return num(rows[0]?.n) > 0;
  }
  private platformsClause(platforms: string[]) {
    const list = platformList(platforms);
    return { sql: list.length ? `PLATFORM IN (${list.map(() => "?").join(", ")})` : "FALSE", binds: list };
  }
  async countMeetings(sourceId: string, platforms: string[]) {
    if (!(await this.exists("meetings"))) return 0;
    const p = this.platformsClause(platforms);
    const rows = await this.run(`SELECT COUNT(*) AS N FROM ${this.table("meetings")} WHERE SOURCE_ID = ? AND ${p.sql}`, [uuid(sourceId), ...p.binds]);
    return num(rows[0]?.n);
  }
  readonly readMeetings = meetingsOnce(async (sourceId, platforms) => {
    if (!(await this.exists("meetings"))) return [];
    const p = this.platformsClause(platforms);
    const rows = await this.run(
      `SELECT MEETING_ID, TITLE, ACCOUNT, DATE_PART(EPOCH_MILLISECOND, STARTED_AT) AS STARTED_MS FROM ${this.table("meetings")} WHERE SOURCE_ID = ? AND ${p.sql} ORDER BY STARTED_AT, MEETING_ID`,
      [uuid(sourceId), ...p.binds],
    );
    return oncePer(rows.map(meetingOf), (m) => m.meeting_id);
  });
  /** The lines of the source's utterances whose meeting is one of the platforms' (the meetings' filter applied here, not by a join). */
  async readLines(sourceId: string, platforms: string[]) {
    const meetings = new Set((await this.readMeetings(sourceId, platforms)).map((m) => m.meeting_id));
    if (meetings.size === 0 || !(await this.exists("transcript_utterances"))) return [];
    const rows = await this.run(
      `SELECT MEETING_ID, UTTERANCE_ID, SPEAKER_ID, SPEAKER_NAME, AFFILIATION, DATE_PART(EPOCH_MILLISECOND, SPOKEN_AT) AS SPOKEN_MS, START_MS, END_MS, TEXT
       FROM ${this.table("transcript_utterances")}
       WHERE SOURCE_ID = ?
       ORDER BY MEETING_ID, START_MS, UTTERANCE_ID`,
      [uuid(sourceId)],
    );
    return oncePer(rows.map(lineOf), (l) => l.utterance_id).filter((l) => meetings.has(l.meeting_id));
  }
  async readTable(table: string, limit: number, runId: string, location?: ResultsLocation) {
    if (!(await this.exists(table, location?.schema))) return null;
    const columns = await this.run(
      `SELECT COLUMN_NAME FROM ${this.ident(this.destination.config.database, "database")}.INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
      [this.ident(location?.schema || this.destination.config.schema, "schema"), table.toUpperCase()],
    );
    const [count] = await this.run(`SELECT COUNT(*) AS N FROM ${this.table(table, location?.schema)} WHERE RUN_ID = ?`, [uuid(runId)]);
    const rows = await this.run(`SELECT * FROM ${this.table(table, location?.schema)} WHERE RUN_ID = ? LIMIT ${Math.max(0, Math.floor(limit))}`, [uuid(runId)]);
    return { columns: columns.map((c) => String(c.column_name).toLowerCase()), rows: rows.map(plainRow), total: num(count?.n) };
  }
  async resultsWriter(location?: ResultsLocation) {
    const config = { ...this.destination.config, ...(location?.schema ? { schema: location.schema } : {}) };
    const destination = { ...this.destination, config };
    const writer = new SnowflakeWriter(await snowflakeTarget(destination, this.call), destination.integration_name as "snowflake" | "snowflake_stage");
    return { writer, done: () => writer.close() };
  }
  async prune(table: string, runId: string, location?: ResultsLocation) {
    if (await this.exists(table, location?.schema)) await this.run(`DELETE FROM ${this.table(table, location?.schema)} WHERE RUN_ID <> ?`, [uuid(runId)]);
  }
  async close() {
    if (this.connection) await closeSnowflake(this.connection);
    this.connection = undefined;
  }
}
