import { mkdir } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { randomBytes } from "node:crypto";
import { BOOLEAN, DOUBLE, DuckDBDataChunk, DuckDBInstance, VARCHAR, type DuckDBAppender, type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBValue } from "@duckdb/node-api";
import { writeFiles } from "./file-writer.js";
import { localFailure } from "./local-errors.js";
import { checkName, checkObjectPath, columnsOf, latestPerKey, rowKey, scalar, type ColumnKind, type DestinationObject, type DestinationWriter, type Row } from "./writer.js";

/**
 * The local destination (no cloud account needed): under
 * DATA_DIR/destinations/<owner id>/<destination id>/ it keeps
 *   files/            objects laid out as the bucket would hold them
 *   warehouse.duckdb  an embedded DuckDB database, one table per upsertRows table
 * See docs/decisions/2026-11-22-local-destination.md.
 */
export const WAREHOUSE_FILE = "warehouse.duckdb";
export const FILES_DIR = "files";
/**
 * DuckDB threads while writing. A batch's INSERT is small work: on a busy machine
 * DuckDB's parallel tasks cost more CPU than they save (measured: about 30% less
 * CPU per row with one thread). Reads (query) get DuckDB's default back.
 */
const WRITE_THREADS = 1;
/**
 * DuckDB's memory limit while writing. Without one, its buffer pool keeps every block a merge reads (the key
 * column of the whole table, for the DELETE): the sync's peak grew with the warehouse. With it, those blocks
 * are dropped. Measured at 100× (2.1M lines): peak RSS 480 → 340 MiB, at about the same speed. A call holding a
 * value too large for it (LIFT_FOR_CHARS) lifts it first, for the rest of the writer's writes; a write that still
 * runs out of memory lifts it for every later write to the file, and fails (its transaction cannot be run again).
 * Reads get DuckDB's default back.
 */
const WRITE_MEMORY_LIMIT = "32MB";
/**
 * The WAL size past which a commit checkpoints (DuckDB's default is 16 MiB; DuckDB estimates a commit's size
 * from its rows and column types). A commit that checkpoints, and would write more than
 * `auto_checkpoint_skip_wal_threshold` to the WAL, skips the WAL and writes its rows to the database file once.
 * A sync's last merge (under a row group) otherwise went to the WAL, and the checkpoint at close wrote it
 * again. Measured on tmpfs (last merge + close): 1× 80–94 → 67–72 ms, 10× 292–322 → 226–232 ms; 100× the
 * same within noise. Instance-wide: a transform's large write checkpoints at commit too.
 */
const CHECKPOINT_THRESHOLD = "1MB";
/**
 * Rows per row group of the warehouse file (DuckDB's default is 122,880; ATTACH sets it for the rows written while the
 * file is attached). A transaction writes each row group it fills to the file as soon as it is full, on the thread
 * that runs the INSERT, while the sync renders its next batch; only the last, partial one waits for the commit. With
 * DuckDB's own size a bulk writer's whole transaction was compressed and written at its commit: a sync's last commit
 * ran alone at the end of the run (~160 ms of ~1.6 s at 10×, tmpfs), and the rows waited in memory meanwhile, spilled
 * past WRITE_MEMORY_LIMIT to temporary files (compressed, then read back). Measured by replaying a sync's batches into
 * DuckDB alone: 10× 0.66 → 0.57 CPU-s, last commit 161 → 51 ms; 100× 7.7 → 6.8 CPU-s; the file ~3% larger. Smaller
 * row groups (16,384) cost more again (each builds its own compression dictionaries).
 */
const ROW_GROUP_ROWS = 32_768;
/** The warehouse file's name in its instance (which is an in-memory database that attaches it). */
const WAREHOUSE_ALIAS = "warehouse";
/** A value at least this long (UTF-16 units) lifts WRITE_MEMORY_LIMIT before its call is written. */
const LIFT_FOR_CHARS = 4 * 2 ** 20;

const mkdirAsync = promisify(mkdir);

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
  return typedKind(kind, rows.every((r) => keepsTyped(kind, r[name])));
}

/** Whether a value leaves its column typed: NULL, or a value of the column's kind (number or boolean). */
function keepsTyped(kind: ColumnKind, value: Row[string]): boolean {
  return value === null || value === undefined || (kind === "number" ? typeof value === "number" : kind === "boolean" && typeof value === "boolean");
}

/** A column's staging, given whether every value of the batch left it typed. */
function typedKind(kind: ColumnKind, typed: boolean): StageKind {
  return typed && kind === "number" ? "double" : typed && kind === "boolean" ? "boolean" : "text";
}

const STAGE_TYPES = { double: DOUBLE, boolean: BOOLEAN, text: VARCHAR } as const;
const STAGE_SQL_TYPES = { double: "DOUBLE", boolean: "BOOLEAN", text: "VARCHAR" } as const;
/** Rows per data chunk: DuckDB's vector size (the most a chunk holds). */
const CHUNK_ROWS = 2048;

/** Separates a packed column's values; a value that is only NULL_MARK is NULL. */
const SEPARATOR = "\u001e";
const NULL_MARK = "\u001f";
/**
 * A packed column (all its values joined) at most this long, in UTF-16 units; a longer one (huge e-mail bodies)
 * goes through the appender (a temporary table, then an INSERT from it).
 */
const PACKED_MAX_CHARS = 8 * 2 ** 20;

/**
 * The batch as one text per column, values joined by SEPARATOR, NULL as NULL_MARK (numbers and booleans as
 * their text, which the INSERT casts back), how each column is staged (as stageKind answers), and the length of
 * its longest text value. `packed` is null when a value holds SEPARATOR or is NULL_MARK itself, or a column would
 * be longer than PACKED_MAX_CHARS: that batch goes through the appender (and `longest` is not known).
 */
