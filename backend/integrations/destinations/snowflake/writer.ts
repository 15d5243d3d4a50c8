import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type snowflake from "snowflake-sdk";
import { STAGE_NAME_PATTERN } from "../../../../contract/integrations/snowflake.js";
import { checkObjectPath, checkUpsert, latestPerKey, scalar, tableColumns, type ColumnKind, type DeclaredColumn, type DestinationObject, type DestinationWriter, type Row } from "../writer.js";
import { closeSnowflake, connectSnowflake, ident, runSql, type SnowflakeTarget } from "./client.js";

const SNOWFLAKE_TYPES: Record<ColumnKind, string> = { string: "VARCHAR", number: "FLOAT", boolean: "BOOLEAN", timestamp: "TIMESTAMP_TZ", json: "VARIANT" };

/** Rows per MERGE: Snowflake takes at most 16,384 expressions in a list (the VALUES rows). */
export const MERGE_MAX_ROWS = 16_384;
/** Bound values per MERGE. */
export const MERGE_MAX_BINDS = 50_000;
/**
 * Bytes of bound text and placeholders per MERGE: Snowflake asks for at most
 * 1 MB of statement text, binds included (a single larger row still goes, alone).
 */
export const MERGE_MAX_BYTES = 1_000_000;

/** A value bound as text (so every VALUES column has one type); the statement casts it to the column's type. */
function boundText(value: Row[string] | undefined): string | null {
  const v = scalar(value ?? null);
  return v === null ? null : String(v);
}

/** The batch's rows as chunks of binds (row after row, columns in `columns` order), each within the MERGE limits. */
export function mergeChunks(rows: Row[], columns: string[]): { rows: Row[]; binds: (string | null)[] }[] {
  const chunks: { rows: Row[]; binds: (string | null)[] }[] = [];
  let current: { rows: Row[]; binds: (string | null)[] } = { rows: [], binds: [] };
  let bytes = 0;
  for (const row of rows) {
    const binds = columns.map((c) => boundText(row[c]));
    // The row's bound text, and its "(?, ?, …), " in the statement.
    const size = binds.reduce((sum, b) => sum + (b === null ? 4 : Buffer.byteLength(b)), 3 * binds.length + 2);
    const full = current.rows.length >= MERGE_MAX_ROWS || current.binds.length + binds.length > MERGE_MAX_BINDS || bytes + size > MERGE_MAX_BYTES;
    if (current.rows.length > 0 && full) {
      chunks.push(current);
      current = { rows: [], binds: [] };
      bytes = 0;
    }
    current.rows.push(row);
    current.binds.push(...binds);
    bytes += size;
  }
  if (current.rows.length) chunks.push(current);
  return chunks;
}

