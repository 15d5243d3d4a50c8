import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../backend/db/embedded.js";
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
const children: ChildProcess[] = [];
let database: EmbeddedDatabase | undefined;
let stopping = false;

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  const started = children.length > 0 || database !== undefined;
  if (started) say("Stopping…");
  await Promise.all(
    children.map(
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
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

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

try {
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
  const appUrl = process.env.APP_URL ?? `http://localhost:${appPort}`;
  const env = {
    ...process.env,
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
  const backend = spawn(process.execPath, [...tsx, path.join(root, "backend/main.ts"), "--role", "all"], { cwd: root, env: backendEnv, stdio: "inherit" });
  children.push(backend);
  await waitForHttp(`${env.BACKEND_URL}/healthz`, backend, "backend");
  // A page render allocates ~1 MB that dies with the request. V8's young generation (16 MiB semi-spaces) then
  // collects every few pages and promotes what a request in flight still holds; 32 MiB halves the collections:
  // 5-7% less web-server CPU per page in bench/run.ts, for at most ~50 MiB more per web server process.
  const webHeap = ["--max-semi-space-size=32"];
  const app = spawn(process.execPath, [...webHeap, ...tsx, path.join(root, "scripts/serve-app.ts")], { cwd: root, env, stdio: "inherit" });
  children.push(app);
  await waitForHttp(`http://127.0.0.1:${appPort}/favicon.svg`, app, "web app");
  for (const child of children) child.once("exit", (code) => void shutdown(code ?? 1));
  say(`Tributary is running: open ${appUrl}`);
  if (!process.env.GOOGLE_CLIENT_ID) say("Local sign-in is active (GOOGLE_CLIENT_ID is unset): any name and e-mail will do.");
} catch (error) {
  console.error(`[tributary] ${(error as Error).message}`);
  await shutdown(1);
}