function packColumns(columns: Map<string, ColumnKind>, batch: Row[]): { staged: { name: string; kind: StageKind }[]; packed: string[] | null; longest: number } {
  const staged: { name: string; kind: StageKind }[] = [];
  const packed: string[] = [];
  let longest = 0;
  // Joined once per column: adding each value to the text made two short-lived strings per value.
  const items = new Array<string>(batch.length);
  for (const [name, kind] of columns) {
    // The column's staging is decided in this pass (stageKind would make another).
    let typed = true;
    let length = batch.length - 1;
    for (let i = 0; i < batch.length; i++) {
      const value = batch[i]![name];
      if (typed && !keepsTyped(kind, value)) typed = false;
      let item: string;
      if (value === null || value === undefined) item = NULL_MARK;
      else if (typeof value === "number") item = Object.is(value, -0) ? "-0" : String(value);
      else if (typeof value === "boolean") item = String(value);
      else {
        item = typeof value === "string" ? value : String(scalar(value));
        // Only a whole value NULL_MARK reads back as NULL (NULLIF); a separator anywhere would split the value.
        if (item === NULL_MARK || item.includes(SEPARATOR)) return { staged: stagedKinds(columns, batch), packed: null, longest: 0 };
        if (item.length > longest) longest = item.length;
      }
      items[i] = item;
      length += item.length;
      if (length > PACKED_MAX_CHARS) return { staged: stagedKinds(columns, batch), packed: null, longest: 0 };
    }
    staged.push({ name, kind: typedKind(kind, typed) });
    packed.push(items.join(SEPARATOR));
  }
  return { staged, packed, longest };
}

/** How each column of the batch is staged (stageKind), for a batch that is not packed. */
function stagedKinds(columns: Map<string, ColumnKind>, batch: Row[]): { name: string; kind: StageKind }[] {
  return [...columns].map(([name, kind]) => ({ name, kind: stageKind(name, kind, batch) }));
}

/** The longest text value of the batch's text columns, in UTF-16 units. */
function longestText(staged: { name: string; kind: StageKind }[], batch: Row[]): number {
  let longest = 0;
  for (const column of staged) {
    if (column.kind !== "text") continue;
    for (const row of batch) {
      const value = row[column.name];
      if (typeof value === "string" && value.length > longest) longest = value.length;
      else if (value !== null && value !== undefined && typeof value === "object" && !(value instanceof Date)) longest = Math.max(longest, String(scalar(value)).length);
    }
  }
  return longest;
}

/**
 * The INSERT of packed columns into the warehouse table: DuckDB splits each text back into its values, on its own
 * thread (an appender's per-value calls and flush run on the event loop's), casts numbers and booleans back, and
 * the INSERT casts every value to its column's type. Columns of the table that the batch lacks are NULL.
 */
function packedInsert(table: string, staged: { name: string; kind: StageKind }[]): string {
  const values = staged.map((c, i) => {
    const value = `NULLIF(v${i}, chr(${NULL_MARK.charCodeAt(0)}))`;
    return c.kind === "text" ? value : `CAST(${value} AS ${STAGE_SQL_TYPES[c.kind]})`;
  });
  const split = staged.map((_, i) => `unnest(string_split($${i + 1}, chr(${SEPARATOR.charCodeAt(0)}))) AS v${i}`);
  return `INSERT INTO ${q(table)} (${staged.map((c) => q(c.name)).join(", ")}) SELECT ${values.join(", ")} FROM (SELECT ${split.join(", ")})`;
}

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

/**
 * One DuckDB instance per warehouse file in this process. Two instances of one
 * file in a process do not see each other's writes (and would corrupt it), while
 * DuckDB's file lock only keeps other processes out: a sync, a transform run
 * and the API's reads in one process must share an instance. Each writer opens
 * its connections on it; the last writer to close releases the file.
 *
 * The entry also holds the file's write lock: one writer at a time has write transactions open on the file (every
 * process that writes the file holds this instance). A transaction's DELETE of replaced keys sees only rows
 * committed before it began, so two writers' transactions must not overlap, or both could insert one key.
 */
interface SharedInstance {
  instance: Promise<DuckDBInstance>;
  users: number;
  /** The writer whose transactions are open, if any, and the writers waiting to open theirs, in order. */
  lock: { owner?: LocalWriter; waiting: { writer: LocalWriter; granted: () => void }[] };
  /**
   * DuckDB's own memory limit, read when the instance is made (before any writer sets WRITE_MEMORY_LIMIT), so
   * that it can be put back: RESET memory_limit changes the setting but not the limit its buffer pool enforces.
   */
  memoryLimit: string;
  /** Commits running on the file: a read waits for them (it sees what was given before it, by any writer). */
  committing: Set<Promise<unknown>>;
}
const instances = new Map<string, SharedInstance>();
/**
 * Warehouse files a write ran out of memory on, under WRITE_MEMORY_LIMIT, in this process: later writes to them run
 * without it, even after every writer has let the file go (the sync retries the run that failed).
 */
const needsMemory = new Set<string>();

/**
 * An instance made ahead of the file it will open (keepSpareInstance): a worker process keeps one, so that a sync or
 * a transform run does not wait for DuckDB to make its catalog (7 ms alone, 13–15 ms in a fresh process, two or three
 * times that while a sync keeps both cores busy). The next file to open takes it; a new one is made when an instance is
 * let go, after the run that used it.
 */
let spare: Promise<DuckDBInstance> | undefined;
let keepSpare = false;

function newInstance(): Promise<DuckDBInstance> {
  // Every file's instance is an in-memory database that attaches the file (see acquireInstance).
  return DuckDBInstance.create(":memory:", { checkpoint_threshold: CHECKPOINT_THRESHOLD });
}