/** A VALUES column (text) as the target column's type. */
function castTo(expr: string, type: string): string {
  const base = type.replace(/\(.*$/, "").trim();
  if (base === "VARIANT") return `PARSE_JSON(${expr})`;
  if (base === "OBJECT" || base === "ARRAY") return `PARSE_JSON(${expr})::${base}`;
  return /^[A-Z_]+$/.test(base) ? `${expr}::${base}` : expr;
}

/**
 * MERGE INTO <table> t USING (SELECT column1::TYPE AS A, PARSE_JSON(column2) AS B
 * FROM VALUES (?, ?), (?, ?)) s ON t.K = s.K WHEN MATCHED THEN UPDATE SET …
 * WHEN NOT MATCHED THEN INSERT (…) VALUES (…).
 */
export function mergeStatement(table: string, source: { name: string; type: string }[], keys: string[], missing: string[], rowCount: number): string {
  const select = source.map((c, i) => `${castTo(`column${i + 1}`, c.type)} AS ${c.name}`).join(", ");
  const row = `(${source.map(() => "?").join(", ")})`;
  const values = Array.from({ length: rowCount }, () => row).join(", ");
  const set = [...source.filter((c) => !keys.includes(c.name)).map((c) => `t.${c.name} = s.${c.name}`), ...missing.map((c) => `t.${c} = NULL`)];
  return [
    `MERGE INTO ${table} t USING (SELECT ${select} FROM VALUES ${values}) s ON ${keys.map((k) => `t.${k} = s.${k}`).join(" AND ")}`,
    ...(set.length ? [`WHEN MATCHED THEN UPDATE SET ${set.join(", ")}`] : []),
    `WHEN NOT MATCHED THEN INSERT (${source.map((c) => c.name).join(", ")}) VALUES (${source.map((c) => `s.${c.name}`).join(", ")})`,
  ].join(" ");
}

/** Rows go to tables keyed by the key columns (MERGE); objects to the stage (stage variant) with PUT. */
export class SnowflakeWriter implements DestinationWriter {
  /** The one sign-in every call of this writer shares (calls may start together: one sign-in, not one each). */
  private connecting?: Promise<snowflake.Connection>;
  /** Each table's columns (upper-case name → type), as read or added by this writer. */
  private readonly tables = new Map<string, Map<string, string>>();

  constructor(
    private readonly target: SnowflakeTarget,
    private readonly variant: "snowflake" | "snowflake_stage",
  ) {}

  private db(): Promise<snowflake.Connection> {
    this.connecting ??= connectSnowflake(this.target).catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private qualified(name: string) {
    return `${ident(this.target.database, "Database")}.${ident(this.target.schema, "Schema")}.${name.toUpperCase()}`;
  }

  async writeObjects(objects: DestinationObject[]): Promise<void> {
    if (this.variant !== "snowflake_stage") {
      const rows = objects.map((o) => ({ path: checkObjectPath(o.path), content: typeof o.body === "string" ? o.body : Buffer.from(o.body).toString("base64"), content_type: o.contentType ?? null }));
      return this.upsertRows("objects", rows, ["path"]);
    }
    const stage = this.qualified(ident(this.target.stageName, "Stage name", STAGE_NAME_PATTERN));
    const folder = await mkdtemp(path.join(os.tmpdir(), "tributary-put-"));
    try {
      for (const object of objects) {
        const relative = checkObjectPath(object.path);
        const directory = path.posix.dirname(relative);
        const file = path.join(folder, path.posix.basename(relative));
        await writeFile(file, object.body);
        await runSql(await this.db(), `PUT 'file://${file.replace(/'/g, "")}' '@${stage}/${directory === "." ? "" : directory}' AUTO_COMPRESS = FALSE OVERWRITE = TRUE`);
        await rm(file);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /**
   * One MERGE per chunk of the batch (see MERGE_MAX_ROWS / MERGE_MAX_BINDS /
   * MERGE_MAX_BYTES), its rows bound as a multi-row VALUES source. A key given
   * twice in the batch keeps its later row (Snowflake refuses a MERGE whose
   * source matches a target row twice). The table is created on first use and
   * a batch's new columns are added to it; a replaced row keeps nothing of the
   * old one (the table's columns the batch lacks are set to NULL). Declared columns (a stream's) are made of their
   * declared types whatever the batch holds; any other column of the rows, of the type of its values.
   */
  async upsertRows(table: string, rows: Row[], key: string[], declared?: readonly DeclaredColumn[]): Promise<void> {
    if (!checkUpsert(table, rows, key)) return;
    const kinds = tableColumns(rows, declared);
    const given = [...kinds.keys()];
    const upper = new Map<string, string>();
    for (const original of given) {
      const other = upper.get(original.toUpperCase());
      if (other !== undefined) throw new Error(`Columns ${JSON.stringify(other)} and ${JSON.stringify(original)} are the same column in Snowflake`);
      upper.set(original.toUpperCase(), original);
    }
    const name = this.qualified(table);
    const connection = await this.db();
    try {
      const columns = await this.ensureColumns(connection, name, kinds);
      const batch = latestPerKey(rows, key);
      const source = given.map((original) => ({ original, name: original.toUpperCase(), type: columns.get(original.toUpperCase()) ?? SNOWFLAKE_TYPES[kinds.get(original)!] }));
      const keys = key.map((k) => k.toUpperCase());
      const missing = [...columns.keys()].filter((c) => !upper.has(c));
      for (const chunk of mergeChunks(batch, given)) {
        await runSql(connection, mergeStatement(name, source, keys, missing, chunk.rows.length), chunk.binds);
      }
    } catch (error) {
      // The table may have changed under us: read its columns again next time.
      this.tables.delete(name);
      throw error;
    }
  }

  /**
   * Creates the table (first use by this writer: then its columns are read)
   * and adds the batch's columns it lacks. Answers every column of the table
   * (upper-case name → Snowflake type).
   */
  private async ensureColumns(connection: snowflake.Connection, name: string, kinds: Map<string, ColumnKind>): Promise<Map<string, string>> {
    let columns = this.tables.get(name);
    if (!columns) {
      const definitions = [...kinds].map(([column, kind]) => `${column.toUpperCase()} ${SNOWFLAKE_TYPES[kind]}`);
      await runSql(connection, `CREATE TABLE IF NOT EXISTS ${name} (${definitions.join(", ")})`);
      const [database, schema, table] = name.split(".") as [string, string, string];
      const found = await runSql(connection, `SELECT COLUMN_NAME, DATA_TYPE FROM ${database}.INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`, [schema, table]);
      columns = new Map(found.map((r) => [String(r.COLUMN_NAME).toUpperCase(), String(r.DATA_TYPE).toUpperCase()]));
      this.tables.set(name, columns);
    }
    for (const [column, kind] of kinds) {
      const upperName = column.toUpperCase();
      if (columns.has(upperName)) continue;
      // One column per statement; IF NOT EXISTS: another writer may have added it meanwhile.
      await runSql(connection, `ALTER TABLE ${name} ADD COLUMN IF NOT EXISTS ${upperName} ${SNOWFLAKE_TYPES[kind]}`);
      columns.set(upperName, SNOWFLAKE_TYPES[kind]);
    }
    return columns;
  }

  async close(): Promise<void> {
    const connecting = this.connecting;
    this.connecting = undefined;
    const connection = await connecting?.catch(() => undefined);
    if (connection) await closeSnowflake(connection);
    this.tables.clear();
  }
}
