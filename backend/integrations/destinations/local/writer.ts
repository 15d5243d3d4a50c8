import { writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { DuckDBConnection } from "@duckdb/node-api";
import { removeFiles, writeObjectFiles } from "./files.js";
import { localFailure } from "./errors.js";
import { acquireWarehouse, connectTo, lockFile, releaseWarehouse, unlockFile, type FileUser, type SharedWarehouse } from "./instances.js";
import { BULK_BATCH_RECORDS, batchJson, createTable, DUCK_TYPES, fitsColumns, insertBatches, insertRow, MERGE_ROWS, q, rebuildTable, replaceStatements, TABLE_COLUMNS, type StagedBatch, type Written } from "./staging.js";
import { checkUpsert, latestPerKey, tableColumns, type DeclaredColumn, type DestinationObject, type DestinationWriter, type Row } from "../writer.js";

/**
 * The local destination (no cloud account needed): under DATA_DIR/destinations/<owner id>/<destination id>/ it keeps
 *   files/            objects laid out as the bucket would hold them
 *   warehouse.duckdb  an embedded DuckDB database, one table per upsertRows table
 *   staging/          each call's rows as JSON until the merge reads them (gone once read)
 * See docs/decisions/2026-11-22-local-destination.md.
 */
export const WAREHOUSE_FILE = "warehouse.duckdb";
export const FILES_DIR = "files";
const STAGING_DIR = "staging";

export { BULK_BATCH_RECORDS, BULK_ROWS } from "./staging.js";

export interface LocalWriterOptions {
  /** Rows to stage (over upsertRows calls) before merging them; 0, the default, merges each call before it returns. */
  holdRows?: number;
}

/** A table's columns by lower-case name (DuckDB's names are case-insensitive), with their declared name and type. */
type Columns = Map<string, { name: string; type: string }>;

export class LocalWriter implements DestinationWriter, FileUser {
  /** Files go through the file writer thread, rows through DuckDB: a batch writes both at once. */
  readonly concurrentWrites = true;
  readonly batchRecords?: number;
  private readonly file: string;
  private readonly holdRows: number;
  private readonly tag = randomBytes(6).toString("hex");
  private shared?: SharedWarehouse;
  private connection?: DuckDBConnection;
  /** Calls run one at a time on the connection; `busy` counts those running or waiting. */
  private turn: Promise<unknown> = Promise.resolve();
  /** The last merge started in the open transaction (see merge). */
  private merging?: Promise<void>;
  private busy = 0;
  /** Each table's columns, as last read or written by this writer. */
  private readonly tables = new Map<string, Columns>();
  /** The open transaction (holding the file's lock), the tables it wrote and its rows. */
  private open = false;
  private readonly written = new Map<string, Written>();
  private heldRows = 0;
  /** Another writer waits for the file: commit at the end of the current call. */
  private yielding = false;
  private sequence = 0;
  /** An error of a commit another writer asked for (yieldFile): thrown by this writer's next call. */
  private failure?: unknown;

  constructor(
    readonly root: string,
    options: LocalWriterOptions = {},
  ) {
    this.file = path.resolve(root, WAREHOUSE_FILE);
    this.holdRows = Math.max(0, options.holdRows ?? 0);
    if (this.holdRows > 0) this.batchRecords = BULK_BATCH_RECORDS;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    this.busy++;
    const result = this.turn.then(work).finally(() => this.busy--);
    this.turn = result.catch(() => {});
    return result;
  }

  /** Creates the folders and the warehouse file (idempotent). */
  async prepare(): Promise<void> {
    try {
      await mkdir(path.join(this.root, FILES_DIR), { recursive: true });
      await this.db();
    } catch (error) {
      throw localFailure(error, this.root);
    }
  }

  private async db(): Promise<DuckDBConnection> {
    if (this.connection) return this.connection;
    await mkdir(this.root, { recursive: true });
    const shared = await acquireWarehouse(this.file, path.join(this.root, STAGING_DIR));
    try {
      this.connection = await connectTo(shared);
    } catch (error) {
      releaseWarehouse(this.file);
      throw error;
    }
    this.shared = shared;
    return this.connection;
  }

  /**
   * Each object is written to a temporary sibling then renamed over its path (on the file writer thread, files.ts),
   * so a reader (or a crash) never sees half a file; a path given twice in one call keeps its later body.
   */
  async writeObjects(objects: DestinationObject[]): Promise<void> {
    try {
      await writeObjectFiles(path.join(this.root, FILES_DIR), this.tag, objects);
    } catch (error) {
      throw localFailure(error, this.root);
    }
  }

  /**
   * Each call's rows are staged as a JSON file; at the merge, DuckDB's `read_json` inserts every file staged for a
   * table in one statement, in a transaction that keeps one row per key (the last given) before it commits, so a batch
   * goes in whole or not at all. A call with a value of another type than its column's (which DuckDB may refuse to
   * cast) or a very large row goes into the table at once, after what is staged, so that a refusal fails its own call.
   * A writer without `holdRows` merges each call; one with it merges once it holds that many rows, at flush, query and
   * close, or when another writer waits for the file. A table, or a new column, is made in a transaction of its own
   * (after merging what is held): others see it at once. Declared columns (a stream's) are made of their declared types
   * whatever the batch holds (one it lacks reads as NULL); any other column of the rows, of the type of its values.
   */
  async upsertRows(table: string, rows: Row[], key: string[], declared?: readonly DeclaredColumn[]): Promise<void> {
    if (!checkUpsert(table, rows, key)) return;
    const batch = latestPerKey(rows, key);
    const kinds = tableColumns(batch, declared);
    const staged = batchJson(batch); // before the call's turn: while DuckDB merges what came before
    try {
      await this.exclusive(async () => {
        this.rethrowFailure();
        await this.stage(table, key, kinds, staged, batch.length);
        if (this.heldRows >= this.holdRows || this.yielding) await this.commitHeld();
      });
    } catch (error) {
      throw localFailure(error, this.root);
    }
  }

  private async stage(table: string, key: string[], kinds: ReturnType<typeof tableColumns>, staged: StagedBatch, count: number): Promise<void> {
    const db = await this.db();
    const written = this.written.get(table);
    if (written && written.key.join("\u0000") !== key.join("\u0000")) await this.commitHeld(); // one key per table and commit
    await this.ensureColumns(db, table, kinds);
    try {
      await this.begin(db);
      let held = this.written.get(table);
      if (!held) {
        await this.merged();
        const before = (await db.runAndReadAll(`SELECT coalesce(max(rowid), -1)::BIGINT FROM ${q(table)}`)).getRows()[0]![0] as bigint;
        held = { key, before, calls: 0, files: [], columns: new Map(), stagedRows: 0 };
        this.written.set(table, held);
      }
      await this.load(db, table, held, kinds, staged, count);
    } catch (error) {
      await this.rollback();
      throw error;
    }
    this.written.get(table)!.calls++;
    this.heldRows += count;
  }

  /**
   * Puts a call's rows where the merge reads them (its own method, so that a test can make it fail): its JSON file among
   * the table's staged ones; or, when DuckDB has to cast a value or a row is very large, into the table now.
   */
  private async load(db: DuckDBConnection, table: string, held: Written, kinds: ReturnType<typeof tableColumns>, staged: StagedBatch, count: number): Promise<void> {
    const columns = this.tables.get(table)!;
    const types = new Map([...columns].map(([lower, c]) => [lower, c.type]));
    if (staged.json !== null) {
      // read_json finds a column by its key's exact case: files naming one column in two cases are read apart.
      if ([...kinds.keys()].some((name) => (held.columns.get(name.toLowerCase())?.[0] ?? name) !== name)) await this.merge(db, table);
      const file = path.join(this.root, STAGING_DIR, `${this.tag}-${(this.sequence++).toString(36).padStart(6, "0")}.json`);
      held.files.push(file);
      // One synchronous write: a fraction of a millisecond, where the promise's open, write and close cost several.
      writeFileSync(file, staged.json);
      for (const [name] of kinds) held.columns.set(name.toLowerCase(), [name, types.get(name.toLowerCase())!]);
      held.stagedRows += count;
    }
    if (staged.large.length === 0 && fitsColumns(staged.seen, types)) {
      // Its failure comes out of the next statement (merged), at the latest the commit's.
      if (held.stagedRows >= MERGE_ROWS) this.merge(db, table).catch(() => {});
      return;
    }
    await this.merge(db, table);
    for (const row of staged.large) {
      const { sql, values } = insertRow(table, row, types);
      await db.run(sql, values);
    }
  }

  /**
   * Inserts the table's staged files into it, in the open transaction, after the merges before it, and removes them.
   * The connection runs one statement at a time: whatever else uses it waits for the merges first (merged).
   */
  private merge(db: DuckDBConnection, table: string): Promise<void> {
    const held = this.written.get(table);
    if (!held || held.files.length === 0) return this.merged();
    const { files, columns } = held;
    held.files = [];
    held.columns = new Map();
    held.stagedRows = 0;
    const merging = this.merged()
      .then(() => db.run(insertBatches(table, files, [...columns.values()])))
      .finally(() => removeFiles(files))
      .then(() => {});
    this.merging = merging;
    return merging;
  }

  /** Resolves once the merges started are done; rejects with the first that failed. */
  private async merged(): Promise<void> {
    await this.merging;
  }

  /**
   * Makes the table, or its new columns: a writer that commits each call, in the call's transaction (a failed call
   * leaves no column behind); a bulk writer, in a transaction of its own after committing what it holds, so that
   * others see the table at once and its rows' transactions make nothing.
   */
  private async ensureColumns(db: DuckDBConnection, table: string, kinds: ReturnType<typeof tableColumns>): Promise<void> {
    let columns = await this.tableColumns(db, table);
    const added = [...kinds].filter(([name]) => !columns.has(name.toLowerCase()));
    if (added.length === 0) return;
    if (this.holdRows > 0) await this.commitHeld();
    await this.begin(db);
    try {
      if (columns.size === 0) {
        await db.run(createTable(table, added));
        this.tables.delete(table);
        columns = await this.tableColumns(db, table);
      }
      for (const [name, kind] of added) {
        if (columns.has(name.toLowerCase())) continue;
        await db.run(`ALTER TABLE ${q(table)} ADD COLUMN IF NOT EXISTS ${q(name)} ${DUCK_TYPES[kind]}`);
        columns.set(name.toLowerCase(), { name, type: DUCK_TYPES[kind] });
      }
      if (this.holdRows > 0) await this.commitHeld();
    } catch (error) {
      await this.rollback();
      throw error;
    }
  }

  /**
   * The table's columns (none when it does not exist), read once per writer. A table made with a key constraint (by an
   * earlier version) is made again without one, its rows kept: its key would refuse a row whose old one goes at commit.
   */
  private async tableColumns(db: DuckDBConnection, table: string): Promise<Columns> {
    const cached = this.tables.get(table);
    if (cached) return cached;
    await this.merged();
    const read = async () => (await db.runAndReadAll(TABLE_COLUMNS, [table])).getRows();
    let rows = await read();
    if (rows.length > 0 && Number(rows[0]![2]) > 0) {
      await this.commitHeld();
      await this.begin(db);
      try {
        await db.run(rebuildTable(table, `tributary_rebuild_${this.tag}`));
        await this.commitHeld();
      } catch (error) {
        await this.rollback();
        throw error;
      }
      rows = await read();
    }
    const columns: Columns = new Map(rows.map((r) => [String(r[0]).toLowerCase(), { name: String(r[0]), type: String(r[1]) }]));
    if (columns.size > 0) this.tables.set(table, columns);
    return columns;
  }

  /** Opens the write transaction, with the file's lock, if it is not open. */
  private async begin(db: DuckDBConnection): Promise<void> {
    if (this.open) return;
    await lockFile(this.shared!, this);
    try {
      await db.run("BEGIN TRANSACTION");
    } catch (error) {
      unlockFile(this.shared!, this);
      throw error;
    }
    this.open = true;
  }

  /** Merges what is staged, keeps one row per key in the tables written, and commits; rolls back on any error. */
  private async commitHeld(): Promise<void> {
    if (!this.open) return;
    const db = this.connection!;
    try {
      for (const table of this.written.keys()) await this.merge(db, table);
      for (const [table, { key, before, calls }] of this.written) for (const sql of replaceStatements(table, key, before, calls > 1)) await db.run(sql);
      await this.commit(db);
    } catch (error) {
      await this.rollback();
      throw error;
    }
    this.finish();
  }

  /** Its own method, so that a test can make a commit fail. */
  private async commit(db: DuckDBConnection): Promise<void> {
    await db.run("COMMIT");
  }

  private async rollback(): Promise<void> {
    if (!this.open) return;
    await this.merging?.catch(() => {});
    await removeFiles([...this.written.values()].flatMap((held) => held.files));
    await this.connection?.run("ROLLBACK").catch(() => {});
    this.tables.clear(); // tables or columns made in it are gone
    this.finish();
  }

  private finish(): void {
    this.open = false;
    this.merging = undefined;
    this.written.clear();
    this.heldRows = 0;
    this.yielding = false;
    if (this.shared) unlockFile(this.shared, this);
  }

  /**
   * Another writer waits for the file: commit what is held at the end of the current call, or now when idle, so that
   * a slow source does not keep the file from others for minutes. An error comes out at this writer's next call.
   */
  yieldFile(): void {
    this.yielding = true;
    if (this.busy > 0) return;
    this.exclusive(() => this.commitHeld()).catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  private rethrowFailure(): void {
    const failure = this.failure;
    if (failure === undefined) return;
    this.failure = undefined;
    throw failure;
  }

  /** Commits what is held. */
  flush(): Promise<void> {
    return this.exclusive(async () => {
      this.rethrowFailure();
      await this.commitHeld();
    }).catch((error: unknown) => {
      throw localFailure(error, this.root);
    });
  }

  /** Runs `work` on the warehouse after committing what this writer holds, in its turn; errors in the destination's words. */
  private async settled<T>(work: (db: DuckDBConnection) => Promise<T>): Promise<T> {
    try {
      return await this.exclusive(async () => {
        this.rethrowFailure();
        await this.commitHeld();
        return work(await this.db());
      });
    } catch (error) {
      throw localFailure(error, this.root);
    }
  }

  /** Runs a query on the warehouse (checks and transforms), after committing what this writer holds. */
  query(sql: string): Promise<Record<string, unknown>[]> {
    return this.settled(async (db) => {
      // It may change a table's columns: read them again next time.
      this.tables.clear();
      return (await db.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
    });
  }

  /**
   * A connection of its own to the warehouse, after committing what this writer holds: a streamed read there leaves
   * this writer's free to write meanwhile. The caller closes it, before it closes this writer.
   */
  readConnection(): Promise<DuckDBConnection> {
    return this.settled(() => connectTo(this.shared!));
  }

  /** Commits what is held (its error comes out here), then lets go of the warehouse. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.exclusive(async () => {
        await this.rollback();
        this.connection?.closeSync();
        this.connection = undefined;
        this.tables.clear();
        if (this.shared) {
          this.shared = undefined;
          releaseWarehouse(this.file);
        }
      });
    }
  }
}