function makeSpare(): Promise<DuckDBInstance> {
  const made = newInstance().then(async (instance) => {
    // An instance's first catalog query binds DuckDB's information_schema views (20–37 ms, ~5 ms for the next): a
    // sync's first table check would wait for it. Run once here, on the instance's own in-memory database.
    try {
      const connection = await instance.connect();
      try {
        await describeTable(connection, "tributary_spare");
      } finally {
        connection.closeSync();
      }
    } catch {
      // Only a head start: the first run's query binds them instead.
    }
    return instance;
  });
  spare = made;
  made.catch(() => {
    if (spare === made) spare = undefined;
  });
  return made;
}

/** Keeps an instance made ahead in this process from now on (a worker process, at boot); resolves once it is made. */
export async function keepSpareInstance(): Promise<void> {
  keepSpare = true;
  await (spare ?? makeSpare());
}

/** The spare instance if there is one (a new one if it could not be made), else a new one. */
function takeInstance(): Promise<DuckDBInstance> {
  const taken = spare;
  spare = undefined;
  return taken ? taken.catch(() => newInstance()) : newInstance();
}

async function acquireInstance(file: string): Promise<SharedInstance> {
  let entry = instances.get(file);
  if (!entry) {
    const created: SharedInstance = {
      // ATTACH is where DuckDB takes a row group size (ROW_GROUP_ROWS); every connection then USEs the file.
      instance: takeInstance(),
      users: 0,
      lock: { waiting: [] },
      memoryLimit: "",
      committing: new Set(),
    };
    created.instance = created.instance.then(async (instance) => {
      try {
        const connection = await instance.connect();
        try {
          await connection.run(`ATTACH '${file.replaceAll("'", "''")}' AS ${WAREHOUSE_ALIAS} (ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`);
          created.memoryLimit = String((await connection.runAndReadAll("SELECT current_setting('memory_limit')")).getRows()[0]![0]);
        } finally {
          connection.closeSync();
        }
        return instance;
      } catch (error) {
        instance.closeSync();
        throw error;
      }
    });
    instances.set(file, created);
    created.instance.catch(() => {
      if (instances.get(file) === created) instances.delete(file);
    });
    entry = created;
  }
  entry.users++;
  try {
    await entry.instance;
    return entry;
  } catch (error) {
    entry.users--;
    throw error;
  }
}

