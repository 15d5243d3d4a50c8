import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PASSWORD_FILE, startEmbeddedPostgres, type EmbeddedDatabase } from "../../backend/db/embedded.js";
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
});
