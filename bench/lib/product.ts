import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

/** Ports of the benchmark's own copy of Tributary (the 3000/3100 families belong to other runs). */
export const PORTS = { app: 3200, backend: 4200, idp: 4201, pg: 54349 } as const;
export const APP_URL = `http://localhost:${PORTS.app}`;
export const BACKEND_URL = `http://127.0.0.1:${PORTS.backend}`;
/**
 * The benchmark's embedded Postgres, known once startProduct has started it: the cluster's password is made at its
 * first start and kept in its data folder (DATA_DIR/pg.password). An ES module binding, so importers see it then.
 */
export let DATABASE_URL = "";

/**
 * The benchmark's own build of the web app. Other engineers rebuild ./build
 * while they work; a rebuild under a running benchmark would swap the assets
 * it is fetching. Under node_modules/.cache it is out of git, lint and tsc,
 * and the server bundle still resolves its packages from ./node_modules.
 * scripts/start.ts builds it when the sources are newer, as it does ./build.
 */
export function benchBuildDir(root: string): string {
  return path.resolve(root, process.env.BENCH_BUILD_DIR ?? "node_modules/.cache/tributary-bench/build");
}

export interface Product {
  /** Process id of the launcher (scripts/start.ts); the backend, the app and Postgres are its descendants. */
  pid: number;
  dataDir: string;
  logFile: string;
  /** SIGTERM, then wait for the launcher (and so the backend, the app and Postgres) to exit. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts Tributary exactly as `npm start` does (scripts/start.ts: build if stale,
 * embedded Postgres, backend, Remix server) on the benchmark's ports, with a
 * fresh data folder, and resolves once it prints that it is running.
 */
export async function startProduct(
  root: string,
  log: (line: string) => void,
  options: { timeoutMs?: number; /** Called as soon as the launcher is spawned, so a Ctrl-C during the build can stop it. */ onLaunched?: (product: Product) => void } = {},
): Promise<Product> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  for (const [what, port] of Object.entries(PORTS)) {
    if (await portInUse(port)) {
      throw new Error(`Port ${port} (${what}) is already in use: is another benchmark running? Stop it first.`);
    }
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-"));
  const logFile = path.join(dataDir, "product.log");
  const logStream = createWriteStream(logFile);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TRIBUTARY_BUILD_DIR: benchBuildDir(root),
    DATA_DIR: dataDir,
    PORT: String(PORTS.app),
    BACKEND_PORT: String(PORTS.backend),
    LOCAL_IDP_PORT: String(PORTS.idp),
    PG_PORT: String(PORTS.pg),
    APP_URL,
  };
  // The local sign-in provider refuses NODE_ENV=production, and a real
  // database or Google client would not be the embedded product.
  for (const name of ["NODE_ENV", "DATABASE_URL", "BACKEND_URL", "GOOGLE_CLIENT_ID", "HOST"]) delete env[name];

  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/start.ts")], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let exited = child.exitCode !== null;
  const exitPromise = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      resolve();
    }),
  );

  let running: () => void = () => {};
  const ready = new Promise<void>((resolve) => (running = resolve));
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({ input: stream }).on("line", (line) => {
      logStream.write(`${line}\n`);
      // The launcher's own lines (build, Postgres, ready) are worth showing; the rest goes to the log file.
      if (line.startsWith("[tributary]")) log(line);
      if (line.includes("Tributary is running")) running();
    });
  }

  let stopped: Promise<void> | undefined;
  const stop = ({ keepData = Boolean(process.env.BENCH_KEEP_DATA) } = {}) =>
    (stopped ??= (async () => {
      if (!exited) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
        await exitPromise;
        clearTimeout(timer);
      }
      logStream.end();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    })());

  const product: Product = { pid: child.pid!, dataDir, logFile, stop };
  options.onLaunched?.(product);

  const timeout = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => reject(new Error(`Tributary did not report "running" within ${timeoutMs / 1000} s (log: ${logFile}).`)), timeoutMs);
    timer.unref();
  });
  let starting = true;
  const died = exitPromise.then(() => {
    if (starting) throw new Error(`Tributary stopped while starting (exit code ${child.exitCode}); see ${logFile}.`);
  });
  try {
    await Promise.race([ready, timeout, died]);
  } catch (error) {
    await stop({ keepData: true }); // keep the log of a failed start
    throw error;
  } finally {
    starting = false;
  }
  const password = readFileSync(path.join(dataDir, "pg.password"), "utf8").trim();
  DATABASE_URL = `postgres://tributary:${password}@127.0.0.1:${PORTS.pg}/tributary`;
  return product;
}