/** A connection to the attached warehouse file (its tables are those its statements name unqualified). */
async function connectTo(shared: SharedInstance): Promise<DuckDBConnection> {
  const connection = await (await shared.instance).connect();
  try {
    await connection.run(`USE ${WAREHOUSE_ALIAS}`);
    return connection;
  } catch (error) {
    connection.closeSync();
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
  if (keepSpare && !spare) makeSpare();
}

/** A table written in a lane's transaction. */
interface LaneTable {
  staged: { name: string; kind: StageKind }[];
  columns: Map<string, ColumnKind>;
  key: string[];
  /** The highest rowid committed when the transaction first wrote the table (-1: none). Its own rows come after. */
  before: bigint;
  rows: number;
  /** Hashes (keyHash) of the keys written (as text, as latestPerKey compares them), when rows are held across calls. */
  keys?: KeySet;
  /** The INSERT of packed columns into the table, once prepared. */
  insert?: DuckDBPreparedStatement;
  /**
   * The table's last insert, settled or not (never rejected): a bulk writer's call returns while it runs (see
   * `stage`). A table's rows are inserted one call after the other (one prepared statement per table).
   */
  inserting?: Promise<void>;
}

/** A table's columns in order, with their DuckDB types. */
type TableColumns = { name: string; type: string }[];

/** The table's columns (none when it does not exist), and whether it has a key constraint. */
async function describeTable(db: DuckDBConnection, table: string): Promise<{ columns: TableColumns; keyed: boolean }> {
  const result = await db.runAndReadAll(
    "SELECT column_name, data_type, (SELECT count(*) FROM duckdb_constraints() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $1 AND constraint_type IN ('PRIMARY KEY', 'UNIQUE'))::INT FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = 'main' AND table_name = $1 ORDER BY ordinal_position",
    [table],
  );
  const rows = result.getRows();
  return { columns: rows.map((r) => ({ name: String(r[0]), type: String(r[1]) })), keyed: rows.length > 0 && Number(rows[0]![2]) > 0 };
}

const sameShape = (table: LaneTable, staged: LaneTable["staged"], key: string[]) =>
  table.staged.length === staged.length &&
  table.staged.every((c, i) => c.name === staged[i]!.name && c.kind === staged[i]!.kind) &&
  table.key.join("\u0000") === key.join("\u0000");

export interface LocalWriterOptions {
  /**
   * Rows to gather (over upsertRows calls) in one transaction before it commits; 0, the default, commits each
   * call's rows before it returns. See `BULK_ROWS`.
   */
  holdRows?: number;
}

/**
 * What the sync engine gathers in one transaction: four row groups (ROW_GROUP_ROWS), so that every commit but the
 * last writes whole ones. Rows committed in smaller transactions go through the WAL and are written a second time at
 * the checkpoint, and each commit deletes the keys it replaces with a scan of the table. Measured on 2.1M transcript
 * lines (with DuckDB's own row group, 122,880 rows): 4,280 rows per merge took 13 s of DuckDB time, 122,880 rows per
 * merge 5 s (61,440: 7 s); with 32,768-row groups, 65,536 rows per transaction 7.0 s, 131,072 rows 6.8 s.
 */
export const BULK_ROWS = 4 * ROW_GROUP_ROWS;

/**
 * Records per batch that a writer holding rows asks the sync engine for. Its commits do not follow the batches,
 * so a batch only sets how much of the run the JavaScript heap holds at once: the batch being written and the
 * next one being read. Smaller batches die young, before V8 copies them out of its young generation. Measured
 * (bench/sync.ts on tmpfs), 50 meetings per batch against 200: peak RSS at 100× 331 against 392 MiB, at 1× 245
 * against 256 MiB (growth 1.35× against 1.53×); lines/s the same within the runs' noise.
 */
export const BULK_BATCH_RECORDS = 50;

/**
 * A connection and its write transaction. A writer that holds rows has two: while one lane's transaction
 * commits in the background, the next rows are written in the other's.
 */
interface Lane {
  connection?: DuckDBConnection;
  /** BEGIN has run: rows are written in this lane's transaction. */
  open: boolean;
  /** The writer's commits when this lane's transaction began (a later commit is one it does not see). */
  openedAt: number;
  /** Tables written in the transaction (in the order first written). */
  pending: Map<string, LaneTable>;
  rows: number;
  /**
   * The transaction created a table or added columns (a rollback makes the writer read columns again). A bulk writer
   * commits such a transaction before any other begins (see `stage`), so no lane waits for one.
   */
  ddl: boolean;
  /** This lane's commit running in the background, if any (its error comes out when it is awaited). */
  merging?: Promise<void>;
  /** An insert failed in this lane: its transaction is rolled back before the lane is used again. */
  broken: boolean;
  /**
   * The key hashes of this lane's last commit, per table, and the writer's commit count after it: a transaction of
   * the other lane that began before that commit does not see those rows, so it must not take their keys.
   */
  committed?: { keys: Map<string, KeySet>; at: number };
}

// Every field from the start: a field added later changes the object's map, and V8 throws away (and compiles again)
// the optimised code of the functions that relied on it (\`stage\`, the largest, was compiled three times in a sync).
const newLane = (): Lane => ({ connection: undefined, open: false, openedAt: 0, pending: new Map(), rows: 0, ddl: false, merging: undefined, broken: false, committed: undefined });

export class LocalWriter implements DestinationWriter {
  private shared?: SharedInstance;
  /** Lane 0's connection also runs this writer's reads. */
  private readonly lanes: [Lane, Lane] = [newLane(), newLane()];
  /** The lane rows are written in. */
  private current = 0;
  /** Transactions this writer has committed. */
  private commits = 0;
  /** Each table's columns in order with their types, as last read or written by this writer. */
  private readonly tables = new Map<string, TableColumns>();
  /** Tells this writer's temporary files (and tables) apart from another writer's. */
  private readonly tag = randomBytes(6).toString("hex");
  private sequence = 0;
  /** DuckDB is set for writing (WRITE_THREADS, WRITE_MEMORY_LIMIT) rather than for reading. */
  private writing = false;
  /** WRITE_MEMORY_LIMIT is in force (set with `writing`, lifted when a value needs more). */
  private memoryLimited = false;
  /** Files go through the file writer thread and rows through DuckDB's connection: a batch can write both at once. */
  readonly concurrentWrites = true;
  /** Calls run one at a time (a connection runs one transaction or query at a time): calls made meanwhile wait their turn. */
  private turn: Promise<unknown> = Promise.resolve();
  private readonly holdRows: number;
  /** A writer that holds rows asks for small batches (BULK_BATCH_RECORDS); one that commits each call does not. */
  readonly batchRecords?: number;
  /** An error of a commit this writer began for a writer waiting for the file (see `yieldFile`): thrown by its next call. */
  private failure?: unknown;

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work);
    this.turn = result.catch(() => {});
    return result;
  }

  private readonly file: string;

  constructor(
    readonly root: string,
    options: LocalWriterOptions = {},
  ) {
    this.file = path.resolve(root, WAREHOUSE_FILE);
    this.holdRows = Math.max(0, options.holdRows ?? 0);
    if (this.holdRows > 0) this.batchRecords = BULK_BATCH_RECORDS;
  }

  /** Creates the folders and the warehouse file (idempotent). */
  async prepare(): Promise<void> {
    try {
      await mkdirAsync(path.join(this.root, FILES_DIR), { recursive: true });
      await this.db();
    } catch (error) {
      throw localFailure(error, this.root);
    }
  }

  /** The lane's connection (lane 0's by default), opened on first use on the file's shared instance. */
  private async db(lane: Lane = this.lanes[0]): Promise<DuckDBConnection> {
    if (!this.shared) {
      await mkdirAsync(this.root, { recursive: true });
      const shared = await acquireInstance(this.file);
      try {
        this.lanes[0].connection = await connectTo(shared);
      } catch (error) {
        await releaseInstance(this.file);
        throw error;
      }
      this.shared = shared;
    }
    lane.connection ??= await connectTo(this.shared);
    return lane.connection;
  }

  /**
   * Each object is written to a temporary sibling then renamed over its path (on the file writer thread:
   * file-writer.ts), so a reader (or a crash) never sees half a file, and a path written twice holds the
   * later body.
   */
  async writeObjects(objects: DestinationObject[]): Promise<void> {
    const files = path.join(this.root, FILES_DIR);
    // A checked path has no empty, "." or ".." segment: joined as it is (path.join normalised each one again).
    const targets = objects.map((object) => {
      const relative = checkObjectPath(object.path);
      return { target: files + path.sep + (path.sep === "/" ? relative : relative.split("/").join(path.sep)), body: object.body };
    });
    // A path given twice in one call: only its last body is written (as if written in order).
    const last = new Map(targets.map((t) => [t.target, t]));
    await writeFiles(this.tag, [...last.values()]).catch((error: unknown) => {
      throw localFailure(error, this.root);
    });
  }

  /**
   * Rows are inserted straight into the warehouse table, in a transaction; when it commits, the rows it found
   * committed whose key it wrote are deleted first. An error anywhere rolls the transaction back, so each table is
   * either as before or holds every row given. Every column of the table is written (one the batch lacks is NULL),
   * so a replaced row keeps nothing of the old one. A key given twice keeps its last row.
   *
   * When the writer holds rows (`holdRows`), a call returns once its rows are inserted. Once `holdRows` rows are in
   * the transaction, it commits in the background and the next rows go into a transaction on the other lane; a
   * commit waits for the one before it, so rows are committed in the order given. flush(), query() and close()
   * commit what is held and wait for every commit; a commit's error comes out there, or at the call that next needs
   * its lane. Otherwise each call's rows are committed before it returns.
   */
  async upsertRows(table: string, rows: Row[], key: string[]): Promise<void> {
    checkName("table", table);
    if (key.length === 0) throw new Error("upsertRows needs at least one key column");
    key.forEach((k) => checkName("column", k));
    if (rows.length === 0) return;
    for (const row of rows) for (const k of key) if (row[k] === null || row[k] === undefined) throw new Error(`Row without key column ${k}`);
    const columns = columnsOf(rows);
    // A bulk writer keeps a hash of each key it holds: when a call's hashes differ (as a sync's keys do), its keys
    // are distinct, and no map of them is needed.
    let batch = rows;
    let hashes = this.holdRows > 0 ? keyHashes(rows, key) : undefined;
    if (!hashes || !KeySet.distinct(hashes)) {
      batch = latestPerKey(rows, key);
      if (hashes && batch !== rows) hashes = keyHashes(batch, key);
    }
    try {
      const { inserted } = await this.exclusive(async () => {
        this.rethrowFailure();
        const call = await this.stage(table, columns, batch, key, hashes);
        const lane = this.lanes[this.current];
        if (this.holdRows === 0) await this.mergeLane(lane);
        else if (lane.rows >= this.holdRows) await this.rotate();
        return call;
      });
      // A bulk writer's rows may still be going in: the next call (another table of the batch) starts meanwhile.
      await inserted;
    } catch (error) {
      throw localFailure(error, this.root);
    }
  }

  /** Commits every row held so far and waits for every commit (a writer that holds rows); nothing to do otherwise. */
  flush(): Promise<void> {
    return this.exclusive(async () => {
      this.rethrowFailure();
      await this.mergeAll();
    }).catch((error: unknown) => {
      throw localFailure(error, this.root);
    });
  }

  private rethrowFailure(): void {
    const failure = this.failure;
    if (failure === undefined) return;
    this.failure = undefined;
    throw failure;
  }

  /** Starts committing the current lane in the background and writes on the other, once its own commit has ended. */
  private async rotate(): Promise<void> {
    const full = this.lanes[this.current];
    full.merging = this.mergeLane(full);
    full.merging.catch(() => {}); // awaited later, by settle
    this.current = 1 - this.current;
    await this.settle(this.lanes[this.current]);
  }

  /** Waits for the lane's background commit, if any; throws its error. */
  private async settle(lane: Lane): Promise<void> {
    const merging = lane.merging;
    lane.merging = undefined;
    await merging;
  }

  /** Commits the current lane and waits for the other's commit (which started first and commits first); throws the first error. */
  private async mergeAll(): Promise<void> {
    const lane = this.lanes[this.current];
    const mine = this.mergeLane(lane);
    mine.catch(() => {});
    let failure: unknown;
    try {
      await this.settle(this.lanes[1 - this.current]);
    } catch (error) {
      failure = error;
    }
    try {
      await mine;
    } catch (error) {
      failure ??= error;
    }
    if (failure !== undefined) throw failure;
  }

  /** Takes the file's write lock for this writer (re-entrant across its lanes), waiting behind writers that asked first. */
  private async lockFile(): Promise<void> {
    const lock = this.shared!.lock;
    if (lock.owner === this) return;
    if (!lock.owner && lock.waiting.length === 0) {
      lock.owner = this;
      return;
    }
    await new Promise<void>((granted) => {
      lock.waiting.push({ writer: this, granted });
      lock.owner?.yieldFile();
    });
  }

  /** Lets go of the file's write lock once neither lane has a transaction open; the next waiting writer takes it. */
  private unlockFile(): void {
    const lock = this.shared?.lock;
    if (!lock || lock.owner !== this || this.lanes.some((lane) => lane.open)) return;
    const next = lock.waiting.shift();
    lock.owner = next?.writer;
    next?.granted();
  }

  /**
   * Another writer waits for the file: commit what this writer holds as soon as its current call is done, rather
   * than when its transaction fills (a slow source could keep it open for minutes). Its error comes out at this
   * writer's next call.
   */
  private yieldFile(): void {
    void this.exclusive(async () => {
      try {
        await this.mergeAll();
      } catch (error) {
        this.failure ??= error;
      }
    });
  }

  /** Opens the lane's transaction if it is not open: with the file's lock, after any other lane's table-making commit. */
  private async openLane(lane: Lane, db: DuckDBConnection): Promise<void> {
    if (lane.open) return;
    const other = this.lanes[this.lanes[0] === lane ? 1 : 0];
    // A writer that commits each call has the other lane's commit done first.
    if (!this.holdRows) await this.settle(other);
    // Behind other writers that wait for the file: this writer's other lane commits first, then the lock is handed on.
    const lock = this.shared!.lock;
    if (lock.owner === this && lock.waiting.length > 0) {
      await this.settle(other);
      this.unlockFile();
    }
    await this.lockFile();
    try {
      await db.run("BEGIN TRANSACTION");
    } catch (error) {
      this.unlockFile();
      throw error;
    }
    lane.open = true;
    lane.openedAt = this.commits;
    lane.ddl = false;
  }

  /**
   * Inserts a call's rows in the current lane's transaction. A writer that commits each call waits until they
   * are in. A bulk writer (holdRows) only starts the insert and answers the promise of it: DuckDB inserts them on
   * its own thread while the next call (the batch's next table, on the same connection, which DuckDB runs in turn)
   * is prepared, instead of each call waiting for the event loop to pick up the one before. A table's next rows
   * wait for its previous ones. A failed insert rejects its call, and the lane's transaction is rolled back before
   * the lane is used again (as when a commit fails).
   */
  private async stage(table: string, columns: Map<string, ColumnKind>, batch: Row[], key: string[], ids?: number[]): Promise<{ inserted: Promise<void> }> {
    if (!this.writing) {
      const db = await this.db();
      const limited = !needsMemory.has(this.file);
      // Another writer may have set the write limit on the instance: a file that needs more memory puts DuckDB's own back.
      await db.run(`SET threads = ${WRITE_THREADS}; SET memory_limit = '${limited ? WRITE_MEMORY_LIMIT : this.shared!.memoryLimit}'`);
      this.writing = true;
      this.memoryLimited = limited;
    }
    const { staged, packed, longest } = packColumns(columns, batch);
    // A bulk writer makes a table (or its new columns) in a transaction of its own, committed before any row goes in.
    // Its rows' transactions then never wait for one that made a table, and a table a sync makes is still empty when
    // its first rows commit: DuckDB then writes them as row groups of the table, where rows committed into a table
    // that holds some (fewer than a row group) wait for a checkpoint. A table that exists with every column needs no
    // such transaction (readColumns). Measured (bench/sync.ts, tmpfs) against committing the table-making
    // transaction at its first 4,096 rows: median lines/s at 1× 65.6k → 70.5k (16 pairs), at 10× 147k → 151k (5).
    if (this.holdRows > 0 && !this.ready(table, columns) && !(await this.readColumns(table, columns))) {
      await this.mergeAll();
      const ddlLane = this.lanes[this.current];
      const ddlDb = await this.db(ddlLane);
      await this.openLane(ddlLane, ddlDb);
      try {
        await this.ensureTable(ddlDb, ddlLane, table, columns);
      } catch (error) {
        await this.discard(ddlLane);
        throw error;
      }
      await this.mergeLane(ddlLane);
    }
    let lane = this.lanes[this.current];
    await lane.pending.get(table)?.inserting;
    if (lane.broken) await this.drain(lane);
    const other = this.lanes[1 - this.current];
    // A key written already (its later row must win) is deleted only by a transaction that began after the one
    // holding it committed; a table or column to make is made while no other transaction of this writer is open.
    const holds = (keys?: KeySet) => keys !== undefined && ids!.some((id) => keys.has(id));
    const repeated =
      ids !== undefined &&
      (holds(lane.pending.get(table)?.keys) ||
        holds(other.pending.get(table)?.keys) ||
        (lane.open && other.committed !== undefined && other.committed.at > lane.openedAt && holds(other.committed.keys.get(table))));
    const needsDdl = !this.ready(table, columns);
    const otherBusy = other.open || other.merging !== undefined;
    // Rows of another key: its commit deletes by one key per table.
    const rekeyed = lane.pending.has(table) && lane.pending.get(table)!.key.join("\u0000") !== key.join("\u0000");
    if (repeated || rekeyed || (needsDdl && (otherBusy || (lane.open && lane.openedAt !== this.commits)))) {
      await this.mergeAll();
      lane = this.lanes[this.current];
    }
    let pending = lane.pending.get(table);
    // Rows of another shape: a statement of their own.
    if (pending && !sameShape(pending, staged, key)) {
      pending.insert?.destroySync();
      pending.insert = undefined;
      pending.staged = staged;
    }
    const db = await this.db(lane);
    await this.openLane(lane, db);
    if (!pending) {
      if (!this.ready(table, columns)) await this.ensureTable(db, lane, table, columns);
      const before = await db.runAndReadAll(`SELECT coalesce(max(rowid), -1)::BIGINT FROM ${q(table)}`);
      pending = { staged, columns, key, before: BigInt(before.getRows()[0]![0] as bigint), rows: 0, keys: ids ? new KeySet() : undefined, insert: undefined, inserting: undefined };
      lane.pending.set(table, pending);
    } else if (needsDdl) {
      await this.ensureTable(db, lane, table, columns);
      pending.insert?.destroySync();
      pending.insert = undefined;
    }
    if (this.memoryLimited && (packed ? longest : longestText(staged, batch)) >= LIFT_FOR_CHARS) await this.liftLimit(db);
    const target = pending;
    const insert = async () => {
      if (packed) {
        // Prepared once per table and shape: db.run(sql, values) takes three trips to DuckDB's threads, each
        // waiting for the event loop (busy reading the next batch) to pick up its answer.
        target.insert ??= await db.prepare(packedInsert(table, staged));
        target.insert.bind(packed);
        await target.insert.run();
        return;
      }
      // A value holding a separator, or a column too long to pack: appended to a temporary table, then inserted.
      const temp = `tributary_append_${this.tag}_${(this.sequence++).toString(36)}`;
      await db.run(`CREATE TEMP TABLE ${temp} (${staged.map((c) => `${q(c.name)} ${STAGE_SQL_TYPES[c.kind]}`).join(", ")})`);
      const appender = await db.createAppender(temp, "main", "temp");
      try {
        appendChunks(appender, staged, batch);
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
      const names = staged.map((c) => q(c.name)).join(", ");
      await db.run(`INSERT INTO ${q(table)} (${names}) SELECT ${names} FROM temp.main.${temp}; DROP TABLE temp.main.${temp}`);
    };
    const inserting = this.runInLane(insert);
    target.rows += batch.length;
    lane.rows += batch.length;
    if (ids) for (const id of ids) target.keys!.add(id);
    if (this.holdRows === 0) {
      try {
        await inserting;
      } catch (error) {
        // The transaction is aborted: every row of the lane is dropped, as a failed commit drops them.
        await this.discard(lane);
        throw error;
      }
      return { inserted: Promise.resolve() };
    }
    const failed = inserting.catch((error: unknown) => {
      lane.broken = true;
      throw error;
    });
    target.inserting = failed.catch(() => {});
    // In an object: an async function answering a promise would wait for it.
    return { inserted: failed };
  }

  /**
   * Runs a write in a lane's transaction. DuckDB aborts a transaction on any error, so a write that ran out of
   * memory cannot be run again there: later writes to the file run without WRITE_MEMORY_LIMIT, and the error goes
   * to the caller (the sync retries the run).
   */
  private async runInLane(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (isOutOfMemory(error)) needsMemory.add(this.file);
      throw error;
    }
  }

  /** Lifts WRITE_MEMORY_LIMIT for the rest of this writer's writes (for the whole instance, until a read puts DuckDB's own back). */
  private async liftLimit(db: DuckDBConnection): Promise<void> {
    this.memoryLimited = false;
    await db.run(`SET memory_limit = '${this.shared!.memoryLimit}'`);
  }

  /**
   * Waits for every insert in the lane (nothing new goes in meanwhile: callers hold the writer's turn, or the lane
   * is no longer the current one); rolls the lane back if one of them failed.
   */
  private async drain(lane: Lane): Promise<void> {
    await Promise.all([...lane.pending.values()].map((p) => p.inserting));
    if (!lane.broken) return;
    await this.discard(lane);
  }

  /** Rolls the lane's transaction back and forgets what it held. */
  private async discard(lane: Lane): Promise<void> {
    this.lanes[this.lanes[0] === lane ? 1 : 0].committed = undefined;
    for (const pending of lane.pending.values()) pending.insert?.destroySync();
    const made = lane.ddl;
    lane.pending.clear();
    lane.rows = 0;
    lane.broken = false;
    lane.ddl = false;
    if (lane.open) await lane.connection?.run("ROLLBACK").catch(() => {});
    lane.open = false;
    // The tables or columns it made are gone: read them again next time.
    if (made) this.tables.clear();
    this.unlockFile();
  }

  /** Commits the lane's transaction: first deletes the rows it found committed whose key it wrote. */
  private async mergeLane(lane: Lane): Promise<void> {
    await this.drain(lane);
    if (!lane.open) return;
    const db = await this.db(lane);
    const statements: string[] = [];
    for (const [table, pending] of lane.pending) if (pending.before >= 0n) statements.push(replacedRows(table, pending));
    try {
      const commit = this.runInLane(() => db.run([...statements, "COMMIT"].join("; ")).then(() => {}));
      const committing = this.shared!.committing;
      committing.add(commit);
      try {
        await commit;
      } finally {
        committing.delete(commit);
      }
      this.commits++;
      // Kept only while the other lane's transaction, which began before this commit, is open (it cannot see these
      // rows); and what that lane kept for this one is needed no more. A set of a full transaction's key hashes is
      // ~5 MB of heap, which the collector lets grow by 75% (WORKER_HEAP_GROWING_PERCENT).
      const other = this.lanes[this.lanes[0] === lane ? 1 : 0];
      other.committed = undefined;
      const keys = new Map<string, KeySet>();
      if (other.open && other.openedAt < this.commits) for (const [table, pending] of lane.pending) if (pending.keys) keys.set(table, pending.keys);
      lane.committed = keys.size > 0 ? { keys, at: this.commits } : undefined;
      for (const pending of lane.pending.values()) pending.insert?.destroySync();
      lane.pending.clear();
      lane.rows = 0;
      lane.ddl = false;
      lane.open = false;
      this.unlockFile();
    } catch (error) {
      // The columns may have changed in the rolled-back transaction: read them again next time.
      for (const table of lane.pending.keys()) this.tables.delete(table);
      await this.discard(lane);
      throw error;
    }
  }

  /** The table's columns are known and hold every column of the batch. */
  private ready(table: string, columns: Map<string, ColumnKind>): boolean {
    const known = this.tables.get(table);
    return known !== undefined && [...columns.keys()].every((name) => known.some((c) => c.name.toLowerCase() === name.toLowerCase()));
  }

  /**
   * Creates the table and the batch's new columns (inside the lane's transaction); answers every column of the
   * table in order, with its type. Tables are made without a key constraint: commits replace rows by key
   * themselves, and DuckDB keeps a key's index in memory, as large as the table. A table made by an earlier
   * version with a primary key is made again without it (its rows kept): its key would refuse the insert of a
   * row whose old row is only deleted at commit.
   */
  private async ensureTable(db: DuckDBConnection, lane: Lane, table: string, columns: Map<string, ColumnKind>): Promise<TableColumns> {
    let known = this.tables.get(table);
    if (!known) {
      const definitions = [...columns].map(([name, kind]) => `${q(name)} ${DUCK_TYPES[kind]}`);
      await db.run(`CREATE TABLE IF NOT EXISTS ${q(table)} (${definitions.join(", ")})`);
      const existing = await describeTable(db, table);
      if (existing.keyed) {
        // Rebuilt with the same columns.
        const rebuilt = `tributary_rebuild_${this.tag}`;
        await db.run(`CREATE TABLE ${q(rebuilt)} AS SELECT * FROM ${q(table)}; DROP TABLE ${q(table)}; ALTER TABLE ${q(rebuilt)} RENAME TO ${q(table)}`);
      }
      known = existing.columns;
      lane.ddl = true;
    }
    const names = new Set(known.map((c) => c.name.toLowerCase()));
    const added = [...columns].filter(([name]) => !names.has(name.toLowerCase()));
    for (const [name, kind] of added) await db.run(`ALTER TABLE ${q(table)} ADD COLUMN IF NOT EXISTS ${q(name)} ${DUCK_TYPES[kind]}`);
    if (added.length) lane.ddl = true;
    known = added.length ? [...known, ...added.map(([name, kind]) => ({ name, type: DUCK_TYPES[kind] }))] : known;
    this.tables.set(table, known);
    return known;
  }

  /**
   * Reads the table's columns, when it exists without a key constraint (one made by an earlier version is rebuilt by
   * ensureTable); answers whether it holds every column of the batch, so that there is nothing to make.
   */
  private async readColumns(table: string, columns: Map<string, ColumnKind>): Promise<boolean> {
    const existing = await describeTable(await this.db(this.lanes[this.current]), table);
    if (existing.columns.length === 0 || existing.keyed) return false;
    this.tables.set(table, existing.columns);
    return this.ready(table, columns);
  }

  /** Runs a read query on the warehouse (for checks and the transforms issue). */
  async query(sql: string): Promise<Record<string, unknown>[]> {
    return this.read(sql).catch((error: unknown) => {
      throw localFailure(error, this.root);
    });
  }

  private read(sql: string): Promise<Record<string, unknown>[]> {
    return this.exclusive(async () => {
      this.rethrowFailure();
      // A read sees every row given before it: this writer's held rows are committed first.
      await this.mergeAll();
      const db = await this.db();
      // The query may change a table's columns: read them again next time.
      this.tables.clear();
      if (this.writing) {
        await db.run(`RESET threads; SET memory_limit = '${this.shared!.memoryLimit}'`);
        this.writing = false;
        this.memoryLimited = false;
      }
      // It sees what is committed, once other writers' commits under way have ended (not their open transactions).
      await Promise.allSettled([...this.shared!.committing]);
      const result = await db.runAndReadAll(sql);
      return result.getRowObjectsJson() as Record<string, unknown>[];
    });
  }

  /** Commits what is held (its error comes out here), then lets go of the warehouse. */
  async close(): Promise<void> {
    try {
      await this.exclusive(async () => {
        this.rethrowFailure();
        await this.mergeAll();
      });
    } catch (error) {
      throw localFailure(error, this.root);
    } finally {
      for (const lane of this.lanes) {
        if (lane.open) await lane.connection?.run("ROLLBACK").catch(() => {});
        lane.open = false;
        lane.pending.clear();
        lane.connection?.closeSync();
        lane.connection = undefined;
      }
      this.unlockFile();
      const held = this.shared !== undefined;
      this.shared = undefined;
      if (held) await releaseInstance(this.file);
      this.writing = false;
      this.memoryLimited = false;
      this.tables.clear();
    }
  }
}

