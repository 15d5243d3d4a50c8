import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LocalWriter, WAREHOUSE_FILE } from "../../backend/integrations/destinations/local/index.js";

/**
 * Issue 36, item 3: a local destination's warehouse (one DuckDB file) is used by several processes (workers, and the
 * API reading a transform's results). DuckDB lets one process at a time have the file; each Tributary process holds it
 * only while it writes or reads, so another waits its turn (LOCAL_WAREHOUSE_WAIT_SECONDS), then says why it gave up.
 */

const roots: string[] = [];
const holders: ChildProcess[] = [];
afterEach(() => {
  for (const holder of holders.splice(0)) holder.kill("SIGKILL");
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  delete process.env.LOCAL_WAREHOUSE_WAIT_SECONDS;
});

/** Another process that opens the warehouse file and keeps it until it is killed; resolves once it has it. */
async function holdInAnotherProcess(file: string): Promise<ChildProcess> {
  const script = `
    import { DuckDBInstance } from "@duckdb/node-api";
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    await connection.run(${JSON.stringify(`ATTACH '${file}' AS w`)});
    console.log("holding");
    setInterval(() => {}, 1000);
  `;
  const holder = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: path.resolve(import.meta.dirname, "../.."), stdio: ["ignore", "pipe", "inherit"] });
  holders.push(holder);
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("holding") && resolve());
    holder.once("exit", (code) => reject(new Error(`the holder exited (${code})`)));
  });
  return holder;
}

function freshRoot(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "tributary-warehouse-"));
  roots.push(root);
  return root;
}

describe("a local warehouse another process has open", () => {
  it("is waited for: a writer here opens it once the other process lets go, and writes", async () => {
    const root = freshRoot();
    const first = new LocalWriter(root);
    await first.prepare();
    await first.close();
    const holder = await holdInAnotherProcess(path.join(root, WAREHOUSE_FILE));
    const events: string[] = [];
    const writer = new LocalWriter(root);
    const opened = writer.prepare().then(() => events.push("opened here"));
    // Let it try (and be refused) a few times, then the other process ends.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = new Promise((resolve) => holder.once("exit", resolve));
    holder.kill("SIGKILL");
    await exited;
    events.push("the other process let go");
    await opened;
    expect(events).toEqual(["the other process let go", "opened here"]);
    await writer.upsertRows("meetings", [{ meeting_id: "m1", title: "Kickoff" }], ["meeting_id"]);
    expect(await writer.query("SELECT title FROM meetings")).toEqual([{ title: "Kickoff" }]);
    await writer.close();
  });

  it("past LOCAL_WAREHOUSE_WAIT_SECONDS, the writer gives up with a sentence that names neither the file nor the process", async () => {
    const root = freshRoot();
    const first = new LocalWriter(root);
    await first.prepare();
    await first.close();
    await holdInAnotherProcess(path.join(root, WAREHOUSE_FILE));
    process.env.LOCAL_WAREHOUSE_WAIT_SECONDS = "1";
    const writer = new LocalWriter(root);
    const failure = await writer.prepare().then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).toBe("The destination's warehouse was in use by another Tributary process for more than 1 seconds (LOCAL_WAREHOUSE_WAIT_SECONDS).");
    await writer.close();
  });
});
