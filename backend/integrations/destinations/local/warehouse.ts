import { checkName, type DestinationWriter } from "../writer.js";
import { offsetOf, orderColumns, type ReadPage, type ResultsLocation, type ScanQuery, type Warehouse } from "../warehouse.js";
import { foundOnce, num, platformList, rebatch, uuid } from "../kit/warehouse-rows.js";
import { localFailure } from "./errors.js";
import type { LocalWriter } from "./index.js";

/**
 * Transforms on the local destination: its DuckDB file, read through LocalWriter.query and streamed on a connection
 * of the scan's own (LocalWriter.readConnection; DuckDB compares text as bytes), results written by the same writer.
 */
export class LocalWarehouse implements Warehouse {
  constructor(private readonly writer: LocalWriter) {}

  private readonly has = foundOnce(async (table: string) => {
    const rows = await this.writer.query(`SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = '${checkName("table", table)}'`);
    return num(rows[0]?.n) > 0;
  });
  private where(sourceId: string, platforms?: string[]) {
    if (platforms === undefined) return `source_id = '${uuid(sourceId)}'`;
    const list = platformList(platforms);
    return `source_id = '${uuid(sourceId)}' AND ${list.length ? `platform IN (${list.map((p) => `'${p}'`).join(", ")})` : "FALSE"}`;
  }
  async countRows(table: string, sourceId: string, platforms?: string[]) {
    if (!(await this.has(table))) return 0;
    const rows = await this.writer.query(`SELECT count(*)::INTEGER AS n FROM "${checkName("table", table)}" WHERE ${this.where(sourceId, platforms)}`);
    return num(rows[0]?.n);
  }
  async *scan(query: ScanQuery) {
    if (!(await this.has(query.table))) return;
    const column = (name: string) => `"${checkName("column", name)}"`;
    const columns = query.columns.map((c) => (c.type === "timestamp" ? `CAST(epoch_ms(${column(c.name)}) AS DOUBLE) AS ${column(c.name)}` : column(c.name)));
    // The values are the warehouse's own (ids it gave); quoted as DuckDB's string literals ('' for ').
    const within = query.in ? ` AND ${column(query.in.column)} IN (${query.in.values.length ? query.in.values.map((v) => `'${v.replaceAll("'", "''")}'`).join(", ") : "NULL"})` : "";
    const select = `SELECT${query.distinct ? " DISTINCT" : ""} ${columns.join(", ")}`;
    const sql = `${select} FROM "${checkName("table", query.table)}" WHERE ${this.where(query.sourceId, query.platforms)}${within} ORDER BY ${query.orderBy.map(column).join(", ")}`;
    yield* rebatch(this.stream(sql), query.batchRows, query.columns);
  }
  /** A query's rows in DuckDB's chunks, on a connection of its own (results are written on the writer's meanwhile). */
  private async *stream(sql: string): AsyncGenerator<Record<string, unknown>[]> {
    const connection = await this.writer.readConnection();
    try {
      const result = await connection.stream(sql).catch((error: unknown) => {
        throw localFailure(error, this.writer.root);
      });
      for await (const rows of result.yieldRowObjectJson()) yield rows as Record<string, unknown>[];
    } finally {
      connection.closeSync();
    }
  }
  /** A page of one run's rows, ordered by the key columns given (DuckDB compares text as bytes). */
  async readTable(table: string, limit: number, runId: string, _location?: ResultsLocation, page?: ReadPage) {
    if (!(await this.has(table))) return null;
    const name = `"${checkName("table", table)}"`;
    const where = `WHERE run_id = '${uuid(runId)}'`;
    const [count] = await this.writer.query(`SELECT count(*)::INTEGER AS n FROM ${name} ${where}`);
    const found = await this.writer.query(`SELECT column_name FROM information_schema.columns WHERE table_name = '${checkName("table", table)}' ORDER BY ordinal_position`);
    const columns = found.map((c) => String(c.column_name));
    const order = orderColumns(page, (k) => columns.includes(k), (k) => `"${checkName("column", k)}"`);
    const rows = await this.writer.query(`SELECT * FROM ${name} ${where}${order.length ? ` ORDER BY ${order.join(", ")}` : ""} LIMIT ${Math.max(0, Math.floor(limit))} OFFSET ${offsetOf(page)}`);
    return { columns, rows, total: num(count?.n) };
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
