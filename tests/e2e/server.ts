import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { APP_URL, BUILD_DIR, DATABASE_PASSWORD_FILE, DATABASE_USER, E2E_PORTS, RESULTS_DIR } from "./env";

/**
 * Starts Tributary the way `npm start` does (scripts/start.ts, without the build
 * step: the test command builds first) on the e2e ports with a fresh data
 * folder, and stops it again. Used by global-setup.ts and global-teardown.ts,
 * which run in the same Playwright runner process, so the state lives here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const serverLogFile = path.resolve(root, RESULTS_DIR, "e2e-server.log");

/** A running Tributary: where it answers, its database, and how to stop it (Postgres included). */
export interface TributaryInstance {
  appUrl: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

export interface TributaryPorts {
  app: number;
  backend: number;
  localIdp: number;
  postgres: number;
}

const state = globalThis as typeof globalThis & { __tributaryE2e?: TributaryInstance };

/** The Tributaries a spec started in this worker (startTributary), by app URL: for the login fixture. */
const started = new Map<string, { databaseUrl: string; issuer: string }>();

/** The database and sign-in issuer of a Tributary this worker started at `appUrl`. */
export function startedTributary(appUrl: string): { databaseUrl: string; issuer: string } {
  const found = started.get(appUrl);
  if (!found) throw new Error(`No Tributary was started at ${appUrl} in this worker (startTributary in tests/e2e/server.ts).`);
  return found;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

function logTail(file: string, lines = 40): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no server log)";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The run's own Tributary, on the e2e ports; its database URL goes to the test workers (forked after this). */
export async function startServer(): Promise<void> {
  process.env.E2E_SECRET_KEY ??= randomBytes(32).toString("base64url");
  const instance = await startTributary({ ports: E2E_PORTS, appUrl: APP_URL, logFile: serverLogFile });
  state.__tributaryE2e = instance;
  process.env.E2E_DATABASE_URL = instance.databaseUrl;
}

export async function stopServer(): Promise<void> {
  const running = state.__tributaryE2e;
  state.__tributaryE2e = undefined;
  await running?.stop();
}

/**
 * Starts a Tributary on the given ports with a fresh data folder. `env` changes the environment it starts with
 * (undefined removes a variable): a spec that needs a differently configured server starts its own beside the run's.
 */
export async function startTributary(options: { ports: TributaryPorts; appUrl: string; logFile: string; env?: Record<string, string | undefined> }): Promise<TributaryInstance> {
  const { ports, logFile } = options;
  if (!existsSync(path.join(root, BUILD_DIR, "server/index.js"))) {
    throw new Error(
      `The app is not built (${BUILD_DIR}/server/index.js is missing). Run \`npx remix vite:build\` before \`npx playwright test\`, or use \`npm test\`.`,
    );
  }
  for (const [what, port] of Object.entries(ports)) {
    if (!(await portIsFree(port))) {
      throw new Error(
        `Port ${port} (${what}) is already in use, so the end-to-end Tributary cannot start. ` +
          `An earlier e2e run may still be running: find it with \`lsof -i :${port}\` (or \`ss -ltnp\`) and stop it.`,
      );
    }
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-e2e-"));
  // The embedded Postgres runs as the "postgres" user when we are root; it must be able to enter the folder.
  chmodSync(dataDir, 0o755);
  rmSync(logFile, { force: true });
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = openSync(logFile, "a");

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(ports.app),
    BACKEND_PORT: String(ports.backend),
    LOCAL_IDP_PORT: String(ports.localIdp),
    PG_PORT: String(ports.postgres),
    APP_URL: options.appUrl,
    FORCE_COLOR: "0",
    // The PostgreSQL destination's tests connect to the loopback Postgres: allowed by this setting only.
    TRIBUTARY_ALLOW_PRIVATE_HOSTS: "true",
    // Without JavaScript, a page following a run reloads itself this often: the tests wait for runs through it.
    NO_SCRIPT_REFRESH_SECONDS: "1",
    // Every answer of the backend checked against contract/responses.ts (a drifted one is a 500 the test sees).
    CHECK_RESPONSES: "true",
  };
  // The e2e run always uses the embedded Postgres and the local OpenID provider.
  for (const name of ["DATABASE_URL", "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET", "GOOGLE_ISSUER", "BACKEND_URL", "NODE_ENV", "TRIBUTARY_SECRET_KEY"]) delete env[name];
  // The run's key (global-setup makes it), so that the login fixture can sign the app's cookie session.
  if (process.env.E2E_SECRET_KEY) env.TRIBUTARY_SECRET_KEY = process.env.E2E_SECRET_KEY;
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }

  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/start.ts"), "--no-build"], {
    cwd: root,
    env,
    stdio: ["ignore", log, log],
    detached: true, // its own process group, so a last-resort kill reaches every child
  });
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = () => stopTributary(child, dataDir, exited);
  // If the runner dies without stopping it, still ask the launcher to stop (it stops Postgres too).
  process.once("exit", () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid!, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
  });

  const deadline = Date.now() + 90_000;
  let exitCode: number | null = null;
  child.once("exit", (code) => (exitCode = code ?? -1));
  while (Date.now() < deadline) {
    if (exitCode !== null) {
      await stop();
      throw new Error(`Tributary stopped while starting (exit code ${exitCode}). Last lines of ${logFile}:\n${logTail(logFile)}`);
    }
    const ready = logTail(logFile, 200).includes("Tributary is running");
    if (ready) {
      try {
        const res = await fetch(`http://127.0.0.1:${ports.app}/favicon.svg`);
        await res.body?.cancel();
        if (res.ok) {
          // The cluster's password was made at its first start.
          const password = readFileSync(path.join(dataDir, DATABASE_PASSWORD_FILE), "utf8").trim();
          const databaseUrl = `postgres://${DATABASE_USER}:${password}@127.0.0.1:${ports.postgres}/tributary`;
          started.set(options.appUrl, { databaseUrl, issuer: `http://localhost:${ports.localIdp}` });
          return { appUrl: options.appUrl, databaseUrl, stop };
        }
      } catch {
        /* not yet */
      }
    }
    await sleep(200);
  }
  await stop();
  throw new Error(`Tributary did not become ready within 90 s. Last lines of ${logFile}:\n${logTail(logFile)}`);
}

async function stopTributary(child: ChildProcess, dataDir: string, exited: Promise<void>): Promise<void> {
  const pid = child.pid!;
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    const stopped = await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)]);
    if (!stopped) {
      console.error(`[e2e] Tributary (pid ${pid}) did not stop within 30 s of SIGTERM; killing its process group.`);
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        /* gone */
      }
      await Promise.race([exited, sleep(5_000)]);
    }
  }
  // The embedded Postgres is started by the launcher; make sure none is left behind.
  const pidFile = path.join(dataDir, "pg", "postmaster.pid");
  if (existsSync(pidFile)) {
    const pgPid = Number.parseInt(readFileSync(pidFile, "utf8").split("\n")[0] ?? "", 10);
    if (pgPid > 0 && isAlive(pgPid)) {
      console.error(`[e2e] The embedded Postgres (pid ${pgPid}) outlived the launcher; stopping it.`);
      process.kill(pgPid, "SIGINT");
      for (let i = 0; i < 100 && isAlive(pgPid); i++) await sleep(100);
      if (isAlive(pgPid)) process.kill(pgPid, "SIGKILL");
    }
  }
  if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
}
