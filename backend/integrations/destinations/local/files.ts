import { rm } from "node:fs/promises";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { checkObjectPath, type DestinationObject } from "../writer.js";

/**
 * Writes the local destination's files on a worker thread, one per process (made on first use; it
 * keeps the process alive only while a job is waiting). Each file is written to a temporary sibling then renamed over its
 * path, so a reader (or a crash) never sees half a file. Jobs run in the order given.
 */
export interface FileJob {
  id: number;
  /** Tells this job's temporary files apart from any other's. */
  tag: string;
  files: { target: string; body: string | Uint8Array }[];
}
export interface FileJobDone {
  id: number;
  error?: { message: string; code?: string };
}

let worker: Worker | undefined;
/** The running thread's first answer (see startFileWriter). */
let ready: Promise<void> | undefined;
let nextId = 0;
let nextTag = 0;
const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

function fail(error: Error) {
  for (const { reject } of waiting.values()) reject(error);
  waiting.clear();
}

function thread(): Worker {
  if (worker) return worker;
  // Plain JavaScript: it needs none of this process's flags (a loader, or --input-type, which a file refuses).
  const made = new Worker(new URL("./file-writer.worker.mjs", import.meta.url), { execArgv: [] });
  made.on("message", (done: FileJobDone) => {
    const job = waiting.get(done.id);
    if (!job) return;
    waiting.delete(done.id);
    if (waiting.size === 0) made.unref();
    if (!done.error) job.resolve();
    else job.reject(Object.assign(new Error(done.error.message), done.error.code ? { code: done.error.code } : {}));
  });
  const lost = (error: Error) => {
    if (worker === made) {
      worker = undefined;
      ready = undefined;
    }
    fail(error);
  };
  made.on("error", lost);
  made.on("exit", (code) => lost(new Error(`The file writer thread stopped (exit code ${code})`)));
  // Referenced only while a job is waiting (see writeFiles). After the listeners: adding a "message"
  // listener refs the worker's port again, which kept a process whose work was done from exiting.
  made.unref();
  worker = made;
  return made;
}

/**
 * Starts the file writer thread if it is not running, unreferenced until a job waits; resolves once the thread has
 * answered (an empty job). A worker process starts it at boot and a LocalWriter on its first files, so that no batch
 * waits for the thread to boot. Rejects if the thread cannot start (the next call tries again).
 */
export function startFileWriter(): Promise<void> {
  // Cleared with the thread it waited for (lost) or when it failed: while set, that thread runs or is starting.
  if (ready) return ready;
  const answered = post("ready", []);
  ready = answered;
  answered.catch(() => {
    if (ready === answered) ready = undefined;
  });
  return answered;
}

/** Writes `files` (absolute targets), each whole or not at all; rejects with the first failure (its OS code kept). */
export function writeFiles(tag: string, files: FileJob["files"]): Promise<void> {
  if (files.length === 0) return Promise.resolve();
  return post(tag, files);
}

function post(tag: string, files: FileJob["files"]): Promise<void> {
  const id = nextId++;
  const job: FileJob = { id, tag: `${tag}-${(nextTag++).toString(36)}`, files };
  return new Promise<void>((resolve, reject) => {
    const writer = thread();
    // A process waiting for its files must stay alive until they are written; an idle thread must not hold it.
    if (waiting.size === 0) writer.ref();
    waiting.set(id, { resolve, reject });
    writer.postMessage(job);
  });
}

/** Writes objects under `folder` (their paths checked first); a path given twice in one call keeps its later body. */
export async function writeObjectFiles(folder: string, tag: string, objects: DestinationObject[]): Promise<void> {
  const last = new Map<string, DestinationObject["body"]>();
  for (const object of objects) last.set(path.join(folder, ...checkObjectPath(object.path).split("/")), object.body);
  await startFileWriter();
  await writeFiles(tag, [...last].map(([target, body]) => ({ target, body })));
}

export const removeFiles = (files: string[]) => Promise.all(files.map((file) => rm(file, { force: true })));
