import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LocalWriter, localDestinationAllowed, resolveLocalRoot } from "../../backend/integrations/destinations/local.js";
import { checkObjectPath } from "../../backend/integrations/destinations/writer.js";

const roots: string[] = [];
function root() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tributary-local-"));
  roots.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("LocalWriter", () => {
  it("writes objects laid out as in a bucket, overwriting by path", async () => {
    const writer = new LocalWriter(root());
    await writer.writeObjects([{ path: "zoom/2026-11-22/a.json", body: '{"n":1}' }]);
    await writer.writeObjects([{ path: "zoom/2026-11-22/a.json", body: '{"n":2}' }, { path: "zoom/b.txt", body: new TextEncoder().encode("bee") }]);
    expect(readFileSync(path.join(writer.root, "files/zoom/2026-11-22/a.json"), "utf8")).toBe('{"n":2}');
    expect(readFileSync(path.join(writer.root, "files/zoom/b.txt"), "utf8")).toBe("bee");
    await expect(writer.writeObjects([{ path: "../escape.txt", body: "x" }])).rejects.toThrow(/Invalid object path/);
    await writer.close();
  });

  it("upserts rows into DuckDB by key, adding new columns; a rerun does not duplicate", async () => {
    const dir = root();
    const writer = new LocalWriter(dir);
    const rows = [
      { id: "m1", topic: "pricing", minutes: 30, recorded: true, at: new Date("2026-11-20T10:00:00Z"), meta: { host: "ann" } },
      { id: "m2", topic: "roadmap", minutes: 45, recorded: false, at: new Date("2026-11-21T10:00:00Z"), meta: null },
    ];
    await writer.upsertRows("meetings", rows, ["id"]);
    await writer.upsertRows("meetings", rows, ["id"]);
    await writer.upsertRows("meetings", [{ id: "m1", topic: "pricing v2", minutes: 31, language: "en" }], ["id"]);
    await writer.close();

    const reader = new LocalWriter(dir);
    const result = await reader.query("SELECT id, topic, minutes, recorded, language, meta->>'host' AS host FROM meetings ORDER BY id");
    expect(result).toEqual([
      { id: "m1", topic: "pricing v2", minutes: 31, recorded: null, language: "en", host: null },
      { id: "m2", topic: "roadmap", minutes: 45, recorded: false, language: null, host: null },
    ]);
    await expect(reader.upsertRows("bad name", [{ id: "x" }], ["id"])).rejects.toThrow(/Invalid table name/);
    await expect(reader.upsertRows("t", [{ other: 1 }], ["id"])).rejects.toThrow(/key column id/);
    await reader.close();
  });

  it("keeps folders inside DATA_DIR and honours ALLOW_LOCAL_DESTINATION", () => {
    expect(resolveLocalRoot("/data", "destinations/a/b")).toBe("/data/destinations/a/b");
    expect(() => resolveLocalRoot("/data", "../etc")).toThrow(/outside DATA_DIR/);
    expect(() => checkObjectPath("a//b")).toThrow();
    expect(localDestinationAllowed({})).toBe(true);
    expect(localDestinationAllowed({ ALLOW_LOCAL_DESTINATION: "false" })).toBe(false);
    expect(localDestinationAllowed({ ALLOW_LOCAL_DESTINATION: "true" })).toBe(true);
  });
});
