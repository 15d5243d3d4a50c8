import { checkName, type DestinationWriter } from "../writer.js";
import type { Warehouse } from "../warehouse.js";
import { lineOf, meetingOf, num, platformList, uuid } from "../kit/warehouse-rows.js";
import type { LocalWriter } from "./index.js";

/** Transforms on the local destination: its DuckDB file read through LocalWriter.query, results written by the same writer. */
export class LocalWarehouse implements Warehouse {
  constructor(private readonly writer: LocalWriter) {}

  private async has(table: string) {
    const rows = await this.writer.query(`SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = '${checkName("table", table)}'`);
    return num(rows[0]?.n) > 0;
  }
  private where(sourceId: string, platforms: string[], alias = "") {
    const list = platformList(platforms);
    return `${alias}source_id = '${uuid(sourceId)}' AND ${list.length ? `${alias}platform IN (${list.map((p) => `'${p}'`).join(", ")})` : "FALSE"}`;
  }
  async countMeetings(sourceId: string, platforms: string[]) {
    if (!(await this.has("meetings"))) return 0;
    const rows = await this.writer.query(`SELECT count(*)::INTEGER AS n FROM meetings WHERE ${this.where(sourceId, platforms)}`);
    return num(rows[0]?.n);
  }
  async readMeetings(sourceId: string, platforms: string[]) {
    if (!(await this.has("meetings"))) return [];
    const rows = await this.writer.query(
      `SELECT meeting_id, title, account, CAST(epoch_ms(started_at) AS DOUBLE) AS started_ms FROM meetings WHERE ${this.where(sourceId, platforms)} ORDER BY started_at, meeting_id`,
    );
    return rows.map(meetingOf);
  }
  async readLines(sourceId: string, platforms: string[]) {
    if (!(await this.has("meetings")) || !(await this.has("transcript_utterances"))) return [];
    const rows = await this.writer.query(
      `SELECT u.meeting_id, u.utterance_id, u.speaker_id, u.speaker_name, u.affiliation, CAST(epoch_ms(u.spoken_at) AS DOUBLE) AS spoken_ms, u.start_ms, u.end_ms, u.text
       FROM transcript_utterances u JOIN meetings m ON m.meeting_id = u.meeting_id
       WHERE ${this.where(sourceId, platforms, "m.")} AND u.source_id = '${uuid(sourceId)}'
       ORDER BY u.meeting_id, u.start_ms, u.utterance_id`,
    );
    return rows.map(lineOf);
  }
  async readTable(table: string, limit: number, runId: string) {
    if (!(await this.has(table))) return null;
    const name = `"${checkName("table", table)}"`;
    const where = `WHERE run_id = '${uuid(runId)}'`;
    const [count] = await this.writer.query(`SELECT count(*)::INTEGER AS n FROM ${name} ${where}`);
    const columns = await this.writer.query(`SELECT column_name FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`);
    const rows = await this.writer.query(`SELECT * FROM ${name} ${where} LIMIT ${Math.max(0, Math.floor(limit))}`);
    return { columns: columns.map((c) => String(c.column_name)), rows, total: num(count?.n) };
  }
  async resultsWriter() {
    return { writer: this.writer as DestinationWriter, done: async () => {} };
  }
  async prune(table: string, runId: string) {
    if (await this.has(table)) await this.writer.query(`DELETE FROM "${checkName("table", table)}" WHERE run_id IS DISTINCT FROM '${uuid(runId)}'`);
  }
  async close() {
    await this.writer.close();
  }
}