/**
 * The key hash of each row. Pushed, not made by map: TurboFan's inlined map makes holey arrays where the builtin makes
 * packed ones, and `KeySet.distinct`, optimized on the one kind, was thrown away at the other.
 */
function keyHashes(rows: Row[], key: string[]): number[] {
  const hashes: number[] = [];
  for (const row of rows) hashes.push(keyHash(rowKey(row, key)));
  return hashes;
}

/**
 * A key's text as a number of 52 bits (two 26-bit multiplicative hashes of its characters), what a bulk writer keeps
 * of each key it holds. A Set of the keys themselves kept every key's text alive: ~20 MB on each lane at a merge's
 * 122,880 keys. A new key whose hash matches a held one (odds of about one in a million over all of a merge's keys)
 * only makes the writer merge what it holds before taking it, as for a key given again.
 */
export function keyHash(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 6) * 0x4000000 + (b >>> 6);
}

/**
 * A set of key hashes (keyHash: whole numbers below 2^52) in one Float64Array with open addressing: what a bulk
 * writer keeps of each key a transaction holds. A Set of numbers kept each hash as a heap object, traced by every
 * collection: ~5 MB of heap per transaction of a sync (122,880 keys), which the collector then let grow by 75%
 * (WORKER_HEAP_GROWING_PERCENT); this is ~2 MB outside the heap.
 */
