import type pg from "pg";
import pLimit from "p-limit";
import { checkObjectPath, checkUpsert, isoTime, latestPerKey, scalar, tableColumns, type ColumnKind, type DeclaredColumn, type DestinationObject, type DestinationWriter, type Row, type RowValue } from "../writer.js";
import { closePostgres, connectPostgres, ident, qualified, type PostgresTarget } from "./connect.js";

/** The table transcript and e-mail files go to, one row per path. */
export const OBJECTS_TABLE = "tributary_objects";

/** PostgreSQL cuts longer names to 63 bytes (NAMEDATALEN - 1): two long names could become one, so they are refused. */
const MAX_NAME_BYTES = 63;
function checkLength(kind: "table" | "column", name: string): void {
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new Error(`The ${kind} name ${JSON.stringify(name)} is longer than PostgreSQL's 63 characters`);
}

const PG_TYPES: Record<ColumnKind, string> = { string: "text", number: "double precision", boolean: "boolean", timestamp: "timestamp with time zone", json: "jsonb" };

/** Rows per statement: each column is one array parameter, so only the statement's size grows with it. */
export const UPSERT_CHUNK_ROWS = 5_000;
/** Bytes of file bodies per statement (a single larger file still goes, alone). */
export const OBJECT_CHUNK_BYTES = 8_000_000;

type Bound = string | number | boolean | null;
interface Column {
  name: string;
  /** The column's type as the server writes it (format_type), e.g. "timestamp with time zone". */
  type: string;
}

/** A value as the text of its column's type (arrays of these are cast to the column's type by the statement). */
function bind(value: RowValue | undefined, type: string): Bound {
  if (value === null || value === undefined) return null;
  if (type === "jsonb" || type === "json") return JSON.stringify(value instanceof Date ? isoTime(value) : value);
  return scalar(value);
}

/**
 * INSERT INTO t (a, b, k) SELECT * FROM unnest($1::text[], $2::jsonb[], $3::text[]) ON CONFLICT (k) DO UPDATE SET
 * a = EXCLUDED.a, b = EXCLUDED.b, c = NULL WHERE ROW(t.a, t.b, t.c) IS DISTINCT FROM ROW(EXCLUDED.a, EXCLUDED.b, NULL).
 * A replaced row keeps nothing of the old one (the table's columns the batch lacks become NULL), and a row that did
 * not change is not rewritten (a re-run of the same window leaves no dead rows behind).
 */
