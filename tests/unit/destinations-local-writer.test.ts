import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { BULK_BATCH_RECORDS, BULK_ROWS, LocalWriter, localDestinationAllowed, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { checkObjectPath, latestPerKey, type DestinationObject, type DestinationWriter, type Row } from "../../backend/integrations/destinations/writer.js";
import { generateMeetings, type Meeting } from "../../backend/integrations/sources/datagen/index.js";
import { RefusedHostError } from "../../backend/lib/public-address.js";
import { zoomPlugin } from "../../backend/integrations/sources/zoom/plugin.js";
import { BATCH_RECORDS, batchMaker, PermanentSyncError, writeRecords } from "../../backend/sync/index.js";
import { filesUnder } from "../support/files.js";

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

  it("writers of one warehouse in one process share it: each sees the other's rows, none are lost, and the last close releases the file", async () => {
    const dir = root();
    const sync = new LocalWriter(dir);
    const transform = new LocalWriter(dir);
    await sync.upsertRows("meetings", [{ meeting_id: "m1", title: "Kickoff" }], ["meeting_id"]);
    expect(await transform.query("SELECT meeting_id FROM meetings")).toEqual([{ meeting_id: "m1" }]);
    // Both write at once, to the same table and to another one.
    await Promise.all([
      sync.upsertRows("meetings", [{ meeting_id: "m2", title: "Renewal" }], ["meeting_id"]),
      transform.upsertRows("tx_topics", [{ topic_id: 1, label: "pricing" }], ["topic_id"]),
    ]);
    expect(await sync.query("SELECT count(*)::INT AS n FROM tx_topics")).toEqual([{ n: 1 }]);
    await sync.close();
    // The other writer's connection still works after the first one closed.
    expect(await transform.query("SELECT meeting_id FROM meetings ORDER BY meeting_id")).toEqual([{ meeting_id: "m1" }, { meeting_id: "m2" }]);
    await transform.close();
    // Released: another process can open the file now.
    const script = `import { DuckDBInstance } from "@duckdb/node-api"; const i = await DuckDBInstance.create(${JSON.stringify(path.join(dir, "warehouse.duckdb"))}); const c = await i.connect(); const r = await c.runAndReadAll("SELECT count(*)::INT AS n FROM meetings"); console.log(JSON.stringify(r.getRowObjectsJson()));`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..") });
      let text = "";
      child.stdout.on("data", (chunk) => (text += chunk));
      child.stderr.on("data", (chunk) => (text += chunk));
      child.once("exit", (code) => (code === 0 ? resolve(text.trim()) : reject(new Error(text))));
    });
    expect(JSON.parse(out)).toEqual([{ n: 2 }]);
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

  it("stages every value as given, whether its batch is packed into one text per column or appended value by value", async () => {
    const dir = root();
    const writer = new LocalWriter(dir, { holdRows: 10_000 });
    const rows: Row[] = [
      { id: "a", text: "plain", n: 0.1, ok: true, at: new Date("2026-11-20T10:00:00.123Z"), meta: { host: "ann", tags: ["x"] } },
      { id: "b", text: "", n: -1.5e300, ok: false, at: null, meta: null },
      { id: "c", text: null, n: null, ok: null, at: new Date("1999-12-31T23:59:59Z"), meta: { nested: { q: 'say "hi"' } } },
      { id: "d", text: "NULL", n: 1e21, ok: true, at: null, meta: null },
      { id: "e", text: "été 🚀 \n tab\t, comma; \\ back", n: Number.NaN, ok: false, at: null, meta: null },
      { id: "f", text: "\u0000", n: Number.POSITIVE_INFINITY, ok: null, at: null, meta: null },
      { id: "g", text: " ", n: 5e-324, ok: true, at: null, meta: null },
      { id: "i", text: "-0", n: -0, ok: null, at: null, meta: null },
      // The NULL mark inside a value: only a whole value that is the mark would read back as NULL.
      { id: "j", text: "x\u001fy\u001f", n: 3, ok: false, at: null, meta: null },
    ];
    // A value holding the packing's separator, or one that is the NULL mark, sends its whole batch to the appender.
    await writer.upsertRows("packed", rows, ["id"]);
    await writer.upsertRows("appended", [...rows, { id: "h", text: "x\u001ey\u001f", n: 2, ok: true, at: null, meta: null }], ["id"]);
    await writer.upsertRows("marked", [...rows, { id: "k", text: "\u001f", n: 4, ok: true, at: null, meta: null }], ["id"]);
    await writer.upsertRows("one", [{ id: "only", text: "" }], ["id"]);
    await writer.flush();
    const read = (table: string) =>
      writer.query(`SELECT id, "text", n, ok, epoch_ms("at")::DOUBLE AS "at", meta::VARCHAR AS meta FROM ${table} ORDER BY id`);
    const expected = rows.map((r) => ({
      id: r.id,
      text: r.text,
      n: typeof r.n === "number" && !Number.isFinite(r.n) ? String(r.n) : r.n, // query() answers NaN as "NaN"; toEqual tells -0 from 0
      ok: r.ok,
      at: r.at instanceof Date ? r.at.getTime() : null,
      meta: r.meta === null ? null : JSON.stringify(r.meta),
    }));
    expect(await read("packed")).toEqual(expected);
    const h = { id: "h", text: "x\u001ey\u001f", n: 2, ok: true, at: null, meta: null };
    expect(await read("appended")).toEqual([...expected, h].sort((a, b) => String(a.id).localeCompare(String(b.id))));
    const k = { id: "k", text: "\u001f", n: 4, ok: true, at: null, meta: null };
    expect(await read("marked")).toEqual([...expected, k].sort((a, b) => String(a.id).localeCompare(String(b.id))));
    expect(await writer.query("SELECT id, text FROM one")).toEqual([{ id: "only", text: "" }]);
    await writer.close();
  });

  it("keeps folders inside DATA_DIR and honours ALLOW_LOCAL_DESTINATION", () => {
    expect(resolveLocalRoot("/data", "destinations/a/b")).toBe("/data/destinations/a/b");
    expect(() => resolveLocalRoot("/data", "../etc")).toThrow(/outside DATA_DIR/);
    for (const bad of ["", "a//b", "/a", "a/", "./a", "a/./b", "a/..", "../a", "a\\b", "a\u0001b", "a\u001f", "\n"]) {
      expect(() => checkObjectPath(bad), JSON.stringify(bad)).toThrow(/Invalid object path/);
    }
    for (const good of ["a", "a/b.c", "..a/b..", ".a/a.", "été/🚀 x", "a\u007fb"]) expect(checkObjectPath(good)).toBe(good);
    expect(localDestinationAllowed({})).toBe(true);
    expect(localDestinationAllowed({ ALLOW_LOCAL_DESTINATION: "false" })).toBe(false);
    expect(localDestinationAllowed({ ALLOW_LOCAL_DESTINATION: "true" })).toBe(true);
  });
});