export class KeySet {
  /** A hash h is stored as h + 1, so that 0 marks an empty slot; at most half the slots are used. */
  private slots: Float64Array;
  size = 0;

  /** Room for `expected` hashes before it grows. */
  constructor(expected = 512) {
    this.slots = new Float64Array(2 ** Math.max(10, Math.ceil(Math.log2(expected * 2))));
  }

  add(hash: number): void {
    if ((this.size + 1) * 2 > this.slots.length) {
      const old = this.slots;
      this.slots = new Float64Array(old.length * 2);
      for (const stored of old) if (stored !== 0) KeySet.place(this.slots, stored);
    }
    if (KeySet.place(this.slots, hash + 1)) this.size++;
  }

  /** Whether the hashes are all different (without a Set, which would make each hash a heap object). */
  static distinct(hashes: number[]): boolean {
    const seen = new KeySet(hashes.length);
    for (const hash of hashes) if (!KeySet.place(seen.slots, hash + 1)) return false;
    return true;
  }

  has(hash: number): boolean {
    const slots = this.slots;
    const mask = slots.length - 1;
    const stored = hash + 1;
    for (let i = stored % 0x40000000 & mask; ; i = (i + 1) & mask) {
      if (slots[i] === stored) return true;
      if (slots[i] === 0) return false;
    }
  }

