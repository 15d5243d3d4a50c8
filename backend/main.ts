import { parseArgs } from "node:util";
import { ROLES, startBackend, type Role } from "./server.js";
import { createLogger } from "./lib/log.js";
import { prepareWorkerProcess } from "./jobs/worker-process.js";

/** `tsx backend/main.ts [--role api|worker|scheduler|all]`: one part of the backend, or all of it (backend/server.ts Role). */
const { values } = parseArgs({ options: { role: { type: "string", default: "all" } } });
const role = values.role as Role;
if (!ROLES.includes(role)) {
  console.error(`Unknown role "${role}": use api, worker, scheduler or all.`);
  process.exit(2);
}
const log = createLogger(process.env.LOG_LEVEL);
// Not waited for: the file thread and the spare DuckDB instance are made while the backend starts. What cannot be made
// now is made again by the run that needs it.
if (role === "worker" || role === "all") prepareWorkerProcess().catch((error: unknown) => log.warn({ err: error }, "the worker's file thread or spare DuckDB instance could not be made"));
try {
  const backend = await startBackend({ role, log });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, graceSeconds: backend.graceMs / 1000 }, "stopping backend: running jobs get the grace time to finish");
    // Whatever hangs past the grace time (and a margin for closing connections), the process still ends.
    setTimeout(() => {
      log.error("the backend did not stop within its grace time: exiting");
      process.exit(1);
    }, backend.graceMs + 15_000).unref();
    await backend.stop();
    log.info("backend stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
} catch (error) {
  log.error({ err: error }, "backend failed to start");
  process.exit(1);
}
