import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import pRetry from "p-retry";
import { LocalDestinationError } from "./errors.js";

/**
 * One DuckDB instance per warehouse file in this process. Two instances of one file in a process do not see each
 * other's writes (and would corrupt it), while DuckDB's file lock only keeps other processes out: a sync, a transform
 * run and the API's reads in one process share an instance. The last writer to let go closes it.
 *
 * Each instance is an in-memory database that ATTACHes the file, so that one can be made before its file is known
 * (keepSpareInstance: a worker process's first run does not wait for DuckDB to start).
 */
/** A writer of the file, asked to commit soon when another waits for the file. */
export interface FileUser {
  yieldFile(): void;
}

export interface SharedWarehouse {
  instance: DuckDBInstance;
  /**
   * One writer at a time has a write transaction open on the file: a commit deletes the older rows of the keys it
   * wrote, which a transaction open beside it would not see (both would insert a key). Waiting writers, in order.
   */
  lock: { owner?: FileUser; waiting: { user: FileUser; granted: () => void }[] };
}

const WAREHOUSE_ALIAS = "warehouse";
/** DuckDB's refusal of a file another process has open (its lock is the process's, for as long as it has it attached). */
const HELD_BY_ANOTHER_PROCESS = /Could not set lock on file/i;

/**
 * How long opening a warehouse file waits while another process (another worker, or the API reading a transform's
 * results) has it open: each process holds it only while it writes or reads, so a sync waits its turn rather than fail.
 */
export function warehouseWaitMs(env: Record<string, string | undefined> = process.env): number {
  const seconds = Number(env.LOCAL_WAREHOUSE_WAIT_SECONDS);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 120) * 1000;
}

/** ATTACHes the file, waiting (with back-off) while another process holds it; past the wait, a sentence says so. */
async function attachWhenFree(instance: DuckDBInstance, file: string): Promise<void> {
  const waitMs = warehouseWaitMs();
  try {
    await pRetry(
      async () => {
        const connection = await instance.connect();
        try {
          await connection.run(`ATTACH '${file.replaceAll("'", "''")}' AS ${WAREHOUSE_ALIAS}`);
        } finally {
          connection.closeSync();
        }
      },
      { retries: Infinity, minTimeout: 50, maxTimeout: 1_000, maxRetryTime: waitMs, shouldRetry: ({ error }) => HELD_BY_ANOTHER_PROCESS.test(error.message) },
    );
  } catch (error) {
    if (!HELD_BY_ANOTHER_PROCESS.test((error as Error).message)) throw error;
    throw new LocalDestinationError(
      `The destination's warehouse was in use by another Tributary process for more than ${Math.round(waitMs / 1000)} seconds (LOCAL_WAREHOUSE_WAIT_SECONDS).`,
      undefined,
      { cause: error },
    );
  }
}
const opening = new Map<string, Promise<SharedWarehouse>>();
let spare: Promise<DuckDBInstance> | undefined;
let keepSpare = false;

/**
 * checkpoint_threshold: a commit of more than this checkpoints at once, and one too large for the WAL writes its rows
 * to the file only (DuckDB's default, 16 MiB, sent a sync's merges through the WAL first, then wrote them again at
 * close). memory_limit and threads: by default DuckDB caches up to 80 % of the machine's memory and buffers more rows
 * per thread, so a process's memory grew with the tables it wrote; past the limit it reads blocks from the file again
 * and spills what it must keep to the temporary folder (acquireWarehouse). One thread: the process's main thread
 * prepares the next batch while DuckDB writes this one.
 */
const newInstance = () => DuckDBInstance.create(":memory:", { checkpoint_threshold: "1MB", memory_limit: "256MB", threads: "1" });

function makeSpare(): Promise<DuckDBInstance> {
  const made = newInstance();
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

function takeInstance(): Promise<DuckDBInstance> {
  const taken = spare;
  spare = undefined;
  return taken ? taken.catch(newInstance) : newInstance();
}

/** Under the staging folder: DuckDB's temporary files, emptied with it when the file is opened. */
const SPILL_DIR = "spill";

/** Where the instance writes what does not fit in its memory_limit (DuckDB's default is a `.tmp` in the working folder). */
async function spillTo(instance: DuckDBInstance, folder: string): Promise<void> {
  const connection = await instance.connect();
  try {
    await connection.run(`SET temp_directory = '${folder.replaceAll("'", "''")}'`);
  } finally {
    connection.closeSync();
  }
}

/** Users counted as they ask (before the instance is ready), so that a release meanwhile does not close it under them. */
const users = new Map<string, number>();

/**
 * The file's shared instance, opened on first use. `staging` is the folder where its writers stage rows: emptied when
 * the file is opened (once it is attached, no other process has it, and no writer here has staged anything yet), so
 * that what a stopped process left there does not pile up.
 */
export async function acquireWarehouse(file: string, staging: string): Promise<SharedWarehouse> {
  let entry = opening.get(file);
  if (!entry) {
    entry = (async () => {
      const instance = await takeInstance();
      try {
        await attachWhenFree(instance, file);
        await rm(staging, { recursive: true, force: true });
        await mkdir(staging, { recursive: true });
        await spillTo(instance, path.join(staging, SPILL_DIR));
      } catch (error) {
        instance.closeSync();
        throw error;
      }
      return { instance, lock: { waiting: [] } };
    })();
    opening.set(file, entry);
  }
  users.set(file, (users.get(file) ?? 0) + 1);
  try {
    return await entry;
  } catch (error) {
    releaseWarehouse(file);
    throw error;
  }
}

/** Lets go of the file; the last user closes its instance (and a worker process makes a spare one again). */
export function releaseWarehouse(file: string): void {
  const left = (users.get(file) ?? 1) - 1;
  if (left > 0) {
    users.set(file, left);
    return;
  }
  users.delete(file);
  const entry = opening.get(file);
  opening.delete(file);
  void entry?.then(
    (shared) => shared.instance.closeSync(),
    () => {},
  );
  if (keepSpare && !spare) makeSpare();
}

/** A connection whose unqualified tables are the warehouse file's. */
export async function connectTo(shared: SharedWarehouse): Promise<DuckDBConnection> {
  const connection = await shared.instance.connect();
  try {
    await connection.run(`USE ${WAREHOUSE_ALIAS}`);
    return connection;
  } catch (error) {
    connection.closeSync();
    throw error;
  }
}

/** Takes the file's write lock (at once when free, else after the writers that asked first; the owner is asked to yield). */
export async function lockFile(shared: SharedWarehouse, user: FileUser): Promise<void> {
  const lock = shared.lock;
  if (lock.owner === user) return;
  if (!lock.owner && lock.waiting.length === 0) {
    lock.owner = user;
    return;
  }
  await new Promise<void>((granted) => {
    lock.waiting.push({ user, granted });
    lock.owner?.yieldFile();
  });
}

/** Hands the file's write lock to the next waiting writer. */
export function unlockFile(shared: SharedWarehouse, user: FileUser): void {
  const lock = shared.lock;
  if (lock.owner !== user) return;
  const next = lock.waiting.shift();
  lock.owner = next?.user;
  next?.granted();
}

/** Whether another writer waits for the file. */
export const fileWanted = (shared: SharedWarehouse) => shared.lock.waiting.length > 0;
