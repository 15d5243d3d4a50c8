import type pg from "pg";
import { POSTGRES_SCHEMA_PATTERN } from "../../../../contract/integrations/postgres.js";
import { checkName } from "../writer.js";
import type { DestinationWriter } from "../writer.js";
import { offsetOf, orderColumns, type ReadPage, type ResultsLocation, type ScanQuery, type Warehouse } from "../warehouse.js";
import { foundOnce, num, plainRow, typedRow } from "../kit/warehouse-rows.js";
import { closePostgres, connectPostgres, ident, qualified, type PostgresTarget } from "./connect.js";
import { PostgresWriter } from "./writer.js";

/**
 * Transforms on a PostgreSQL destination: they read the tables a sync wrote (by source_id and platform, every value
 * bound, through a cursor), and write result tables to the destination's schema or to the
 * results schema a transform names.
 */
export class PostgresWarehouse implements Warehouse {
  private client?: Promise<pg.Client>;
  private target?: Promise<PostgresTarget>;
  /** Connections of finished scans, for the next (each scan runs its cursor on a connection of its own). */
  private readonly idle: pg.Client[] = [];
  private closed = false;

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

  private readonly exists = foundOnce(async (table: string) => {
    const [row] = await this.query("SELECT to_regclass($1) IS NOT NULL AS found", [table]);
    return row?.found === true;
  });

  async countRows(table: string, sourceId: string, platforms?: string[]): Promise<number> {
    const name = await this.table(table);
    if (!(await this.exists(name))) return 0;
    const byPlatform = platforms === undefined ? "" : " AND platform = ANY($2::text[])";
    const [row] = await this.query(`SELECT count(*)::int AS n FROM ${name} WHERE source_id = $1${byPlatform}`, platforms === undefined ? [sourceId] : [sourceId, platforms]);
    return num(row?.n);
  }

  /** A cursor on a connection of its own (reused by the next scan), fetched `batchRows` at a time; text ordered as bytes. */
  async *scan(query: ScanQuery): AsyncGenerator<Record<string, unknown>[]> {
    const table = await this.table(query.table);
    if (!(await this.exists(table))) return;
    const types = new Map(query.columns.map((c) => [c.name, c.type]));
    const bytes = (name: string) => (types.get(name) === "string" ? `${ident(name)} COLLATE "C"` : ident(name));
    // Text is ordered as bytes (COLLATE "C"); DISTINCT orders by what it selects, so there it is selected so.
    const columns = query.columns.map((c) => {
      if (c.type === "timestamp") return `(extract(epoch FROM ${ident(c.name)}) * 1000)::float8 AS ${ident(c.name)}`;
      return query.distinct && c.type === "string" ? `${bytes(c.name)} AS ${ident(c.name)}` : ident(c.name);
    });
    const order = query.orderBy.map((name) => (query.distinct ? ident(name) : bytes(name)));
    const params: unknown[] = [query.sourceId];
    const bind = (value: unknown) => `$${params.push(value)}`;
    const byPlatform = query.platforms === undefined ? "" : ` AND platform = ANY(${bind(query.platforms)}::text[])`;
    const within = query.in ? ` AND ${ident(query.in.column)} = ANY(${bind(query.in.values)}::text[])` : "";
    // A connection a finished scan gave back, else a new one: a transform scans once per batch of meetings.
    const client = this.idle.pop() ?? (await connectPostgres(await this.resolved()));
    let done = false;
    try {
      await client.query("BEGIN READ ONLY");
      await client.query(
        `DECLARE scan NO SCROLL CURSOR FOR SELECT${query.distinct ? " DISTINCT" : ""} ${columns.join(", ")} FROM ${table} WHERE source_id = $1${byPlatform}${within} ORDER BY ${order.join(", ")}`,
        params,
      );
      const size = Math.max(1, Math.floor(query.batchRows));
      for (;;) {
        const { rows } = await client.query(`FETCH ${size} FROM scan`);
        if (rows.length) yield rows.map((row: Record<string, unknown>) => typedRow(row, query.columns));
        if (rows.length < size) break;
      }
      await client.query("COMMIT");
      done = true;
    } finally {
      // A scan left midway (or failed) has its transaction open: its connection goes.
      if (done && !this.closed) this.idle.push(client);
      else await closePostgres(client);
    }
  }

  /** A page of one run's rows, ordered by the key columns given (text by its bytes, COLLATE "C", as scans order it). */
  async readTable(table: string, limit: number, runId: string, location?: ResultsLocation, page?: ReadPage) {
    const name = await this.table(table, location);
    if (!(await this.exists(name))) return null;
    const columns = await this.query(
      "SELECT attname AS name, attcollation <> 0 AS text FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
      [name],
    );
    const text = new Set(columns.filter((c) => c.text === true).map((c) => String(c.name)));
    const order = orderColumns(
      page,
      (k) => columns.some((c) => c.name === k),
      (k) => (text.has(k) ? `${ident(checkName("column", k))} COLLATE "C"` : ident(checkName("column", k))),
    );
    const [count] = await this.query(`SELECT count(*)::int AS n FROM ${name} WHERE run_id = $1`, [runId]);
    const rows = await this.query(
      `SELECT * FROM ${name} WHERE run_id = $1${order.length ? ` ORDER BY ${order.join(", ")}` : ""} LIMIT ${Math.max(0, Math.floor(limit))} OFFSET ${offsetOf(page)}`,
      [runId],
    );
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
    this.closed = true;
    const client = await this.client?.catch(() => undefined);
    this.client = undefined;
    await Promise.all([...(client ? [client] : []), ...this.idle.splice(0)].map((c) => closePostgres(c)));
  }
}