  /** Puts a stored value in its slot (or the next free one); false when it is there already. */
  private static place(slots: Float64Array, stored: number): boolean {
    const mask = slots.length - 1;
    for (let i = stored % 0x40000000 & mask; ; i = (i + 1) & mask) {
      if (slots[i] === stored) return false;
      if (slots[i] === 0) {
        slots[i] = stored;
        return true;
      }
    }
  }
}

/** DuckDB could not get the memory it needed (under its memory limit). */
function isOutOfMemory(error: unknown): boolean {
  return /out of memory|could not allocate/i.test((error as Error)?.message ?? "");
}

/**
 * The DELETE, at commit, of the rows that were committed before the transaction wrote `table` and whose key it
 * wrote: its own rows have higher rowids (DuckDB numbers a transaction's rows after every committed one).
 */
function replacedRows(table: string, pending: LaneTable): string {
  const keys = pending.key.map(q).join(", ");
  const match = pending.key.map((k) => `${q(table)}.${q(k)} = s.${q(k)}`).join(" AND ");
  // No DISTINCT: a transaction never holds a key twice (a key given again waits for a new one).
  return `DELETE FROM ${q(table)} USING (SELECT ${keys} FROM ${q(table)} WHERE rowid > ${pending.before}) AS s WHERE ${match} AND ${q(table)}.rowid <= ${pending.before}`;
}
