import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { checkName, checkObjectPath, columnsOf, scalar, type ColumnKind, type DestinationObject, type DestinationWriter, type Row } from "./writer.js";

/**
 * The local destination (no cloud account needed): under
 * DATA_DIR/destinations/<owner id>/<destination id>/ it keeps
 *   files/            objects laid out as the bucket would hold them
 *   warehouse.duckdb  an embedded DuckDB database, one table per upsertRows table
 * See docs/decisions/2026-11-22-local-destination.md.
 */
export const WAREHOUSE_FILE = "warehouse.duckdb";
export const FILES_DIR = "files";

/** ALLOW_LOCAL_DESTINATION=false hides and refuses the local destination; anything else allows it. */
export function localDestinationAllowed(env: Record<string, string | undefined> = process.env): boolean {
  return (env.ALLOW_LOCAL_DESTINATION ?? "true").trim().toLowerCase() !== "false";
}

/** The folder of one local destination, relative to DATA_DIR (stored in the destination's config). */
export function localFolder(ownerId: string, destinationId: string): string {
  return path.posix.join("destinations", ownerId, destinationId);
}

export function resolveLocalRoot(dataDir: string, folder: string): string {
  const base = path.resolve(dataDir);
  const root = path.resolve(base, folder);
  if (!root.startsWith(base + path.sep)) throw new Error("The local destination's folder is outside DATA_DIR");
  return root;
}

const DUCK_TYPES: Record<ColumnKind, string> = { string: "VARCHAR", number: "DOUBLE", boolean: "BOOLEAN", timestamp: "TIMESTAMPTZ", json: "JSON" };
const q = (name: string) => `"${name}"`;

export class LocalWriter implements DestinationWriter {
  private instance?: DuckDBInstance;
  private connection?: DuckDBConnection;

  constructor(readonly root: string) {}

  /** Creates the folders and the warehouse file (idempotent). */
  async prepare(): Promise<void> {
    await mkdir(path.join(this.root, FILES_DIR), { recursive: true });
    await this.db();
  }

  private async db(): Promise<DuckDBConnection> {
    if (!this.connection) {
      await mkdir(this.root, { recursive: true });
      this.instance = await DuckDBInstance.create(path.join(this.root, WAREHOUSE_FILE));
      this.connection = await this.instance.connect();
    }
    return this.connection;
  }

  async writeObjects(objects: DestinationObject[]): Promise<void> {
    const files = path.join(this.root, FILES_DIR);
    for (const object of objects) {
      const target = path.join(files, ...checkObjectPath(object.path).split("/"));
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(6).toString("hex")}.tmp`;
      await writeFile(temporary, object.body);
      await rename(temporary, target);
    }
  }

  async upsertRows(table: string, rows: Row[], key: string[]): Promise<void> {
    checkName("table", table);
    if (key.length === 0) throw new Error("upsertRows needs at least one key column");
    key.forEach((k) => checkName("column", k));
    if (rows.length === 0) return;
    for (const row of rows) for (const k of key) if (row[k] === null || row[k] === undefined) throw new Error(`Row without key column ${k}`);
    const columns = columnsOf(rows);
    const db = await this.db();
    const definitions = [...columns].map(([name, kind]) => `${q(name)} ${DUCK_TYPES[kind]}`);
    await db.run(`CREATE TABLE IF NOT EXISTS ${q(table)} (${definitions.join(", ")}, PRIMARY KEY (${key.map(q).join(", ")}))`);
    for (const [name, kind] of columns) await db.run(`ALTER TABLE ${q(table)} ADD COLUMN IF NOT EXISTS ${q(name)} ${DUCK_TYPES[kind]}`);
    // Every column of the table, so that a replaced row keeps nothing of the old one.
    const existing = await db.runAndReadAll("SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position", [table]);
    const names = existing.getRows().map((r) => String(r[0]));
    const sql = `INSERT OR REPLACE INTO ${q(table)} (${names.map(q).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`;
    await db.run("BEGIN TRANSACTION");
    try {
      const statement = await db.prepare(sql);
      for (const row of rows) {
        statement.bind(names.map((n) => scalar(row[n] ?? null)));
        await statement.run();
      }
      await db.run("COMMIT");
    } catch (error) {
      await db.run("ROLLBACK").catch(() => {});
      throw error;
    }
  }

  /** Runs a read query on the warehouse (for checks and the transforms issue). */
  async query(sql: string): Promise<Record<string, unknown>[]> {
    const result = await (await this.db()).runAndReadAll(sql);
    return result.getRowObjectsJson() as Record<string, unknown>[];
  }

  async close(): Promise<void> {
    this.connection?.closeSync();
    this.instance?.closeSync();
    this.connection = undefined;
    this.instance = undefined;
  }
}
