import { mkdir, rename, unlink, writeFile } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { randomBytes } from "node:crypto";
import { BOOLEAN, DOUBLE, DuckDBDataChunk, DuckDBInstance, VARCHAR, type DuckDBAppender, type DuckDBConnection, type DuckDBValue } from "@duckdb/node-api";
import { checkName, checkObjectPath, columnsOf, latestPerKey, scalar, type ColumnKind, type DestinationObject, type DestinationWriter, type Row } from "./writer.js";

/**
 * The local destination (no cloud account needed): under
 * DATA_DIR/destinations/<owner id>/<destination id>/ it keeps
 *   files/            objects laid out as the bucket would hold them
 *   warehouse.duckdb  an embedded DuckDB database, one table per upsertRows table
 * See docs/decisions/2026-11-22-local-destination.md.
 */
export const WAREHOUSE_FILE = "warehouse.duckdb";
export const FILES_DIR = "files";
/** Files written at the same time by one writeObjects call. */
export const FILE_CONCURRENCY = 8;
/** The temporary table a batch of rows is appended to before it is merged (connection-local, never in the file). */
const STAGE_TABLE = "tributary_stage";
/**
 * DuckDB threads while writing. A batch's INSERT is small work: on a busy machine
 * DuckDB's parallel tasks cost more CPU than they save (measured: about 30% less
 * CPU per row with one thread). Reads (query) get DuckDB's default back.
 */
const WRITE_THREADS = 1;

// The callback forms: lighter per file than fs/promises' FileHandle (thousands of small files per run).
const mkdirAsync = promisify(mkdir);
const writeFileAsync = promisify(writeFile);
const renameAsync = promisify(rename);
const unlinkAsync = promisify(unlink);

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

/** How one column of a batch is staged: typed when every value has that type, else as text that the INSERT casts. */
type StageKind = "double" | "boolean" | "text";

function stageKind(name: string, kind: ColumnKind, rows: Row[]): StageKind {
  if (kind === "number" && rows.every((r) => r[name] === null || r[name] === undefined || typeof r[name] === "number")) return "double";
  if (kind === "boolean" && rows.every((r) => r[name] === null || r[name] === undefined || typeof r[name] === "boolean")) return "boolean";
  return "text";
}

const STAGE_TYPES = { double: DOUBLE, boolean: BOOLEAN, text: VARCHAR } as const;
const STAGE_SQL_TYPES = { double: "DOUBLE", boolean: "BOOLEAN", text: "VARCHAR" } as const;
/** Rows per data chunk: DuckDB's vector size (the most a chunk holds). */
const CHUNK_ROWS = 2048;

/**
 * Appends the batch column by column, one data chunk of up to CHUNK_ROWS rows at a time: numbers and
 * booleans are copied into their vectors in one call per column, where the appender took one call per value
 * (and one per row); text still takes one call per value.
 */
function appendChunks(appender: DuckDBAppender, staged: { name: string; kind: StageKind }[], batch: Row[]) {
  const types = staged.map((c) => STAGE_TYPES[c.kind]);
  for (let offset = 0; offset < batch.length; offset += CHUNK_ROWS) {
    const count = Math.min(CHUNK_ROWS, batch.length - offset);
    const chunk = DuckDBDataChunk.create(types, count);
    staged.forEach((column, index) => {
      const values = new Array<DuckDBValue>(count);
      for (let i = 0; i < count; i++) {
        const value = batch[offset + i]![column.name];
        values[i] = value === null || value === undefined ? null : column.kind === "text" ? (typeof value === "string" ? value : String(scalar(value))) : (value as number | boolean);
      }
      chunk.setColumnValues(index, values);
    });
    appender.appendDataChunk(chunk);
  }
}

/** DuckDB refused a key that the table already holds (the fast path's plain INSERT met an existing row). */
function isKeyConflict(error: unknown): boolean {
  const message = (error as Error)?.message ?? "";
  return /constraint/i.test(message) && /duplicate key|primary key|unique/i.test(message);
}

/** Runs `work` on at most `limit` items at a time; rejects with the first error once the started ones have settled. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
}

/**
 * One DuckDB instance per warehouse file in this process. Two instances of one
 * file in a process do not see each other's writes (and would corrupt it), while
 * DuckDB's file lock only keeps other processes out: a sync, a transform run
 * and the API's reads in one process must share an instance. Each writer opens
 * its own connection on it; the last writer to close releases the file.
 */
const instances = new Map<string, { instance: Promise<DuckDBInstance>; users: number }>();

