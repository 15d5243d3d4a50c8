import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFileWriter, writeFiles } from "../../backend/integrations/destinations/local/files.js";
import { keepSpareInstance, LocalWriter } from "../../backend/integrations/destinations/local/index.js";
import { prepareWorkerProcess } from "../../backend/jobs/worker-process.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "tributary-file-writer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the file writer thread", () => {
  it("starts ahead of any file (as a worker process starts it), answers once, and then writes", async () => {
    await prepareWorkerProcess({ ALLOW_LOCAL_DESTINATION: "true" });
    // Running: every later start answers with the same promise, without another round trip to the thread.
    const again = startFileWriter();
    expect(startFileWriter()).toBe(again);
    await again;
    await writeFiles("test", [
      { target: path.join(dir, "a", "one.txt"), body: "one" },
      { target: path.join(dir, "a", "two.bin"), body: new TextEncoder().encode("two") },
    ]);
    expect(readFileSync(path.join(dir, "a", "one.txt"), "utf8")).toBe("one");
    expect(readFileSync(path.join(dir, "a", "two.bin"), "utf8")).toBe("two");
    // Written through temporary siblings, none left behind.
    expect(readdirSync(path.join(dir, "a")).sort()).toEqual(["one.txt", "two.bin"]);
  });

  it("reports a file it cannot write with the OS's code, and keeps writing the next jobs", async () => {
    // Its folder would be a file: mkdir answers EEXIST.
    await expect(writeFiles("test", [{ target: path.join(dir, "a", "one.txt", "under-a-file.txt"), body: "x" }])).rejects.toMatchObject({ code: "EEXIST" });
    await writeFiles("test", [{ target: path.join(dir, "b.txt"), body: "bee" }]);
    expect(readFileSync(path.join(dir, "b.txt"), "utf8")).toBe("bee");
  });
});

describe("the spare DuckDB instance", () => {
  it("opens each warehouse on an instance of its own: one file's rows never show in the next's", async () => {
    await keepSpareInstance();
    const counts: unknown[] = [];
    for (const name of ["first", "second", "third"]) {
      const writer = new LocalWriter(path.join(dir, name));
      await writer.upsertRows("notes", [{ id: name, text: `only in ${name}` }], ["id"]);
      const rows = await writer.query("SELECT id, text FROM notes");
      counts.push(rows);
      await writer.close();
    }
    expect(counts).toEqual([[{ id: "first", text: "only in first" }], [{ id: "second", text: "only in second" }], [{ id: "third", text: "only in third" }]]);
    // The first file again: its rows are still there, alone.
    const again = new LocalWriter(path.join(dir, "first"));
    expect(await again.query("SELECT id FROM notes")).toEqual([{ id: "first" }]);
    await again.close();
  });
});
