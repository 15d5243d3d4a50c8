import { mkdir } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { randomBytes } from "node:crypto";
import { BOOLEAN, DOUBLE, DuckDBDataChunk, DuckDBInstance, VARCHAR, type DuckDBAppender, type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBValue } from "@duckdb/node-api";
import { writeFiles } from "./file-writer.js";
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
 * column of the whole table, for the DELETE) and the staged rows stay in memory: the sync's peak grew with
 * the warehouse. With it, those blocks are dropped and staged rows beyond it go to DuckDB's temporary
 * files. Measured at 100× (2.1M lines): peak RSS 480 → 340 MiB, at about the same speed. Staging or a merge
 * that still runs out of memory under it (a huge value) is run once more without it (`unlimitedOnce`).
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
  if (kind === "number" && rows.every((r) => r[name] === null || r[name] === undefined || typeof r[name] === "number")) return "double";
  if (kind === "boolean" && rows.every((r) => r[name] === null || r[name] === undefined || typeof r[name] === "boolean")) return "boolean";
  return "text";
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
 * is staged by the appender, which also knows what to do when a value outgrows DuckDB's memory limit.
 */
const PACKED_MAX_CHARS = 8 * 2 ** 20;

/**
 * The batch as one text per column, values joined by SEPARATOR, NULL as NULL_MARK (numbers and booleans as
 * their text, which the INSERT casts back), or null when a value holds either character or a column would be
 * longer than PACKED_MAX_CHARS: the appender stages that batch.
 */
function packColumns(staged: { name: string; kind: StageKind }[], batch: Row[]): string[] | null {
  const packed: string[] = [];
  for (const column of staged) {
    let text = "";
    for (let i = 0; i < batch.length; i++) {
      const value = batch[i]![column.name];
      let item: string;
      if (value === null || value === undefined) item = NULL_MARK;
      else if (typeof value === "number") item = Object.is(value, -0) ? "-0" : String(value);
      else if (typeof value === "boolean") item = String(value);
      else {
        item = typeof value === "string" ? value : String(scalar(value));
        if (item.includes(SEPARATOR) || item.includes(NULL_MARK)) return null;
      }
      text = i === 0 ? item : text + SEPARATOR + item;
      if (text.length > PACKED_MAX_CHARS) return null;
    }
    packed.push(text);
  }
  return packed;
}

/**
 * The INSERT that stages packed columns: DuckDB splits each text back into its values, on its own thread (an
 * appender's per-value calls and flush run on the event loop's), and casts them to the staging types.
 */
