import type snowflake from "snowflake-sdk";
import { SNOWFLAKE_IDENTIFIER_PATTERN } from "../../../../contract/integrations/snowflake.js";
import { checkName } from "../writer.js";
import type { DestinationCall, PluginDestination } from "../plugin.js";
import { offsetOf, orderColumns, type ReadPage, type ResultsLocation, type ScanQuery, type Warehouse } from "../warehouse.js";
import { foundOnce, lower, num, plainRow, platformList, rebatch, uuid } from "../kit/warehouse-rows.js";
import { closeSnowflake, connectSnowflake, runSql, streamSql } from "./client.js";
import { snowflakeTarget } from "./target.js";
import { SnowflakeWriter } from "./writer.js";

/** Transforms on Snowflake (either variant): the synced tables read with snowflake-sdk (scans streamed), results merged by the writer. */
export class SnowflakeWarehouse implements Warehouse {
  private connection?: Promise<snowflake.Connection>;
  constructor(
    private readonly destination: PluginDestination,
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
  /** One connection, opened on first use (a scan and the other reads may ask for it at once); a failed sign-in is forgotten. */
  private db(): Promise<snowflake.Connection> {
    if (!this.connection) {
      const connecting = snowflakeTarget(this.destination, this.call).then((target) => connectSnowflake(target));
      this.connection = connecting;
      connecting.catch(() => {
        if (this.connection === connecting) this.connection = undefined;
      });
    }
    return this.connection;
  }
  private async run(sql: string, binds: snowflake.Binds = []) {
    return (await runSql(await this.db(), sql, binds)).map(lower);
  }
  private readonly exists = foundOnce(async (name: string, schema?: string) => {
    const rows = await this.run(`SELECT COUNT(*) AS N FROM ${this.ident(this.destination.config.database, "database")}.INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?`, [
      this.ident(schema || this.destination.config.schema, "schema"),
      name.toUpperCase(),
    ]);
    return num(rows[0]?.n) > 0;
  });
  /** The source's rows, of `platforms` when given; every value bound. */
  private filter(sourceId: string, platforms?: string[]) {
    if (platforms === undefined) return { where: "SOURCE_ID = ?", binds: [uuid(sourceId)] };
    const list = platformList(platforms);
    return { where: `SOURCE_ID = ? AND ${list.length ? `PLATFORM IN (${list.map(() => "?").join(", ")})` : "FALSE"}`, binds: [uuid(sourceId), ...list] };
  }
  async countRows(table: string, sourceId: string, platforms?: string[]) {
    if (!(await this.exists(table))) return 0;
    const { where, binds } = this.filter(sourceId, platforms);
    const rows = await this.run(`SELECT COUNT(*) AS N FROM ${this.table(table)} WHERE ${where}`, binds);
    return num(rows[0]?.n);
  }
  /** One streamed statement, read chunk by chunk as the batches are asked for (./client.ts streamSql); strings order as bytes. */
  async *scan(query: ScanQuery): AsyncGenerator<Record<string, unknown>[]> {
    if (!(await this.exists(query.table))) return;
    const column = (name: string) => checkName("column", name).toUpperCase();
    const columns = query.columns.map((c) => (c.type === "timestamp" ? `DATE_PART(EPOCH_MILLISECOND, ${column(c.name)}) AS ${column(c.name)}` : column(c.name)));
    const { where, binds } = this.filter(query.sourceId, query.platforms);
    const values = query.in?.values ?? [];
    const within = query.in ? ` AND ${values.length ? `${column(query.in.column)} IN (${values.map(() => "?").join(", ")})` : "FALSE"}` : "";
    const sql = `SELECT${query.distinct ? " DISTINCT" : ""} ${columns.join(", ")} FROM ${this.table(query.table)} WHERE ${where}${within} ORDER BY ${query.orderBy.map(column).join(", ")}`;
    const size = Math.max(1, Math.floor(query.batchRows));
    yield* rebatch(streamSql(await this.db(), sql, [...binds, ...values], size), size, query.columns);
  }
  /** A page of one run's rows, ordered by the key columns given (strings compared as their bytes: no collation). */
  async readTable(table: string, limit: number, runId: string, location?: ResultsLocation, page?: ReadPage) {
    if (!(await this.exists(table, location?.schema))) return null;
    const found = await this.run(
      `SELECT COLUMN_NAME FROM ${this.ident(this.destination.config.database, "database")}.INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
      [this.ident(location?.schema || this.destination.config.schema, "schema"), table.toUpperCase()],
    );
    const columns = found.map((c) => String(c.column_name).toLowerCase());
    const order = orderColumns(page, (k) => columns.includes(k.toLowerCase()), (k) => checkName("column", k).toUpperCase());
    const [count] = await this.run(`SELECT COUNT(*) AS N FROM ${this.table(table, location?.schema)} WHERE RUN_ID = ?`, [uuid(runId)]);
    const rows = await this.run(
      `SELECT * FROM ${this.table(table, location?.schema)} WHERE RUN_ID = ?${order.length ? ` ORDER BY ${order.join(", ")}` : ""} LIMIT ${Math.max(0, Math.floor(limit))} OFFSET ${offsetOf(page)}`,
      [uuid(runId)],
    );
    return { columns, rows: rows.map(plainRow), total: num(count?.n) };
  }
  async resultsWriter(location?: ResultsLocation) {
    const config = { ...this.destination.config, ...(location?.schema ? { schema: location.schema } : {}) };
    const destination = { ...this.destination, config };
    const writer = new SnowflakeWriter(await snowflakeTarget(destination, this.call), destination.integrationName as "snowflake" | "snowflake_stage");
    return { writer, done: () => writer.close() };
  }
  async prune(table: string, runId: string, location?: ResultsLocation) {
    if (await this.exists(table, location?.schema)) await this.run(`DELETE FROM ${this.table(table, location?.schema)} WHERE RUN_ID <> ?`, [uuid(runId)]);
  }
  async close() {
    const connection = await this.connection?.catch(() => undefined);
    this.connection = undefined;
    if (connection) await closeSnowflake(connection);
  }
}