async function columnsOfTable(writer: LocalWriter, table: string): Promise<string[]> {
  const rows = await writer.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'main' AND table_name = '${table}' ORDER BY ordinal_position`);
  return rows.map((r) => String(r.column_name));
}

describe("LocalWriter guarantees", () => {
  it("a batch that fails half-way leaves the table as before (rows and columns), and the writer goes on", async () => {
    const writer = new LocalWriter(root());
    await writer.upsertRows("scores", [{ id: "a", n: 1 }, { id: "b", n: 2 }], ["id"]);
    // "oops" cannot become a DOUBLE: the batch fails after its rows were staged and its new column added.
    const failing: Row[] = [{ id: "a", n: 10, extra: "x" }, { id: "c", n: 3 }, { id: "d", n: "oops" }];
    await expect(writer.upsertRows("scores", failing, ["id"])).rejects.toThrow(/oops|convert|Conversion/i);
    expect(await writer.query("SELECT id, n FROM scores ORDER BY id")).toEqual([{ id: "a", n: 1 }, { id: "b", n: 2 }]);
    expect(await columnsOfTable(writer, "scores")).toEqual(["id", "n"]);
    // A row without its key is refused before anything is written.
    await expect(writer.upsertRows("scores", [{ id: "e", n: 5 }, { n: 6 }], ["id"])).rejects.toThrow(/key column id/);
    expect(await writer.query("SELECT count(*)::INT AS n FROM scores")).toEqual([{ n: 2 }]);
    // The same writer goes on, and the rolled-back column can still be added.
    await writer.upsertRows("scores", [{ id: "c", n: 3, extra: "y" }], ["id"]);
    expect(await writer.query("SELECT id, n, extra FROM scores ORDER BY id")).toEqual([
      { id: "a", n: 1, extra: null },
      { id: "b", n: 2, extra: null },
      { id: "c", n: 3, extra: "y" },
    ]);
    await writer.close();
  });

  it("re-writing a batch leaves one row per key; a key given twice in one batch keeps its later row", async () => {
    const dir = root();
    const writer = new LocalWriter(dir);
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: `k${i}`, day: i % 7, n: i, at: new Date(Date.UTC(2026, 10, 1, 0, 0, i)), tags: ["a", String(i)] }));
    await writer.upsertRows("events", rows, ["id"]);
    await writer.upsertRows("events", rows, ["id"]);
    expect(await writer.query("SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS d, sum(n)::BIGINT AS s FROM events")).toEqual([{ n: 5000, d: 5000, s: String((4999 * 5000) / 2) }]);
    await writer.upsertRows("events", [{ id: "k1", n: -1 }, { id: "k2", n: 2 }, { id: "k1", n: -2 }], ["id"]);
    expect(await writer.query("SELECT id, n, day FROM events WHERE id IN ('k1', 'k2') ORDER BY id")).toEqual([
      { id: "k1", n: -2, day: null },
      { id: "k2", n: 2, day: null },
    ]);
    // A composite key: (meeting, index) pairs, one row each.
    await writer.upsertRows("pairs", [{ m: "x", i: 1, v: "a" }, { m: "x", i: 2, v: "b" }, { m: "y", i: 1, v: "c" }, { m: "x", i: 1, v: "d" }], ["m", "i"]);
    expect(await writer.query("SELECT m, i, v FROM pairs ORDER BY m, i")).toEqual([
      { m: "x", i: 1, v: "d" },
      { m: "x", i: 2, v: "b" },
      { m: "y", i: 1, v: "c" },
    ]);
    await writer.close();
    expect(latestPerKey([{ id: 1, v: "a" }, { id: "1", v: "b" }, { id: 2, v: "c" }], ["id"])).toEqual([{ id: "1", v: "b" }, { id: 2, v: "c" }]);
    expect(latestPerKey([{ m: "x", i: 1 }, { m: "x1", i: "" }], ["m", "i"])).toHaveLength(2);
  });

  it("overlapping batches (new keys take a plain INSERT, a batch meeting existing keys replaces) neither duplicate nor lose a row, and a replaced row keeps none of its old columns", async () => {
    const dir = root();
    const writer = new LocalWriter(dir);
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
    // First window: k0..k2999, all new.
    await writer.upsertRows("lines", range(0, 3000).map((i) => ({ id: `k${i}`, n: i, note: "first", extra: i })), ["id"]);
    // An overlapping window: k2000..k4999 (a third already there), without the "extra" column.
    await writer.upsertRows("lines", range(2000, 5000).map((i) => ({ id: `k${i}`, n: i + 10_000, note: "second" })), ["id"]);
    // New keys again after a batch that met existing ones.
    await writer.upsertRows("lines", range(5000, 6000).map((i) => ({ id: `k${i}`, n: i, note: "third" })), ["id"]);
    const summary = "SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS d, count(extra)::INT AS extra, sum(n)::BIGINT AS s, count(*) FILTER (WHERE note = 'second')::INT AS second FROM lines";
    const expected = { n: 6000, d: 6000, extra: 2000, s: String([...range(0, 2000), ...range(2000, 5000).map((i) => i + 10_000), ...range(5000, 6000)].reduce((a, b) => a + b, 0)), second: 3000 };
    expect(await writer.query(summary)).toEqual([expected]);
    expect(await writer.query("SELECT id, n, note, extra FROM lines WHERE id IN ('k1999', 'k2000', 'k2999', 'k3000') ORDER BY n")).toEqual([
      { id: "k1999", n: 1999, note: "first", extra: 1999 },
      { id: "k2000", n: 12000, note: "second", extra: null },
      { id: "k2999", n: 12999, note: "second", extra: null },
      { id: "k3000", n: 13000, note: "second", extra: null },
    ]);
    // A failing batch, overlapping or all new, leaves the table as it was.
    await expect(writer.upsertRows("lines", [{ id: "k0", n: 1 }, { id: "k9000", n: "oops" }], ["id"])).rejects.toThrow(/oops|convert|Conversion/i);
    await expect(writer.upsertRows("lines", [{ id: "k9001", n: 1 }, { id: "k9002", n: "oops" }], ["id"])).rejects.toThrow(/oops|convert|Conversion/i);
    expect(await writer.query(summary)).toEqual([expected]);
    await writer.close();
    // The overlapping window again from a new writer (nothing cached): the same table.
    const again = new LocalWriter(dir);
    await again.upsertRows("lines", range(2000, 5000).map((i) => ({ id: `k${i}`, n: i + 10_000, note: "second" })), ["id"]);
    expect(await again.query(summary)).toEqual([expected]);
    // A composite key, overlapping: (x,1) is replaced, (x,3) is new, (x,2) stays.
    await again.upsertRows("pairs", [{ m: "x", i: 1, v: "a", w: "old" }, { m: "x", i: 2, v: "b", w: "old" }], ["m", "i"]);
    await again.upsertRows("pairs", [{ m: "x", i: 1, v: "c" }, { m: "x", i: 3, v: "d" }], ["m", "i"]);
    expect(await again.query("SELECT m, i, v, w FROM pairs ORDER BY i")).toEqual([
      { m: "x", i: 1, v: "c", w: null },
      { m: "x", i: 2, v: "b", w: "old" },
      { m: "x", i: 3, v: "d", w: null },
    ]);
    await again.close();
  });

  it("a bulk writer (holdRows) merges once it holds enough rows, and at flush, query and close; a key given again later keeps its later row", async () => {
    const dir = root();
    const bulk = new LocalWriter(dir, { holdRows: 1000 });
    const other = new LocalWriter(dir);
    const tables = async () => (await other.query("SELECT table_name FROM duckdb_tables() ORDER BY table_name")).map((r) => r.table_name);
    const rows = (from: number, to: number, note = "first") => Array.from({ length: to - from }, (_, k) => ({ id: `k${from + k}`, n: from + k, note }));
    // Each table is made in a transaction of its own, before any of its rows: making "lines" commits the head held.
    await bulk.upsertRows("heads", [{ id: "h1" }], ["id"]);
    expect(await tables()).toEqual(["heads"]);
    expect(await other.query("SELECT count(*)::INT AS n FROM heads")).toEqual([{ n: 0 }]); // held
    await bulk.upsertRows("lines", rows(0, 600), ["id"]);
    expect(await tables()).toEqual(["heads", "lines"]);
    expect(await other.query("SELECT (SELECT count(*) FROM heads)::INT AS h, (SELECT count(*) FROM lines)::INT AS l")).toEqual([{ h: 1, l: 0 }]);
    await bulk.upsertRows("lines", rows(600, 1100), ["id"]);
    // 1,100 rows held: merged.
    expect(await other.query("SELECT count(*)::INT AS n FROM lines")).toEqual([{ n: 1100 }]);
    // Held again; k5 twice in two calls (both staged: the later call's row wins at the merge), k1100.. new.
    await bulk.upsertRows("lines", rows(1100, 1200).concat(rows(5, 6, "second")), ["id"]);
    await bulk.upsertRows("lines", rows(5, 6, "third"), ["id"]);
    expect(await other.query("SELECT note FROM lines WHERE id = 'k5'")).toEqual([{ note: "first" }]);
    await bulk.flush();
    expect(await other.query("SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS d FROM lines")).toEqual([{ n: 1200, d: 1200 }]);
    expect(await other.query("SELECT note FROM lines WHERE id = 'k5'")).toEqual([{ note: "third" }]);
    // A key twice in one call keeps its later row (a bulk writer compares the call's key hashes first).
    await bulk.upsertRows("lines", [...rows(7, 8, "twice, first"), ...rows(1200, 1201, "once"), ...rows(7, 8, "twice, later")], ["id"]);
    await bulk.flush();
    expect(await other.query("SELECT id, note FROM lines WHERE id IN ('k7', 'k1200') ORDER BY id")).toEqual([
      { id: "k1200", note: "once" },
      { id: "k7", note: "twice, later" },
    ]);
    await other.query("DELETE FROM lines WHERE id = 'k1200'");
    // Rows DuckDB refuses fail their own call (with what it held, rolled back); the table is as before them.
    await expect(bulk.upsertRows("lines", [{ id: "k0", n: "oops", note: "bad" }], ["id"])).rejects.toThrow(/oops|convert|Conversion/i);
    await bulk.flush();
    expect(await other.query("SELECT count(*)::INT AS n, max(n)::INT AS m FROM lines WHERE note = 'bad' OR id = 'k0'")).toEqual([{ n: 1, m: 0 }]);
    // The bulk writer's own reads see what it holds; close merges the rest.
    await bulk.upsertRows("lines", rows(1200, 1210), ["id"]);
    expect(await bulk.query("SELECT count(*)::INT AS n FROM lines")).toEqual([{ n: 1210 }]);
    await bulk.upsertRows("lines", rows(1210, 1220), ["id"]);
    await bulk.close();
    expect(await other.query("SELECT count(*)::INT AS n FROM lines")).toEqual([{ n: 1220 }]);
    await other.close();
  });

  it("a large merge is written to the warehouse file once: it checkpoints at commit instead of going through the WAL first", async () => {
    const dir = root();
    const bulk = new LocalWriter(dir, { holdRows: BULK_ROWS });
    const text = "a transcript line of ordinary length, said by somebody in a meeting about pricing and renewal";
    const rows = Array.from({ length: 60_000 }, (_, k) => ({ id: `u${k}`, n: k, text: `${text} ${k}` }));
    await bulk.upsertRows("lines", rows, ["id"]);
    await bulk.flush();
    // Still open (no checkpoint at close yet): ~6 MB of rows, and the WAL holds none of them.
    const wal = path.join(dir, "warehouse.duckdb.wal");
    expect(existsSync(wal) ? statSync(wal).size : 0).toBeLessThan(64 * 1024);
    expect(statSync(path.join(dir, "warehouse.duckdb")).size).toBeGreaterThan(256 * 1024);
    expect(await bulk.query("SELECT count(*)::INT AS n, max(n)::INT AS m FROM lines")).toEqual([{ n: 60_000, m: 59_999 }]);
    await bulk.close();
  });

  it("the warehouse's DuckDB keeps to a memory limit and one thread, and spills under the staging folder", async () => {
    const dir = root();
    const writer = new LocalWriter(dir);
    const [settings] = await writer.query(
      "SELECT current_setting('memory_limit') AS memory, current_setting('threads')::INT AS threads, current_setting('temp_directory') AS spill",
    );
    await writer.close();
    // DuckDB's default is 80 % of the machine's memory; it names the limit in MiB or GiB.
    const [amount, unit] = String(settings!.memory).split(" ");
    expect(unit).toBe("MiB");
    expect(Number(amount)).toBeLessThanOrEqual(256);
    expect(settings!.threads).toBe(1);
    expect(settings!.spill).toBe(path.join(dir, "staging", "spill"));
    // A bulk writer commits whole DuckDB row groups (122,880 rows each).
    expect(BULK_ROWS % 122_880).toBe(0);
  });

  it("a bulk writer merges every BULK_ROWS rows it stages, and at flush (a folder with a quote in its name too)", async () => {
    const dir = path.join(root(), "Team's warehouse");
    const bulk = new LocalWriter(dir, { holdRows: BULK_ROWS });
    const other = new LocalWriter(dir);
    const line = "and on pricing, the renewal is in March, so we would like to see the new tiers before the board meets; ".repeat(3);
    const rows = (from: number, count: number) => Array.from({ length: count }, (_, k) => ({ id: `u${from + k}`, n: from + k, text: `${line}${from + k}` }));
    const step = BULK_ROWS / 4;
    // Under BULK_ROWS: staged, nothing merged yet.
    for (let from = 0; from < BULK_ROWS - step; from += step) await bulk.upsertRows("lines", rows(from, step), ["id"]);
    expect(await other.query("SELECT count(*)::INT AS n FROM lines")).toEqual([{ n: 0 }]);
    // BULK_ROWS staged: merged by the call that reached it.
    await bulk.upsertRows("lines", rows(BULK_ROWS - step, step), ["id"]);
    expect(await other.query("SELECT count(*)::INT AS n FROM lines")).toEqual([{ n: BULK_ROWS }]);
    await bulk.upsertRows("lines", rows(BULK_ROWS, 10_000), ["id"]);
    await bulk.flush();
    expect(await other.query("SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS d, max(n)::INT AS m FROM lines")).toEqual([{ n: BULK_ROWS + 10_000, d: BULK_ROWS + 10_000, m: BULK_ROWS + 9_999 }]);
    await Promise.all([bulk.close(), other.close()]);
  });

  it("a bulk writer's later rows win across merges, and a failed commit rolls back what it staged while the writer goes on", async () => {
    const dir = root();
    const bulk = new LocalWriter(dir, { holdRows: 100 });
    const rows = (note: string, n: number | string = 1) => Array.from({ length: 100 }, (_, k) => ({ id: `k${k}`, n, note }));
    // Each call fills what the writer holds: it merges.
    for (const note of ["first", "second", "third"]) await bulk.upsertRows("lines", rows(note), ["id"]);
    await bulk.flush();
    expect(await bulk.query("SELECT note, count(*)::INT AS n FROM lines GROUP BY note")).toEqual([{ note: "third", n: 100 }]);
    // Rows DuckDB refuses fail their own call, at once: nothing of them goes in.
    await expect(bulk.upsertRows("lines", rows("bad", "oops"), ["id"])).rejects.toThrow(/oops|convert|Conversion/i);
    // A commit that fails (simulated): the call whose rows filled the writer hears of it, and the merge is rolled back.
    const writer = bulk as unknown as { commit: (...args: unknown[]) => Promise<void> };
    const commit = writer.commit.bind(bulk);
    writer.commit = () => Promise.reject(new Error("commit failed"));
    await expect(bulk.upsertRows("lines", rows("fourth"), ["id"])).rejects.toThrow("commit failed");
    writer.commit = commit;
    await bulk.flush();
    expect(await bulk.query("SELECT note, count(*)::INT AS n FROM lines GROUP BY note")).toEqual([{ note: "third", n: 100 }]);
    await bulk.upsertRows("lines", rows("fifth"), ["id"]);
    await bulk.flush();
    expect(await bulk.query("SELECT note, count(*)::INT AS n FROM lines GROUP BY note")).toEqual([{ note: "fifth", n: 100 }]);
    await bulk.close();
  });

  it("a bulk writer takes a batch's tables at once: a later call still wins its keys, and a failed staging drops everything staged", async () => {
    const dir = root();
    const bulk = new LocalWriter(dir, { holdRows: 10_000 });
    const lines = (from: number, to: number, note: string) => Array.from({ length: to - from }, (_, k) => ({ id: `k${from + k}`, n: from + k, note }));
    // Called together, as the sync calls them: they stage one after the other; the fourth's key k3 wins.
    await Promise.all([
      bulk.upsertRows("heads", [{ id: "h1", title: "Kickoff" }], ["id"]),
      bulk.upsertRows("lines", lines(0, 300, "first"), ["id"]),
      bulk.upsertRows("lines", lines(300, 500, "first"), ["id"]),
      bulk.upsertRows("lines", lines(3, 4, "later"), ["id"]),
    ]);
    await bulk.flush();
    expect(await bulk.query("SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS d, sum(n)::INT AS s FROM lines")).toEqual([{ n: 500, d: 500, s: 124_750 }]);
    expect(await bulk.query("SELECT note FROM lines WHERE id = 'k3'")).toEqual([{ note: "later" }]);
    expect(await bulk.query("SELECT title FROM heads")).toEqual([{ title: "Kickoff" }]);

    // The second staging of the next batch fails (simulated: DuckDB refuses nothing these rows could hold) after the
    // other table's rows were staged. The failed call rejects and everything staged is dropped, as after a failed
    // merge, so the batch is written again whole or not at all; the writer goes on.
    const writer = bulk as unknown as { load: (...args: unknown[]) => Promise<void> };
    const load = writer.load.bind(bulk);
    let calls = 0;
    writer.load = async (...args: unknown[]) => {
      if (++calls !== 2) return load(...args);
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error("staging failed");
    };
    const results = await Promise.allSettled([
      bulk.upsertRows("lines", lines(500, 600, "second"), ["id"]),
      bulk.upsertRows("heads", [{ id: "h2", title: "Renewal" }], ["id"]),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    writer.load = load;
    await bulk.flush();
    expect(await bulk.query("SELECT count(*)::INT AS n FROM lines")).toEqual([{ n: 500 }]);
    expect(await bulk.query("SELECT count(*)::INT AS n FROM heads")).toEqual([{ n: 1 }]);
    await Promise.all([bulk.upsertRows("heads", [{ id: "h2", title: "Renewal" }], ["id"]), bulk.upsertRows("lines", lines(500, 600, "second"), ["id"])]);
    await bulk.close();
    const reader = new LocalWriter(dir);
    expect(await reader.query("SELECT count(*)::INT AS n FROM lines")).toEqual([{ n: 600 }]);
    expect(await reader.query("SELECT id FROM heads ORDER BY id")).toEqual([{ id: "h1" }, { id: "h2" }]);
    await reader.close();
  });

  it("makes tables without a key constraint, merges into a table that has one (made by an earlier version), and two writers of the same keys never both insert them", async () => {
    const dir = root();
    const writer = new LocalWriter(dir);
    await writer.upsertRows("fresh", [{ id: "a", n: 1 }], ["id"]);
    await writer.query("CREATE TABLE keyed (id VARCHAR, n DOUBLE, PRIMARY KEY (id))");
    await writer.query("INSERT INTO keyed VALUES ('a', 1), ('b', 2)");
    expect(await writer.query("SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY' ORDER BY table_name")).toEqual([{ table_name: "keyed" }]);
    await writer.upsertRows("keyed", [{ id: "a", n: 10 }, { id: "c", n: 3 }], ["id"]);
    await writer.upsertRows("keyed", [{ id: "a", n: 11 }, { id: "c", n: 4 }], ["id"]);
    expect(await writer.query("SELECT id, n FROM keyed ORDER BY id")).toEqual([
      { id: "a", n: 11 },
      { id: "b", n: 2 },
      { id: "c", n: 4 },
    ]);
    // Two writers (a sync and another connector's sync of the same source) merge the same keys at once.
    const same = Array.from({ length: 3000 }, (_, i) => ({ id: `s${i}`, n: i }));
    const first = new LocalWriter(dir, { holdRows: 10_000 });
    const second = new LocalWriter(dir, { holdRows: 10_000 });
    await Promise.all([first.upsertRows("shared", same, ["id"]), second.upsertRows("shared", same, ["id"])]);
    await Promise.all([first.flush(), second.flush()]);
    expect(await writer.query("SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS d FROM shared")).toEqual([{ n: 3000, d: 3000 }]);
    await Promise.all([first.close(), second.close()]);
    await writer.close();
  });

  it("one writer's transactions at a time per file: a writer that waits makes a bulk writer commit what it holds, and keys cross its two transactions once", async () => {
    const dir = root();
    const bulk = new LocalWriter(dir, { holdRows: 100 });
    const rows = (from: number, to: number, note: string) => Array.from({ length: to - from }, (_, k) => ({ id: `k${from + k}`, note }));
    // The first transaction makes the table (it commits at once); then 50 rows are held in an open transaction.
    await bulk.upsertRows("lines", rows(0, 10, "first"), ["id"]);
    await bulk.upsertRows("lines", rows(10, 60, "held"), ["id"]);
    // Another writer of the file (a transform's results) does not wait for the sync to end: the bulk writer commits
    // what it holds when its current call is done, and the other writer's transaction follows.
    const other = new LocalWriter(dir);
    const wrote = other.upsertRows("results", [{ id: "r1", n: 1 }], ["id"]).then(() => "written");
    const later = new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5000));
    expect(await Promise.race([wrote, later])).toBe("written");
    expect(await other.query("SELECT count(*)::INT AS n FROM lines")).toEqual([{ n: 60 }]);
    // A key of a transaction that committed while the next one was open is written again: one row, the later one.
    await bulk.upsertRows("lines", rows(60, 160, "fills"), ["id"]); // fills a transaction: it commits in the background
    await bulk.upsertRows("lines", rows(160, 170, "next"), ["id"]);
    await bulk.upsertRows("lines", rows(65, 66, "again"), ["id"]);
    await bulk.flush();
    expect(await other.query("SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS d FROM lines")).toEqual([{ n: 170, d: 170 }]);
    expect(await other.query("SELECT note FROM lines WHERE id = 'k65'")).toEqual([{ note: "again" }]);
    await Promise.all([bulk.close(), other.close()]);
  });

  it("writes values larger than read_json's default object size without losing a row, a write that runs out of memory fails only its call, and DuckDB keeps its own memory limit", async () => {
    const dir = root();
    const writer = new LocalWriter(dir, { holdRows: 10_000 });
    const reader = new LocalWriter(dir);
    const limit = async () => (await reader.query("SELECT current_setting('memory_limit') AS v"))[0]!.v as string;
    const own = await limit();
    await writer.upsertRows("docs", [{ id: "small", body: "s" }], ["id"]);
    // Two values of 48 MiB each: each row is more than read_json takes by default (16 MiB).
    const big = (c: string) => c.repeat(48 * 2 ** 20);
    await writer.upsertRows("docs", [{ id: "a", body: big("a") }, { id: "b", body: big("b") }], ["id"]);
    await writer.upsertRows("docs", [{ id: "c", body: "c" }], ["id"]);
    await writer.flush();
    expect(await reader.query("SELECT id, length(body)::INT AS n, left(body, 1) AS first FROM docs ORDER BY id")).toEqual([
      { id: "a", n: 48 * 2 ** 20, first: "a" },
      { id: "b", n: 48 * 2 ** 20, first: "b" },
      { id: "c", n: 1, first: "c" },
      { id: "small", n: 1, first: "s" },
    ]);
    await writer.close();
    // A write that runs out of memory (simulated) fails its call (DuckDB aborted its transaction); a later writer (the
    // sync's retry) writes it.
    const failing = new LocalWriter(dir, { holdRows: 10_000 });
    const hooked = failing as unknown as { load: (...args: unknown[]) => Promise<void> };
    hooked.load = () => Promise.reject(new Error("Out of Memory Error: could not allocate block of size 256.0 KiB"));
    await expect(failing.upsertRows("docs", [{ id: "d", body: "d" }], ["id"])).rejects.toThrow(/Out of Memory/);
    await failing.close();
    const retry = new LocalWriter(dir, { holdRows: 10_000 });
    await retry.upsertRows("docs", [{ id: "d", body: "d" }], ["id"]);
    await retry.close();
    expect(await reader.query("SELECT count(*)::INT AS n FROM docs")).toEqual([{ n: 5 }]);
    // DuckDB shows a limit rounded down ('18.8 GiB' set reads '18.7 GiB'): the same within 1%.
    const bytes = (v: string) => parseFloat(v) * 2 ** (10 * ["KiB", "MiB", "GiB", "TiB"].indexOf(v.split(" ")[1]!) + 10);
    expect(Math.abs(bytes(await limit()) / bytes(own) - 1)).toBeLessThan(0.01);
    await reader.close();
  }, 90_000);

  it("runs calls made at the same time one after the other (one transaction at a time on the connection)", async () => {
    const writer = new LocalWriter(root());
    const batches = Array.from({ length: 6 }, (_, b) => Array.from({ length: 500 }, (_, i) => ({ id: `b${b}-${i}`, b, i })));
    await Promise.all([...batches.map((rows) => writer.upsertRows("together", rows, ["id"])), writer.upsertRows("together", [{ id: "bad", b: "x", i: 0 }, { id: "bad2", b: 1, i: 0 }], ["id"]).catch(() => "refused")]);
    expect(await writer.query("SELECT count(*)::INT AS n, count(DISTINCT b)::INT AS b FROM together")).toEqual([{ n: 3000, b: 6 }]);
    await writer.close();
  });

  it("adds new columns in later batches (any case), reading the table's columns again in a new writer", async () => {
    const dir = root();
    const first = new LocalWriter(dir);
    await first.upsertRows("notes", [{ id: "n1", body: "one" }], ["id"]);
    await first.close();
    const second = new LocalWriter(dir);
    await second.upsertRows("notes", [{ id: "n2", body: "two", Score: 2 }], ["id"]);
    await second.upsertRows("notes", [{ id: "n3", score: 3, flagged: true, meta: { k: "v" } }], ["id"]);
    expect(await columnsOfTable(second, "notes")).toEqual(["id", "body", "Score", "flagged", "meta"]);
    expect(await second.query("SELECT id, body, Score AS score, flagged, meta->>'k' AS k FROM notes ORDER BY id")).toEqual([
      { id: "n1", body: "one", score: null, flagged: null, k: null },
      { id: "n2", body: "two", score: 2, flagged: null, k: null },
      { id: "n3", body: null, score: 3, flagged: true, k: "v" },
    ]);
    await second.close();
  });

  it("writes a path given twice in one call once, with its later body, and never leaves half a file", async () => {
    const writer = new LocalWriter(root());
    const objects: DestinationObject[] = Array.from({ length: 300 }, (_, i) => ({ path: `d${i % 5}/f${i}.txt`, body: `body ${i}\n`.repeat(50) }));
    await writer.writeObjects([...objects, { path: "d0/f0.txt", body: "last" }]);
    const files = filesUnder(path.join(writer.root, "files"));
    expect(files).toHaveLength(300);
    expect(readFileSync(path.join(writer.root, "files/d0/f0.txt"), "utf8")).toBe("last");
    expect(readFileSync(path.join(writer.root, "files/d1/f1.txt"), "utf8")).toBe("body 1\n".repeat(50));
    // A file that cannot be written leaves no temporary file behind, and the error keeps its OS code.
    // ("d1" is a folder: the temporary file is written, renaming it over the folder fails.)
    await expect(writer.writeObjects([{ path: "d1", body: "x" }])).rejects.toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    expect(filesUnder(path.join(writer.root, "files")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // A folder removed under a running writer is made again.
    rmSync(path.join(writer.root, "files/d2"), { recursive: true });
    await writer.writeObjects([{ path: "d2/again.txt", body: "x" }]);
    expect(readFileSync(path.join(writer.root, "files/d2/again.txt"), "utf8")).toBe("x");
    await writer.close();
  });

  it("leaves a file that already holds the body as it is (a re-run of a window), and rewrites one whose body changed", async () => {
    const writer = new LocalWriter(root());
    const at = (name: string) => path.join(writer.root, "files/zoom", name);
    await writer.writeObjects([
      { path: "zoom/same.vtt", body: "WEBVTT\n\nhello" },
      { path: "zoom/changed.txt", body: "first" },
      { path: "zoom/bytes.bin", body: new Uint8Array([1, 2, 3]) },
    ]);
    const before = { same: statSync(at("same.vtt")).ino, changed: statSync(at("changed.txt")).ino, bytes: statSync(at("bytes.bin")).ino };
    await writer.writeObjects([
      { path: "zoom/same.vtt", body: "WEBVTT\n\nhello" },
      { path: "zoom/changed.txt", body: "second" },
      { path: "zoom/bytes.bin", body: new Uint8Array([1, 2, 3]) },
    ]);
    // A file written again is a new file renamed over the old one (a new inode); one left alone keeps its inode.
    expect(statSync(at("same.vtt")).ino).toBe(before.same);
    expect(statSync(at("bytes.bin")).ino).toBe(before.bytes);
    expect(statSync(at("changed.txt")).ino).not.toBe(before.changed);
    expect(readFileSync(at("changed.txt"), "utf8")).toBe("second");
    // Same size, other bytes: rewritten.
    await writer.writeObjects([{ path: "zoom/same.vtt", body: "WEBVTT\n\nhellO" }]);
    expect(readFileSync(at("same.vtt"), "utf8")).toBe("WEBVTT\n\nhellO");
    await writer.close();
  });

  it("stages a bulk writer's rows in files until it merges them, and a stopped process's leftovers go when the warehouse is opened", async () => {
    const dir = root();
    const staging = path.join(dir, "staging");
    const bulk = new LocalWriter(dir, { holdRows: 10_000 });
    await bulk.upsertRows("lines", [{ id: "a", n: 1 }], ["id"]);
    await bulk.upsertRows("lines", [{ id: "b", n: 2 }], ["id"]);
    expect(readdirSync(staging)).toHaveLength(2);
    await bulk.flush();
    expect(readdirSync(staging)).toEqual([]);
    await bulk.close();
    // What a process stopped mid-sync left behind.
    writeFileSync(path.join(staging, "left-0.json"), '[{"id":"zzz"}]');
    const next = new LocalWriter(dir);
    expect(await next.query("SELECT count(*)::INT AS n FROM lines")).toEqual([{ n: 2 }]);
    expect(readdirSync(staging)).toEqual([]);
    await next.close();
  });

  it("the file thread does not keep a process alive once its writes are done", async () => {
    const dir = root();
    const local = fileURLToPath(new URL("../../backend/integrations/destinations/local/index.ts", import.meta.url));
    const code = `
      import { LocalWriter } from ${JSON.stringify(local)};
      const w = new LocalWriter(${JSON.stringify(dir)});
      await w.writeObjects([{ path: "a/one.txt", body: "one" }, { path: "a/two.txt", body: "two" }]);
      await w.close();
      console.log("closed");
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const exited = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 20_000);
      child.once("exit", () => (clearTimeout(timer), resolve(true)));
    });
    if (!exited) child.kill("SIGKILL");
    expect(out).toContain("closed");
    expect(exited).toBe(true);
    expect(readFileSync(path.join(dir, "files/a/two.txt"), "utf8")).toBe("two");
  }, 30_000);

  it("a process killed mid-batch loses nothing and duplicates nothing once the batch is written again", async () => {
    const dir = root();
    const local = fileURLToPath(new URL("../../backend/integrations/destinations/local/index.ts", import.meta.url));
    // The child stages a large batch (files, then rows) and is killed with SIGKILL while it writes.
    const code = `
      import { LocalWriter } from ${JSON.stringify(local)};
      const w = new LocalWriter(${JSON.stringify(dir)});
      await w.upsertRows("lines", [{ id: "seed", n: -1 }], ["id"]);
      const rows = Array.from({ length: 200000 }, (_, i) => ({ id: "r" + i, n: i, text: "line " + i }));
      const objects = Array.from({ length: 2000 }, (_, i) => ({ path: "p/" + (i % 20) + "/" + i + ".txt", body: ("object " + i + "\\n").repeat(200) }));
      console.log("writing");
      await w.writeObjects(objects);
      await w.upsertRows("lines", rows, ["id"]);
      console.log("done");
      await w.close();
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    await new Promise<void>((resolve) => child.stdout.on("data", (d: Buffer) => ((out += d.toString()), out.includes("writing") && resolve())));
    await new Promise((r) => setTimeout(r, 150));
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(out).not.toContain("done"); // killed mid-batch, not after it

    const writer = new LocalWriter(dir);
    const [before] = await writer.query("SELECT count(*)::INT AS n FROM lines");
    // All of the batch or none of it, never a part.
    expect([1, 200001]).toContain(before!.n);
    const objectsBefore = filesUnder(path.join(dir, "files")).filter((f) => !f.endsWith(".tmp"));
    for (const f of objectsBefore) {
      const i = Number(path.basename(f, ".txt"));
      expect(readFileSync(path.join(dir, "files", f), "utf8")).toBe(`object ${i}\n`.repeat(200));
    }
    // The retry: the same batch again.
    const rows: Row[] = Array.from({ length: 200000 }, (_, i) => ({ id: `r${i}`, n: i, text: `line ${i}` }));
    const objects = Array.from({ length: 2000 }, (_, i) => ({ path: `p/${i % 20}/${i}.txt`, body: `object ${i}\n`.repeat(200) }));
    await writer.writeObjects(objects);
    await writer.upsertRows("lines", rows, ["id"]);
    expect(await writer.query("SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS d, max(n)::INT AS m FROM lines")).toEqual([{ n: 200001, d: 200001, m: 199999 }]);
    expect(filesUnder(path.join(dir, "files")).filter((f) => !f.endsWith(".tmp"))).toHaveLength(2000);
    await writer.close();
  }, 60_000);
});

describe("the sync's write half (writeRecords) through a LocalWriter", () => {
  const SOURCE = "6f1c2a9e-0d3b-4c55-9a41-2b7e8f0c1d23";
  /** Batches of Zoom meetings, as a Zoom connector's sync makes them. */
  const zoomBatch = batchMaker(zoomPlugin, { platform: "zoom", sourceId: SOURCE });
  const to = new Date("2026-11-20T00:00:00Z");
  const meetings = () => generateMeetings({ sourceId: SOURCE, company: "Acme Rockets", from: new Date(to.getTime() - 2 * 86_400_000), to, meetingsPerDay: 6 });

  it("writes every record in batches, counts records and bytes, and a second run changes nothing", async () => {
    const dir = root();
    const all = [...meetings()];
    const lines = all.reduce((n, m) => n + m.utterances.length, 0);
    const run = async () => {
      const writer = new LocalWriter(dir);
      try {
        return await writeRecords([{ name: "Disk", writer }], meetings(), zoomBatch, 4);
      } finally {
        await writer.close();
      }
    };
    const first = await run();
    const files = filesUnder(path.join(dir, "files"));
    expect(first.records).toBe(all.length);
    expect(files).toHaveLength(all.length * 2);
    expect(first.bytes).toBe(files.reduce((n, f) => n + statSync(path.join(dir, "files", f)).size, 0));
    const second = await run();
    expect(second).toEqual(first);
    expect(filesUnder(path.join(dir, "files"))).toEqual(files);
    const reader = new LocalWriter(dir);
    expect(await reader.query("SELECT (SELECT count(*) FROM meetings)::INT AS m, (SELECT count(*) FROM transcript_utterances)::INT AS u, (SELECT count(DISTINCT utterance_id) FROM transcript_utterances)::INT AS d")).toEqual([
      { m: all.length, u: lines, d: lines },
    ]);
    await reader.close();
  });

  it("overlapping lookback windows write each meeting and each line once, as one run over their union would", async () => {
    const dir = root();
    const day = 86_400_000;
    const window = (fromDays: number, toDays: number) => generateMeetings({ sourceId: SOURCE, company: "Acme Rockets", from: new Date(to.getTime() - fromDays * day), to: new Date(to.getTime() - toDays * day), meetingsPerDay: 40 });
    const run = async (meetings: Iterable<Meeting>) => {
      const writer = new LocalWriter(dir);
      try {
        return await writeRecords([{ name: "Disk", writer }], meetings, zoomBatch, 25);
      } finally {
        await writer.close();
      }
    };
    await run(window(3, 1)); // days -3 and -2
    await run(window(2, 0)); // days -2 (again) and -1
    const all = [...window(3, 0)];
    const lines = all.flatMap((m) => m.utterances.map((u) => `${m.id}-${String(u.index).padStart(4, "0")}`)).sort();
    const reader = new LocalWriter(dir);
    expect(await reader.query("SELECT (SELECT count(*) FROM meetings)::INT AS m, (SELECT count(DISTINCT meeting_id) FROM meetings)::INT AS dm, (SELECT count(*) FROM transcript_utterances)::INT AS u")).toEqual([{ m: all.length, dm: all.length, u: lines.length }]);
    const ids = await reader.query("SELECT utterance_id FROM transcript_utterances ORDER BY utterance_id");
    expect(ids.map((r) => r.utterance_id)).toEqual(lines);
    await reader.close();
  });

  it("batches by the largest batch its writers ask for: a bulk local writer's small batches, a cloud writer's usual ones", async () => {
    const recording = (batchRecords?: number) => {
      const sizes: number[] = [];
      const writer: DestinationWriter = {
        writeObjects: async () => {},
        upsertRows: async (table, rows) => {
          if (table === "meetings") sizes.push(rows.length);
        },
        close: async () => {},
        ...(batchRecords === undefined ? {} : { batchRecords }),
      };
      return { writer, sizes };
    };
    const many = (n: number) => Array.from({ length: n }, (_, i) => i);
    const toBatch = (items: number[]) => ({ records: items.length, objects: [], tables: [{ table: "meetings", rows: items.map((i) => ({ meeting_id: `m${i}` })), key: ["meeting_id"] }] });
    // The bulk local writer asks for BULK_BATCH_RECORDS; one that merges every call asks for nothing.
    expect(new LocalWriter(root(), { holdRows: BULK_ROWS }).batchRecords).toBe(BULK_BATCH_RECORDS);
    expect(new LocalWriter(root()).batchRecords).toBeUndefined();
    expect(BULK_BATCH_RECORDS).toBeLessThan(BATCH_RECORDS);

    const small = recording(3);
    await writeRecords([{ name: "Small", writer: small.writer }], many(8), toBatch);
    expect(small.sizes).toEqual([3, 3, 2]);
    // Beside a writer that asks for nothing (a cloud warehouse, one merge per call), both get BATCH_RECORDS.
    const bulk = recording(3);
    const cloud = recording();
    await writeRecords([{ name: "Small", writer: bulk.writer }, { name: "Cloud", writer: cloud.writer }], many(BATCH_RECORDS + 1), toBatch);
    expect(cloud.sizes).toEqual([BATCH_RECORDS, 1]);
    expect(bulk.sizes).toEqual(cloud.sizes);
    // A size given by the caller wins.
    const given = recording(3);
    await writeRecords([{ name: "Small", writer: given.writer }], many(5), toBatch, 4);
    expect(given.sizes).toEqual([4, 1]);
  });

  it("a read error ends the run once the batch being written has finished (nothing left writing behind it)", async () => {
    const local = new LocalWriter(root());
    function* failingRead() {
      let n = 0;
      for (const meeting of meetings()) {
        if (++n === 5) throw new Error("the source went away");
        yield meeting;
      }
    }
    await expect(writeRecords([{ name: "Disk", writer: local }], failingRead(), zoomBatch, 2)).rejects.toThrow("the source went away");
    // Batches 1 and 2 (4 meetings) were complete when the error came out: files and rows.
    expect(await local.query("SELECT (SELECT count(*) FROM meetings)::INT AS m, (SELECT count(DISTINCT meeting_id) FROM transcript_utterances)::INT AS u")).toEqual([{ m: 4, u: 4 }]);
    expect(filesUnder(path.join(local.root, "files")).filter((f) => !f.endsWith(".tmp"))).toHaveLength(8);
    await local.close();
  });

  it("stops at a failing batch with the destination's name; earlier batches stay written; OS refusals are permanent", async () => {
    const dir = root();
    const local = new LocalWriter(dir);
    let calls = 0;
    const failing = (code?: string): DestinationWriter => ({
      writeObjects: async () => {
        if (++calls === 3) throw Object.assign(new Error("disk says no"), code ? { code } : {});
      },
      upsertRows: async () => {},
      close: async () => {},
    });
    const attempt = writeRecords([{ name: "Disk", writer: local }, { name: "Flaky", writer: failing() }], meetings(), zoomBatch, 2);
    await expect(attempt).rejects.toThrow('Writing to destination "Flaky" failed: disk says no');
    await expect(attempt).rejects.not.toBeInstanceOf(PermanentSyncError);
    // Batches 1 and 2 reached the local destination; batch 3 reached it too before "Flaky" refused it, and nothing later did.
    expect(await local.query("SELECT count(*)::INT AS n FROM meetings")).toEqual([{ n: 6 }]);
    await local.close();
    calls = 0;
    const refused = writeRecords([{ name: "Read-only", writer: failing("EROFS") }], meetings(), zoomBatch, 2);
    await expect(refused).rejects.toBeInstanceOf(PermanentSyncError);
  });

  it("a host refused by the public-address rule before connecting is permanent: the run is not retried", async () => {
    const refusing: DestinationWriter = {
      writeObjects: async () => {
        throw new RefusedHostError("db.internal.test", "127.0.0.1");
      },
      upsertRows: async () => {},
      close: async () => {},
    };
    const attempt = writeRecords([{ name: "Warehouse", writer: refusing }], meetings(), zoomBatch, 2);
    await expect(attempt).rejects.toBeInstanceOf(PermanentSyncError);
    await expect(attempt).rejects.toThrow('Writing to destination "Warehouse" failed: db.internal.test is not a public address: Tributary connects only to hosts on the public internet');
  });
});
