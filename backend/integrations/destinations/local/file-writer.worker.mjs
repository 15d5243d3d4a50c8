// @ts-check
/**
 * The local destination's file writer thread (started by files.ts, which holds the message types):
 * writes each job's files with synchronous calls, one after the other, and answers once all are written
 * or the first one failed. A file that already holds its body (a re-run of a window) is left as it is. A
 * thread of its own keeps these calls off the main thread's event loop, and synchronous calls in a row
 * cost less CPU per file than the thread pool's callbacks (bench/RESULTS.md). Plain JavaScript, so that
 * the thread starts without a TypeScript loader under every runner (tsx, vitest) on Node 20.
 */
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parentPort } from "node:worker_threads";

/** Folders known to exist (so a job makes each folder once). */
const folders = new Set();

/**
 * Whether `target` holds `body` already (a re-run of a window writes the same files again): then it is left as it is.
 * @param {string} target
 * @param {string | Uint8Array} body
 */
function holds(target, body) {
  const size = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  try {
    const stat = statSync(target, { throwIfNoEntry: false });
    if (!stat || !stat.isFile() || stat.size !== size) return false;
    return Buffer.compare(readFileSync(target), typeof body === "string" ? Buffer.from(body) : body) === 0;
  } catch {
    // Not readable as a file (a folder on its path, …): writing it says why.
    return false;
  }
}

/**
 * Writes `body` to `temporary`, then renames it over `target` (unless it holds `body` already); removes the temporary
 * file on failure.
 * @param {string} target
 * @param {string | Uint8Array} body
 * @param {string} temporary
 */
function writeOne(target, body, temporary) {
  if (holds(target, body)) return;
  const folder = path.dirname(target);
  if (!folders.has(folder)) {
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
  }
  try {
    try {
      writeFileSync(temporary, body);
    } catch (error) {
      // The folder was removed since it was made: make it again, once.
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "ENOENT") throw error;
      mkdirSync(folder, { recursive: true });
      writeFileSync(temporary, body);
    }
    renameSync(temporary, target);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // There was no temporary file.
    }
    throw error;
  }
}

parentPort?.on("message", (/** @type {import("./files.js").FileJob} */ job) => {
  /** @type {import("./files.js").FileJobDone} */
  let done;
  try {
    job.files.forEach((file, i) => writeOne(file.target, file.body, `${file.target}.${job.tag}-${i.toString(36)}.tmp`));
    done = { id: job.id };
  } catch (error) {
    const e = /** @type {NodeJS.ErrnoException} */ (error);
    done = { id: job.id, error: { message: e.message, code: e.code } };
  }
  parentPort?.postMessage(done);
});