export function upsertStatement(table: string, columns: Column[], key: string[], missing: string[]): string {
  const arrays = columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(", ");
  const changed = columns.filter((c) => !key.includes(c.name)).map((c) => c.name);
  const insert = `INSERT INTO ${table} AS t (${columns.map((c) => ident(c.name)).join(", ")}) SELECT * FROM unnest(${arrays})`;
  const target = [...changed, ...missing].map((c) => `t.${ident(c)}`);
  if (target.length === 0) return `${insert} ON CONFLICT (${key.map(ident).join(", ")}) DO NOTHING`;
  const set = [...changed.map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`), ...missing.map((c) => `${ident(c)} = NULL`)];
  const source = [...changed.map((c) => `EXCLUDED.${ident(c)}`), ...missing.map(() => "NULL")];
  return `${insert} ON CONFLICT (${key.map(ident).join(", ")}) DO UPDATE SET ${set.join(", ")} WHERE ROW(${target.join(", ")}) IS DISTINCT FROM ROW(${source.join(", ")})`;
}

/** Text of an object's body: the table holds text, which is what every source writes. */
function bodyText(object: DestinationObject): string {
  if (typeof object.body === "string") return object.body;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(object.body);
  } catch {
    throw new Error(`Object ${JSON.stringify(object.path)} is not UTF-8 text: the PostgreSQL destination stores text files`);
  }
}

/**
 * Rows go to tables of the destination's schema, upserted on the record keys (a primary key on them); files go to
 * `tributary_objects` by path. One connection, one statement at a time; each call is one transaction, so a batch
 * interrupted (a closed writer, a lost connection) leaves the tables as they were before it.
 */
export class PostgresWriter implements DestinationWriter {
  private client?: Promise<pg.Client>;
  /** Each table's columns (name → type), as read or added by this writer. */
  private readonly tables = new Map<string, Map<string, string>>();
  private readonly serial = pLimit(1);
  /** Whether the schema, and the objects table, are known to exist (the test made the schema; a results schema may be new). */
  private schemaReady = false;
  private objectsReady = false;

  constructor(
    private readonly target: PostgresTarget,
    private readonly connect: () => Promise<pg.Client> = () => connectPostgres(target),
  ) {}

  private db(): Promise<pg.Client> {
    if (!this.client) {
      this.client = this.connect();
      this.client.catch(() => (this.client = undefined));
    }
    return this.client;
  }

  /** Runs `work` in a transaction of its own, after any call before it. */
  private transaction<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      const client = await this.db();
      await client.query("BEGIN");
      try {
        if (!this.schemaReady) {
          const found = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [this.target.schema]);
          if (found.rowCount === 0) await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(this.target.schema)}`);
          this.schemaReady = true;
        }
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        this.schemaReady = this.objectsReady = false;
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    });
  }

  async writeObjects(objects: DestinationObject[]): Promise<void> {
    if (objects.length === 0) return;
    const byPath = new Map<string, DestinationObject>();
    for (const object of objects) byPath.set(checkObjectPath(object.path), object);
    const table = qualified(this.target.schema, OBJECTS_TABLE);
    await this.transaction(async (client) => {
      if (!this.objectsReady) {
        await client.query(`CREATE TABLE IF NOT EXISTS ${table} (path text PRIMARY KEY, content_type text, body text, size bigint, written_at timestamptz NOT NULL DEFAULT now())`);
        this.objectsReady = true;
      }
      let chunk: { path: string; contentType: string | null; body: string; size: number }[] = [];
      let bytes = 0;
      const send = async () => {
        if (chunk.length === 0) return;
        await client.query(
          `INSERT INTO ${table} AS t (path, content_type, body, size, written_at) SELECT u.*, now() FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS u
           ON CONFLICT (path) DO UPDATE SET content_type = EXCLUDED.content_type, body = EXCLUDED.body, size = EXCLUDED.size, written_at = EXCLUDED.written_at
           WHERE ROW(t.content_type, t.body) IS DISTINCT FROM ROW(EXCLUDED.content_type, EXCLUDED.body)`,
          [chunk.map((o) => o.path), chunk.map((o) => o.contentType), chunk.map((o) => o.body), chunk.map((o) => o.size)],
        );
        chunk = [];
        bytes = 0;
      };
      for (const [path, object] of byPath) {
        const body = bodyText(object);
        const size = typeof object.body === "string" ? Buffer.byteLength(object.body) : object.body.byteLength;
        if (bytes + size > OBJECT_CHUNK_BYTES) await send();
        chunk.push({ path, contentType: object.contentType ?? null, body, size });
        bytes += size;
      }
      await send();
    });
  }

  async upsertRows(table: string, rows: Row[], key: string[], declared?: readonly DeclaredColumn[]): Promise<void> {
    if (!checkUpsert(table, rows, key)) return;
    // The declared columns (a stream's) of their declared types, a column null in the batch included; any other, by value.
    const kinds = tableColumns(rows, declared);
    checkLength("table", table);
    for (const column of kinds.keys()) checkLength("column", column);
    const name = qualified(this.target.schema, table);
    const batch = latestPerKey(rows, key);
    try {
      await this.transaction(async (client) => {
        const types = await this.ensureColumns(client, name, kinds, key);
        const columns = [...kinds.keys()].map((c) => ({ name: c, type: types.get(c)! }));
        const missing = [...types.keys()].filter((c) => !kinds.has(c));
        const statement = upsertStatement(name, columns, key, missing);
        for (let start = 0; start < batch.length; start += UPSERT_CHUNK_ROWS) {
          const chunk = batch.slice(start, start + UPSERT_CHUNK_ROWS);
          await client.query(
            statement,
            columns.map((c) => chunk.map((row) => bind(row[c.name], c.type))),
          );
        }
      });
    } catch (error) {
      // The table may have changed under us: read its columns again next time.
      this.tables.delete(name);
      throw error;
    }
  }

  /**
   * Creates the table with a primary key on `key` (first use by this writer: then its columns are read, and a unique
   * index on `key` made if an existing table lacks one, as ON CONFLICT needs), and adds the batch's new columns.
   * Answers every column of the table (name → type).
   */
  private async ensureColumns(client: pg.Client, name: string, kinds: Map<string, ColumnKind>, key: string[]): Promise<Map<string, string>> {
    let columns = this.tables.get(name);
    if (!columns) {
      const definitions = [...kinds].map(([column, kind]) => `${ident(column)} ${PG_TYPES[kind]}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${name} (${definitions.join(", ")}, PRIMARY KEY (${key.map(ident).join(", ")}))`);
      const unique = await client.query(
        `SELECT 1 FROM pg_index i WHERE i.indrelid = $1::regclass AND i.indisunique AND i.indpred IS NULL AND i.indnatts = i.indnkeyatts
           AND (SELECT array_agg(a.attname::text ORDER BY a.attname::text) FROM pg_attribute a WHERE a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)) = $2::text[]
           AND i.indnkeyatts = cardinality($2::text[])`,
        [name, [...key].sort()],
      );
      if (unique.rowCount === 0) await client.query(`CREATE UNIQUE INDEX ON ${name} (${key.map(ident).join(", ")})`);
      columns = await this.readColumns(client, name);
    }
    const added = [...kinds].filter(([column]) => !columns!.has(column));
    if (added.length > 0) {
      // IF NOT EXISTS: another writer may have added one meanwhile; its type is then read back, not assumed.
      await client.query(`ALTER TABLE ${name} ${added.map(([column, kind]) => `ADD COLUMN IF NOT EXISTS ${ident(column)} ${PG_TYPES[kind]}`).join(", ")}`);
      columns = await this.readColumns(client, name);
    }
    this.tables.set(name, columns);
    return columns;
  }

  private async readColumns(client: pg.Client, name: string): Promise<Map<string, string>> {
    const found = await client.query<{ name: string; type: string }>(
      "SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
      [name],
    );
    return new Map(found.rows.map((r) => [r.name, r.type]));
  }

  async close(): Promise<void> {
    const client = await this.client?.catch(() => undefined);
    this.client = undefined;
    this.tables.clear();
    this.schemaReady = this.objectsReady = false;
    if (client) await closePostgres(client);
  }
}
