import { parseArgs } from "node:util";
import { startBackend, type Role } from "./server.js";
import { createLogger } from "./lib/log.js";
import { prepareWorkerProcess } from "./jobs/worker-process.js";

/** `tsx backend/main.ts [--role api|worker|all]`: the API and the workers, or either alone. */
const { values } = parseArgs({ options: { role: { type: "string", default: "all" } } });
const role = values.role as Role;
if (!["api", "worker", "all"].includes(role)) {
  console.error(`Unknown role "${role}": use api, worker or all.`);
  process.exit(2);
}
const log = createLogger(process.env.LOG_LEVEL);
// Not waited for: the file thread and the spare DuckDB instance are made while the backend starts. What cannot be made
// now is made again by the run that needs it.
if (role !== "api") prepareWorkerProcess().catch((error: unknown) => log.warn({ err: error }, "the worker's file thread or spare DuckDB instance could not be made"));
try {
  const backend = await startBackend({ role, log });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping backend");
    await backend.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
} catch (error) {
  log.error({ err: error }, "backend failed to start");
  process.exit(1);
}