async function acquireInstance(file: string): Promise<DuckDBInstance> {
  let entry = instances.get(file);
  if (!entry) {
    const created = { instance: DuckDBInstance.create(file), users: 0 };
    instances.set(file, created);
    created.instance.catch(() => {
      if (instances.get(file) === created) instances.delete(file);
    });
    entry = created;
  }
  entry.users++;
  try {
    return await entry.instance;
  } catch (error) {
    entry.users--;
    throw error;
  }
}

async function releaseInstance(file: string): Promise<void> {
  const entry = instances.get(file);
  if (!entry) return;
  entry.users--;
  if (entry.users > 0) return;
  instances.delete(file);
  (await entry.instance.catch(() => null))?.closeSync();
}

export class LocalWriter implements DestinationWriter {
  private instance?: DuckDBInstance;
  private connection?: DuckDBConnection;
  /** Folders known to exist under files/ (so a batch makes each folder once). */
  private readonly folders = new Set<string>();
  /** Each table's columns in order, as last read or committed by this writer. */
  private readonly tables = new Map<string, string[]>();
  /** Tells this writer's temporary files apart from another writer's. */
  private readonly tag = randomBytes(6).toString("hex");
  private sequence = 0;
  /** DuckDB is set for writing (WRITE_THREADS) rather than for reading. */
  private writing = false;
  /** Files go through the thread pool and rows through DuckDB's connection: a batch can write both at once. */
  readonly concurrentWrites = true;
  /** The connection runs one transaction (or query) at a time: calls made meanwhile wait their turn. */
  private turn: Promise<unknown> = Promise.resolve();

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work);
    this.turn = result.catch(() => {});
    return result;
  }

  private readonly file: string;

  constructor(readonly root: string) {
    this.file = path.resolve(root, WAREHOUSE_FILE);
  }

  /** Creates the folders and the warehouse file (idempotent). */
  async prepare(): Promise<void> {
    await mkdirAsync(path.join(this.root, FILES_DIR), { recursive: true });
    await this.db();
  }

  private async db(): Promise<DuckDBConnection> {
    if (!this.connection) {
      await mkdirAsync(this.root, { recursive: true });
      const instance = await acquireInstance(this.file);
      try {
        this.connection = await instance.connect();
      } catch (error) {
        await releaseInstance(this.file);
        throw error;
      }
      this.instance = instance;
    }
    return this.connection;
  }

  /**
   * Each object is written to a temporary sibling then renamed over its path,
   * so a reader (or a crash) never sees half a file, and a path written twice
   * holds the later body. Up to FILE_CONCURRENCY files are in flight at once.
   */
  async writeObjects(objects: DestinationObject[]): Promise<void> {
    const files = path.join(this.root, FILES_DIR);
    const targets = objects.map((object) => ({ target: path.join(files, ...checkObjectPath(object.path).split("/")), body: object.body }));
    // A path given twice in one call: only its last body is written (as if written in order).
    const last = new Map(targets.map((t) => [t.target, t]));
    await eachLimited([...last.values()], FILE_CONCURRENCY, async ({ target, body }) => {
      const folder = path.dirname(target);
      if (!this.folders.has(folder)) {
        await mkdirAsync(folder, { recursive: true });
        this.folders.add(folder);
      }
      const temporary = `${target}.${this.tag}-${(this.sequence++).toString(36)}.tmp`;
      try {
        try {
          await writeFileAsync(temporary, body);
        } catch (error) {
          // The folder was removed since this writer made it: make it again, once.
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
          await mkdirAsync(folder, { recursive: true });
          await writeFileAsync(temporary, body);
        }
        await renameAsync(temporary, target);
      } catch (error) {
        await unlinkAsync(temporary).catch(() => {});
        throw error;
      }
    });
  }

  /**
   * One transaction per call. The batch is first appended (DuckDB data chunks) to a connection-local
   * TEMP staging table (outside the transaction: nothing of the warehouse changes there). Then, in one
   * transaction: the table and any new columns are created, and the staged rows are merged:
   *  - fast path: a plain INSERT, which DuckDB refuses as a whole if any key is already in the table;
   *  - otherwise (that refusal): ROLLBACK, and a new transaction does INSERT OR REPLACE on the key.
   * An error anywhere rolls the transaction back, so the table is either as before or holds the whole
   * batch. Every column of the table is written, so a replaced row keeps nothing of the old one.
   * A key given twice in one batch keeps its last row.
   */
  async upsertRows(table: string, rows: Row[], key: string[]): Promise<void> {
    checkName("table", table);
    if (key.length === 0) throw new Error("upsertRows needs at least one key column");
    key.forEach((k) => checkName("column", k));
    if (rows.length === 0) return;
    for (const row of rows) for (const k of key) if (row[k] === null || row[k] === undefined) throw new Error(`Row without key column ${k}`);
    const columns = columnsOf(rows);
    const batch = latestPerKey(rows, key);
    return this.exclusive(() => this.upsert(table, columns, batch, key));
  }

  private async upsert(table: string, columns: Map<string, ColumnKind>, batch: Row[], key: string[]): Promise<void> {
    const db = await this.db();
    if (!this.writing) {
      await db.run(`SET threads = ${WRITE_THREADS}`);
      this.writing = true;
    }
    const staged = [...columns].map(([name, kind]) => ({ name, kind: stageKind(name, kind, batch) }));
    await db.run(`CREATE OR REPLACE TEMP TABLE ${STAGE_TABLE} (${staged.map((c) => `${q(c.name)} ${STAGE_SQL_TYPES[c.kind]}`).join(", ")})`);
    try {
      const appender = await db.createAppender(STAGE_TABLE, "main", "temp");
      try {
        appendChunks(appender, staged, batch);
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
      let names: string[];
      try {
        names = await this.merge(db, table, columns, key, "INSERT");
      } catch (error) {
        if (!isKeyConflict(error)) throw error;
        names = await this.merge(db, table, columns, key, "INSERT OR REPLACE");
      }
      this.tables.set(table, names);
    } finally {
      await db.run(`DROP TABLE IF EXISTS temp.main.${STAGE_TABLE}`).catch(() => {});
    }
  }

  /** One transaction: the table and the batch's new columns, then `verb` INTO the table from the staging table. */
  private async merge(db: DuckDBConnection, table: string, columns: Map<string, ColumnKind>, key: string[], verb: "INSERT" | "INSERT OR REPLACE"): Promise<string[]> {
    const cached = this.tables.get(table);
    const ready = cached !== undefined && [...columns.keys()].every((name) => cached.some((n) => n.toLowerCase() === name.toLowerCase()));
    try {
      // The common case (the table and its columns known): one round trip for the whole transaction.
      const names = ready ? cached : (await db.run("BEGIN TRANSACTION"), await this.ensureTable(db, table, columns, key));
      // Every column of the table, so that a replaced row keeps nothing of the old one (DuckDB names are case-insensitive).
      const given = new Map([...columns.keys()].map((name) => [name.toLowerCase(), name]));
      const select = names.map((n) => (given.has(n.toLowerCase()) ? q(given.get(n.toLowerCase())!) : `NULL AS ${q(n)}`));
      const insert = `${verb} INTO ${q(table)} (${names.map(q).join(", ")}) SELECT ${select.join(", ")} FROM temp.main.${STAGE_TABLE}`;
      await db.run(ready ? `BEGIN TRANSACTION; ${insert}; COMMIT` : `${insert}; COMMIT`);
      return names;
    } catch (error) {
      // A refused key changes nothing of the table's columns; any other error may have: read them again.
      if (!isKeyConflict(error)) this.tables.delete(table);
      await db.run("ROLLBACK").catch(() => {});
      throw error;
    }
  }

  /** Creates the table and the batch's new columns (inside the caller's transaction); answers every column of the table in order. */
  private async ensureTable(db: DuckDBConnection, table: string, columns: Map<string, ColumnKind>, key: string[]): Promise<string[]> {
    let names = this.tables.get(table);
    if (!names) {
      const definitions = [...columns].map(([name, kind]) => `${q(name)} ${DUCK_TYPES[kind]}`);
      await db.run(`CREATE TABLE IF NOT EXISTS ${q(table)} (${definitions.join(", ")}, PRIMARY KEY (${key.map(q).join(", ")}))`);
      const existing = await db.runAndReadAll(
        "SELECT column_name FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
        [table],
      );
      names = existing.getRows().map((r) => String(r[0]));
    }
    const known = new Set(names.map((n) => n.toLowerCase()));
    const added = [...columns].filter(([name]) => !known.has(name.toLowerCase()));
    for (const [name, kind] of added) await db.run(`ALTER TABLE ${q(table)} ADD COLUMN IF NOT EXISTS ${q(name)} ${DUCK_TYPES[kind]}`);
    return added.length ? [...names, ...added.map(([name]) => name)] : names;
  }

  /** Runs a read query on the warehouse (for checks and the transforms issue). */
  async query(sql: string): Promise<Record<string, unknown>[]> {
    return this.exclusive(async () => {
      // The query may change a table's columns: read them again next time.
      this.tables.clear();
      const db = await this.db();
      if (this.writing) {
        await db.run("RESET threads");
        this.writing = false;
      }
      const result = await db.runAndReadAll(sql);
      return result.getRowObjectsJson() as Record<string, unknown>[];
    });
  }

  async close(): Promise<void> {
    this.connection?.closeSync();
    const held = this.instance !== undefined;
    this.connection = undefined;
    this.instance = undefined;
    if (held) await releaseInstance(this.file);
    this.writing = false;
    this.tables.clear();
    this.folders.clear();
  }
}