function packedInsert(stage: string, staged: { name: string; kind: StageKind }[]): string {
  const values = staged.map((c, i) => {
    const value = `NULLIF(v${i}, chr(${NULL_MARK.charCodeAt(0)}))`;
    return c.kind === "text" ? value : `CAST(${value} AS ${STAGE_SQL_TYPES[c.kind]})`;
  });
  const split = staged.map((_, i) => `unnest(string_split($${i + 1}, chr(${SEPARATOR.charCodeAt(0)}))) AS v${i}`);
  return `INSERT INTO temp.main.${stage} SELECT ${values.join(", ")} FROM (SELECT ${split.join(", ")})`;
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
 * its own connection on it; the last writer to close releases the file.
 *
 * The entry also orders merges: every process that writes the file holds the
 * instance, so merges that take turns here never interleave their DELETE and
 * INSERT of the same keys (two writers of one key cannot both insert it).
 */
interface SharedInstance {
  instance: Promise<DuckDBInstance>;
  users: number;
  /** The merge running on this file, if any: the next one waits for it. */
  merging: Promise<unknown>;
  /**
   * DuckDB's own memory limit, read when the instance is made (before any writer sets WRITE_MEMORY_LIMIT), so
   * that it can be put back: RESET memory_limit changes the setting but not the limit its buffer pool enforces.
   */
  memoryLimit: string;
}
const instances = new Map<string, SharedInstance>();

async function acquireInstance(file: string): Promise<SharedInstance> {
  let entry = instances.get(file);
  if (!entry) {
    const created: SharedInstance = { instance: DuckDBInstance.create(file, { checkpoint_threshold: CHECKPOINT_THRESHOLD }), users: 0, merging: Promise.resolve(), memoryLimit: "" };
    created.instance = created.instance.then(async (instance) => {
      try {
        const connection = await instance.connect();
        try {
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

async function releaseInstance(file: string): Promise<void> {
  const entry = instances.get(file);
  if (!entry) return;
  entry.users--;
  if (entry.users > 0) return;
  instances.delete(file);
  (await entry.instance.catch(() => null))?.closeSync();
}

/** Runs `work` when the merges before it on the same file have ended. */
function takeTurn<T>(entry: SharedInstance, work: () => Promise<T>): Promise<T> {
  const result = entry.merging.then(work);
  entry.merging = result.catch(() => {});
  return result;
}

/** Rows given to upsertRows and not merged yet: a connection-local TEMP table per warehouse table. */
interface Pending {
  stage: string;
  staged: { name: string; kind: StageKind }[];
  columns: Map<string, ColumnKind>;
  key: string[];
  rows: number;
  /** Hashes (keyHash) of the keys staged (as text, as latestPerKey compares them), when rows are held across calls. */
  keys?: Set<number>;
  /** The INSERT of packed columns into the staging table, once prepared. */
  insert?: DuckDBPreparedStatement;
  /**
   * The last rows staged into this table, settled or not (never rejected): a bulk writer's call returns while
   * they are (see `stage`). A table's rows are staged one call after the other, so this settles after the rest.
   */
  staging?: Promise<void>;
}

/** A table's columns in order, with their DuckDB types. */
type TableColumns = { name: string; type: string }[];

const sameStage = (pending: Pending, staged: Pending["staged"], key: string[]) =>
  pending.staged.length === staged.length &&
  pending.staged.every((c, i) => c.name === staged[i]!.name && c.kind === staged[i]!.kind) &&
  pending.key.join("\u0000") === key.join("\u0000");

export interface LocalWriterOptions {
  /**
   * Rows to gather (over upsertRows calls) before they are merged into the warehouse; 0, the default,
   * merges each call's rows before it returns. See `BULK_ROWS`.
   */
  holdRows?: number;
}

/**
 * What the sync engine gathers before a merge: DuckDB's row group. An INSERT of at least a row group is
 * written straight to the database file (the WAL only records where); smaller ones go through the WAL
 * and are written a second time at the checkpoint. Measured on 2.1M transcript lines: 4,280 rows per
 * merge took 13 s of DuckDB time, 122,880 rows per merge 5 s (61,440: 7 s).
 */
export const BULK_ROWS = 122_880;

/**
 * Records per batch that a writer holding rows asks the sync engine for. Its merges do not follow the batches,
 * so a batch only sets how much of the run the JavaScript heap holds at once: the batch being written and the
 * next one being read. Smaller batches die young, before V8 copies them out of its young generation. Measured
 * (bench/sync.ts on tmpfs), 50 meetings per batch against 200: peak RSS at 100× 331 against 392 MiB, at 1× 245
 * against 256 MiB (growth 1.35× against 1.53×); lines/s the same within the runs' noise.
 */
export const BULK_BATCH_RECORDS = 50;

/**
 * A connection and the rows staged on it (TEMP tables belong to their connection). A writer that holds
 * rows has two: while one lane's rows are merged in the background, the next rows are staged on the other.
 */
interface Lane {
  connection?: DuckDBConnection;
  /** Rows staged and not merged yet, per table (in the order first staged). */
  pending: Map<string, Pending>;
  rows: number;
  /** This lane's merge running in the background, if any (its error comes out when it is awaited). */
  merging?: Promise<void>;
  /** Staging failed on this lane: what it holds is dropped before it is used again. */
  broken: boolean;
}

export class LocalWriter implements DestinationWriter {
  private shared?: SharedInstance;
  /** Lane 0's connection also runs this writer's reads. */
  private readonly lanes: [Lane, Lane] = [
    { pending: new Map(), rows: 0, broken: false },
    { pending: new Map(), rows: 0, broken: false },
  ];
  /** The lane rows are staged on. */
  private current = 0;
  /** Each table's columns in order with their types, as last read or committed by this writer. */
  private readonly tables = new Map<string, TableColumns>();
  /** Tells this writer's temporary files (and staging tables) apart from another writer's. */
  private readonly tag = randomBytes(6).toString("hex");
  private sequence = 0;
  /** DuckDB is set for writing (WRITE_THREADS) rather than for reading. */
  private writing = false;
  /** WRITE_MEMORY_LIMIT is in force (set with `writing`, lifted when a value needs more). */
  private memoryLimited = false;
  /** The lifting of WRITE_MEMORY_LIMIT, once begun (see `unlimitedOnce`). */
  private lifting?: Promise<void>;
  /** Files go through the file writer thread and rows through DuckDB's connection: a batch can write both at once. */
  readonly concurrentWrites = true;
  /** Calls run one at a time (a connection runs one transaction or query at a time): calls made meanwhile wait their turn. */
  private turn: Promise<unknown> = Promise.resolve();
  private readonly holdRows: number;
  /** A writer that holds rows asks for small batches (BULK_BATCH_RECORDS); one that merges each call does not. */
  readonly batchRecords?: number;

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
    await mkdirAsync(path.join(this.root, FILES_DIR), { recursive: true });
    await this.db();
  }

  /** The lane's connection (lane 0's by default), opened on first use on the file's shared instance. */
  private async db(lane: Lane = this.lanes[0]): Promise<DuckDBConnection> {
    if (!this.shared) {
      await mkdirAsync(this.root, { recursive: true });
      const shared = await acquireInstance(this.file);
      try {
        this.lanes[0].connection = await (await shared.instance).connect();
      } catch (error) {
        await releaseInstance(this.file);
        throw error;
      }
      this.shared = shared;
    }
    lane.connection ??= await (await this.shared.instance).connect();
    return lane.connection;
  }

  /**
   * Each object is written to a temporary sibling then renamed over its path (on the file writer thread:
   * file-writer.ts), so a reader (or a crash) never sees half a file, and a path written twice holds the
   * later body.
   */
  async writeObjects(objects: DestinationObject[]): Promise<void> {
    const files = path.join(this.root, FILES_DIR);
    const targets = objects.map((object) => ({ target: path.join(files, ...checkObjectPath(object.path).split("/")), body: object.body }));
    // A path given twice in one call: only its last body is written (as if written in order).
    const last = new Map(targets.map((t) => [t.target, t]));
    await writeFiles(this.tag, [...last.values()]);
  }

  /**
   * Rows are first appended (DuckDB data chunks) to a connection-local TEMP staging table: nothing of
   * the warehouse changes there. A merge then runs, in one transaction for every table staged: the table
   * and any new columns are created, the rows whose key is staged are deleted, and the staged rows are
   * inserted. An error anywhere rolls the transaction back, so each table is either as before or holds
   * every staged row. Every column of the table is written, so a replaced row keeps nothing of the old one.
   * A key given twice keeps its last row.
   *
   * When the writer holds rows (`holdRows`), a call returns once its rows are staged. Once `holdRows` rows
   * are staged, their merge starts in the background and the next rows are staged on the other lane; a
   * merge waits for the one before it, so rows are merged in the order given. flush(), query() and close()
   * merge what is staged and wait for every merge; a merge's error comes out there, or at the call that
   * next needs its lane. Otherwise each call's rows are merged before it returns.
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
    let hashes = this.holdRows > 0 ? rows.map((row) => keyHash(rowKey(row, key))) : undefined;
    if (!hashes || new Set(hashes).size !== hashes.length) {
      batch = latestPerKey(rows, key);
      if (hashes && batch !== rows) hashes = batch.map((row) => keyHash(rowKey(row, key)));
    }
    const { staged } = await this.exclusive(async () => {
      const call = await this.stage(table, columns, batch, key, hashes);
      const lane = this.lanes[this.current];
      if (this.holdRows === 0) await this.mergeLane(lane);
      else if (lane.rows >= this.holdRows) await this.rotate();
      return call;
    });
    // A bulk writer's rows may still be staging: the next call (another table of the batch) starts meanwhile.
    await staged;
  }

  /** Merges every row staged so far and waits for every merge (a writer that holds rows); nothing to do otherwise. */
  flush(): Promise<void> {
    return this.exclusive(() => this.mergeAll());
  }

  /** Starts merging the current lane in the background and stages on the other, once its own merge has ended. */
  private async rotate(): Promise<void> {
    const full = this.lanes[this.current];
    full.merging = this.mergeLane(full);
    full.merging.catch(() => {}); // awaited later, by settle
    this.current = 1 - this.current;
    await this.settle(this.lanes[this.current]);
  }

  /** Waits for the lane's background merge, if any; throws its error. */
  private async settle(lane: Lane): Promise<void> {
    const merging = lane.merging;
    lane.merging = undefined;
    await merging;
  }

  /** Merges the current lane and waits for the other's merge (which started first and merges first); throws the first error. */
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

  /**
   * Stages a call's rows on the current lane. A writer that merges each call waits until they are staged. A
   * bulk writer (holdRows) only starts staging them and answers the promise of their staging: DuckDB stages
   * them on its own thread while the next call (the batch's next table, on the same connection, which DuckDB
   * runs in turn) is prepared, instead of each call waiting for the event loop to pick up the one before. A
   * table's next rows wait for its previous ones; a merge waits for every staging of its lane. A failed staging
   * rejects its call, and everything its lane holds is dropped before the lane is used again (as when a merge
   * fails).
   */
  private async stage(table: string, columns: Map<string, ColumnKind>, batch: Row[], key: string[], ids?: number[]): Promise<{ staged: Promise<void> }> {
    if (!this.writing) {
      const db = await this.db();
      await db.run(`SET threads = ${WRITE_THREADS}; SET memory_limit = '${WRITE_MEMORY_LIMIT}'`);
      this.writing = true;
      this.memoryLimited = true;
    }
    const staged = [...columns].map(([name, kind]) => ({ name, kind: stageKind(name, kind, batch) }));
    let lane = this.lanes[this.current];
    await lane.pending.get(table)?.staging;
    if (lane.broken) await this.drain(lane);
    let pending = lane.pending.get(table);
    // Rows of another shape, or a key staged already (its later row must win): what is staged is merged first.
    if (pending && (!sameStage(pending, staged, key) || ids?.some((id) => pending!.keys?.has(id)))) {
      if (this.holdRows === 0) await this.mergeLane(lane);
      else {
        await this.rotate();
        lane = this.lanes[this.current];
      }
      pending = undefined;
    }
    const db = await this.db(lane);
    if (!pending) {
      const stage = `tributary_stage_${this.tag}_${(this.sequence++).toString(36)}`;
      await db.run(`CREATE TEMP TABLE ${stage} (${staged.map((c) => `${q(c.name)} ${STAGE_SQL_TYPES[c.kind]}`).join(", ")})`);
      pending = { stage, staged, columns, key, rows: 0, keys: ids ? new Set() : undefined };
      lane.pending.set(table, pending);
    }
    const packed = packColumns(staged, batch);
    const append = async () => {
      if (packed) {
        // Prepared once per staging table: db.run(sql, values) takes three trips to DuckDB's threads, each
        // waiting for the event loop (busy reading the next batch) to pick up its answer.
        pending.insert ??= await db.prepare(packedInsert(pending.stage, staged));
        pending.insert.bind(packed);
        await pending.insert.run();
        return;
      }
      const appender = await db.createAppender(pending.stage, "main", "temp");
      try {
        appendChunks(appender, staged, batch);
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    };
    // Staged again after an out-of-memory error without what this batch staged (rows are numbered in the order appended).
    const before = pending.rows;
    const staging = this.unlimitedOnce(db, append, () => db.run(`DELETE FROM temp.main.${pending.stage} WHERE rowid >= ${before}`));
    pending.rows += batch.length;
    lane.rows += batch.length;
    if (ids) for (const id of ids) pending.keys!.add(id);
    if (this.holdRows === 0) {
      try {
        await staging;
      } catch (error) {
        // This batch may be staged in part: every row of the lane is dropped, as a failed merge drops them.
        await this.discard(lane);
        throw error;
      }
      return { staged: Promise.resolve() };
    }
    const failed = staging.catch((error: unknown) => {
      lane.broken = true;
      throw error;
    });
    pending.staging = failed.catch(() => {});
    // In an object: an async function answering a promise would wait for it.
    return { staged: failed };
  }

  /**
   * Waits for every staging on the lane (nothing new is staged on it meanwhile: callers hold the writer's turn,
   * or the lane is no longer the current one); drops what the lane holds if one of them failed.
   */
  private async drain(lane: Lane): Promise<void> {
    await Promise.all([...lane.pending.values()].map((p) => p.staging));
    if (!lane.broken) return;
    await this.discard(lane);
    lane.broken = false;
  }

  /** Drops the lane's staging tables and forgets what was staged there. */
  private async discard(lane: Lane): Promise<void> {
    const stages = [...lane.pending.values()].map((p) => p.stage);
    for (const pending of lane.pending.values()) pending.insert?.destroySync();
    lane.pending.clear();
    lane.rows = 0;
    for (const stage of stages) await lane.connection?.run(`DROP TABLE IF EXISTS temp.main.${stage}`).catch(() => {});
  }

  /** One transaction (taking its turn on the file): every table staged on the lane merged. */
  private async mergeLane(lane: Lane): Promise<void> {
    await this.drain(lane);
    if (lane.pending.size === 0) return;
    const db = await this.db(lane);
    const work = [...lane.pending];
    try {
      await takeTurn(this.shared!, () => this.unlimitedOnce(db, () => this.mergeStaged(db, work)));
    } finally {
      await this.discard(lane);
    }
  }

  /**
   * Runs `work`; when it runs out of memory under WRITE_MEMORY_LIMIT (a value larger than the limit), lifts the
   * limit for the rest of this writer's writes (for the whole instance, until a read puts DuckDB's own back),
   * undoes what the failed attempt left, and runs it once more.
   */
  private async unlimitedOnce(db: DuckDBConnection, work: () => Promise<void>, undo?: () => Promise<unknown>): Promise<void> {
    // Staging calls and a merge may run side by side: one that ran under the limit is retried even if another
    // began lifting it meanwhile, once the lifting is done (retried before, it could run out of memory again).
    const limited = this.memoryLimited;
    try {
      await work();
    } catch (error) {
      if (!isOutOfMemory(error) || !limited) throw error;
      if (this.memoryLimited) {
        this.memoryLimited = false;
        this.lifting = db.run(`SET memory_limit = '${this.shared!.memoryLimit}'`).then(() => {});
      }
      await this.lifting;
      await undo?.();
      await work();
    }
  }

  /** The merge's one transaction, rolled back whole on any error. */
  private async mergeStaged(db: DuckDBConnection, work: [string, Pending][]): Promise<void> {
    try {
      // The common case (every table and its columns known): one round trip for the whole transaction.
      const known = work.every(([table, p]) => this.ready(table, p.columns));
      if (!known) await db.run("BEGIN TRANSACTION");
      const statements: string[] = [];
      for (const [table, p] of work) {
        const columns = known ? this.tables.get(table)! : await this.ensureTable(db, table, p.columns);
        statements.push(...mergeStatements(table, columns, p));
      }
      await db.run(known ? `BEGIN TRANSACTION; ${statements.join("; ")}; COMMIT` : `${statements.join("; ")}; COMMIT`);
    } catch (error) {
      // The columns may have changed in the rolled-back transaction: read them again next time.
      for (const [table] of work) this.tables.delete(table);
      await db.run("ROLLBACK").catch(() => {});
      throw error;
    }
  }

  /** The table's columns are known and hold every column of the batch. */
  private ready(table: string, columns: Map<string, ColumnKind>): boolean {
    const known = this.tables.get(table);
    return known !== undefined && [...columns.keys()].every((name) => known.some((c) => c.name.toLowerCase() === name.toLowerCase()));
  }

  /**
   * Creates the table and the batch's new columns (inside the caller's transaction); answers every column
   * of the table in order, with its type. Tables are made without a key constraint: merges replace rows
   * by key themselves, and DuckDB keeps a key's index in memory, as large as the table (tables made by
   * earlier versions keep their primary key, which merges respect).
   */
  private async ensureTable(db: DuckDBConnection, table: string, columns: Map<string, ColumnKind>): Promise<TableColumns> {
    let known = this.tables.get(table);
    if (!known) {
      const definitions = [...columns].map(([name, kind]) => `${q(name)} ${DUCK_TYPES[kind]}`);
      await db.run(`CREATE TABLE IF NOT EXISTS ${q(table)} (${definitions.join(", ")})`);
      const existing = await db.runAndReadAll(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
        [table],
      );
      known = existing.getRows().map((r) => ({ name: String(r[0]), type: String(r[1]) }));
    }
    const names = new Set(known.map((c) => c.name.toLowerCase()));
    const added = [...columns].filter(([name]) => !names.has(name.toLowerCase()));
    for (const [name, kind] of added) await db.run(`ALTER TABLE ${q(table)} ADD COLUMN IF NOT EXISTS ${q(name)} ${DUCK_TYPES[kind]}`);
    known = added.length ? [...known, ...added.map(([name, kind]) => ({ name, type: DUCK_TYPES[kind] }))] : known;
    this.tables.set(table, known);
    return known;
  }

  /** Runs a read query on the warehouse (for checks and the transforms issue). */
  async query(sql: string): Promise<Record<string, unknown>[]> {
    return this.exclusive(async () => {
      // A read sees every row given before it, and what other writers of the file in this process are merging.
      await this.mergeAll();
      const db = await this.db();
      await this.shared!.merging;
      // The query may change a table's columns: read them again next time.
      this.tables.clear();
      if (this.writing) {
        await db.run(`RESET threads; SET memory_limit = '${this.shared!.memoryLimit}'`);
        this.writing = false;
        this.memoryLimited = false;
      }
      const result = await db.runAndReadAll(sql);
      return result.getRowObjectsJson() as Record<string, unknown>[];
    });
  }

  /** Merges what is staged (its error comes out here), then lets go of the warehouse. */
  async close(): Promise<void> {
    try {
      await this.exclusive(() => this.mergeAll());
    } finally {
      for (const lane of this.lanes) {
        lane.connection?.closeSync();
        lane.connection = undefined;
      }
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

/** DuckDB could not get the memory it needed (under its memory limit). */
function isOutOfMemory(error: unknown): boolean {
  return /out of memory|could not allocate/i.test((error as Error)?.message ?? "");
}

/**
 * The statements that merge a staging table into `table`: delete the rows whose key is staged, insert the
 * staged rows (every column of the table: one the batch lacks is NULL). Staged keys are cast to the
 * table's types, as the INSERT casts every staged value.
 */
function mergeStatements(table: string, columns: TableColumns, pending: Pending): string[] {
  const typeOf = new Map(columns.map((c) => [c.name.toLowerCase(), c.type]));
  const given = new Map([...pending.columns.keys()].map((name) => [name.toLowerCase(), name]));
  const stage = `temp.main.${pending.stage}`;
  const match = pending.key.map((k) => `${q(table)}.${q(k)} = CAST(s.${q(k)} AS ${typeOf.get(k.toLowerCase()) ?? "VARCHAR"})`).join(" AND ");
  const select = columns.map((c) => (given.has(c.name.toLowerCase()) ? q(given.get(c.name.toLowerCase())!) : `NULL AS ${q(c.name)}`));
  return [
    `DELETE FROM ${q(table)} USING ${stage} AS s WHERE ${match}`,
    `INSERT INTO ${q(table)} (${columns.map((c) => q(c.name)).join(", ")}) SELECT ${select.join(", ")} FROM ${stage}`,
  ];
}
