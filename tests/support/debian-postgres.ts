import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./ports.js";

/**
 * A Postgres server of Debian's `postgresql` package (not the embedded one), on a free port in a folder of its own,
 * removed when it stops: tests/backend/global-setup-debian.ts starts one for the files of vitest.config.ts's
 * DEBIAN_FILES. As root the server runs as the `postgres` user (Postgres refuses root). `.ci/run` installs the package.
 */
export interface DebianPostgres {
  port: number;
  /** The URL of a database of this server (as its superuser, trusted on 127.0.0.1). */
  url(database: string): string;
  stop(): Promise<void>;
}

/** The newest installed server's bin folder, or null. */
export function debianPostgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "postgres")) && existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0]!, "bin") : null;
}

export async function startDebianPostgres(options: { maxConnections?: number } = {}): Promise<DebianPostgres> {
  const bin = debianPostgresBin();
  if (!bin) throw new Error("The runs-engine and multi-process tests need Debian's PostgreSQL server, which is not installed: run `apt-get install -y postgresql` (as .ci/run does).");
  const port = await freePort();
  const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-debian-pg-"));
  const data = path.join(folder, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
    chownSync(folder, id("-u"), id("-g"));
  }
  const run = (program: string, args: string[]) => {
    const [command, all] = asRoot ? ["runuser", ["-u", "postgres", "--", path.join(bin, program), ...args]] : [path.join(bin, program), args];
    const done = spawnSync(command as string, all as string[], { encoding: "utf8", cwd: folder });
    if (done.status !== 0) throw new Error(`${program} failed (${done.status}): ${done.stderr || done.stdout}`);
  };
  try {
    run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-instructions"]);
    const settings = [`-p ${port}`, `-k ${folder}`, "-c listen_addresses=127.0.0.1", `-c max_connections=${options.maxConnections ?? 200}`, "-c fsync=off", "-c synchronous_commit=off"];
    run("pg_ctl", ["-D", data, "-o", settings.join(" "), "-l", path.join(folder, "server.log"), "-w", "start"]);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
