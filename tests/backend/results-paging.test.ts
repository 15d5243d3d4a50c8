import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Warehouse } from "../../backend/integrations/destinations/warehouse.js";
import { openWarehouse } from "../../backend/transforms/warehouse.js";
import { resultTableName } from "../../backend/transforms/runner.js";
import type { SyncRun } from "../../contract/connectors.js";
import type { Destination } from "../../contract/destinations.js";
import type { TransformRun } from "../../contract/transforms.js";
import { api, waitForRun } from "../support/backend.js";
import { destinationsConfigs } from "../support/destinations/configs.js";
import { hasWarehouse, startDestinationsHarness, type DestinationsHarness } from "../support/destinations/harness.js";
import { readWarehouse, seedDatagenConnector } from "../support/seed.js";

/**
 * Issue 54, "paging through every row": a result table read a page at a time, in its key's order, so that the pages
 * together hold every row of the run once. Each warehouse's readTable (LIMIT with OFFSET, ORDER BY the key, text by
 * its bytes) over rows written out of order by its own results writer; then GET /transforms/{id}/results?offset=
 * over a real action_items run, and its refusal of an offset that is not one.
 */
/** Every destination whose plug-in gives a warehouse: local DuckDB, BigQuery, Snowflake (both kinds), PostgreSQL. */
const WAREHOUSES = destinationsConfigs().filter(hasWarehouse);
let h: DestinationsHarness;

beforeAll(async () => {
  h = await startDestinationsHarness({ email: "paging@example.com", role: "all", configs: WAREHOUSES });
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

const RUN = "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f";
const OTHER_RUN = "00000000-0000-4000-8000-000000000001";
/** Text keys whose byte order ("Zeta" < "alpha") is not a dictionary's, and numbers whose order is not their text's (9 < 10). */
const ACCOUNTS = ["alpha", "Zeta", "beta"];
const NUMBERS = [10, 2, 20, 1, 9, 12, 3, 11];
/** 24 rows of RUN, written in this (unordered) order; and 3 rows of another run, which no page of RUN shows. */
const ROWS = ACCOUNTS.flatMap((account) => NUMBERS.map((n) => ({ account, n, note: `${account} #${n}`, run_id: RUN })));
const OTHERS = [1, 2, 3].map((n) => ({ account: "alpha", n: 100 + n, note: "another run", run_id: OTHER_RUN }));
/** ROWS in (account, n) order, text compared as bytes. */
const ORDERED = [...ROWS].sort((a, b) => Buffer.compare(Buffer.from(a.account), Buffer.from(b.account)) || a.n - b.n).map((r) => `${r.account} #${r.n}`);
const PAGE = 5;
const TABLE = "paging_rows";

/** Every page of RUN's rows, PAGE at a time, until one comes back empty. */
async function pages(warehouse: Warehouse) {
  const out: string[][] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await warehouse.readTable(TABLE, PAGE, RUN, undefined, { offset, orderBy: ["account", "n"] });
    expect(page?.total, `total at offset ${offset}`).toBe(ROWS.length);
    const rows = page!.rows.map((r) => String(r.note));
    if (rows.length === 0) return out;
    out.push(rows);
    expect(out.length, "pages before one came back empty").toBeLessThanOrEqual(Math.ceil(ROWS.length / PAGE));
  }
}

/** The SQL the fakes saw, for the warehouses whose fakes keep it. */
const sent: Record<string, () => string[]> = {
  bigquery: () => h.ctx.fakes.bigquery.queries,
  snowflake: () => h.ctx.fakes.snowflake.statements.map((s) => s.sqlText),
};

describe("readTable pages in the key's order", () => {
  describe.each(WAREHOUSES)("$name", (config) => {
    let destination: Destination;
    beforeAll(async () => {
      destination = await config.create(h.ctx);
      const warehouse = openWarehouse(await h.stored(destination), h.ownerId, h.services);
      try {
        const results = await warehouse.resultsWriter();
        try {
          await results.writer.upsertRows(TABLE, [...ROWS.slice(12), ...OTHERS, ...ROWS.slice(0, 12)], ["account", "n"]);
          await results.writer.flush?.();
        } finally {
          await results.done();
        }
      } finally {
        await warehouse.close();
      }
    }, 60_000);

    it("every row of the run once, page after page, the same pages every time; none past the end", async () => {
      const warehouse = openWarehouse(await h.stored(destination), h.ownerId, h.services);
      try {
        const first = await pages(warehouse);
        expect(first.map((p) => p.length)).toEqual([5, 5, 5, 5, 4]);
        expect(first.flat()).toEqual(ORDERED);
        // Read again (and a page on its own): the same rows on the same pages.
        expect(await pages(warehouse)).toEqual(first);
        expect((await warehouse.readTable(TABLE, PAGE, RUN, undefined, { offset: 10, orderBy: ["account", "n"] }))!.rows.map((r) => r.note)).toEqual(first[2]);
        // A column named "-n" sorts descending (a results page's "the riskiest first"), the rest as given.
        const descending = [...ROWS].sort((a, b) => b.n - a.n || Buffer.compare(Buffer.from(a.account), Buffer.from(b.account))).map((r) => r.note);
        expect((await warehouse.readTable(TABLE, 100, RUN, undefined, { orderBy: ["-n", "account"] }))!.rows.map((r) => r.note)).toEqual(descending);
        // Past the end: no rows, the total still told.
        expect(await warehouse.readTable(TABLE, PAGE, RUN, undefined, { offset: 1_000, orderBy: ["account", "n"] })).toMatchObject({ rows: [], total: ROWS.length });
        // An order-by column the table lacks is left out; with no order at all, the run's rows all the same.
        const unordered = await warehouse.readTable(TABLE, 100, RUN, undefined, { orderBy: ["no_such_column"] });
        expect(unordered!.rows.map((r) => String(r.note)).sort()).toEqual([...ORDERED].sort());
        expect((await warehouse.readTable(TABLE, 100, RUN))!.rows).toHaveLength(ROWS.length);
        // A name that is none of the table's columns never reaches the SQL.
        await expect(warehouse.readTable(TABLE, PAGE, RUN, undefined, { orderBy: ['n" DESC; DROP TABLE x; --'] })).resolves.toMatchObject({ total: ROWS.length });
      } finally {
        await warehouse.close();
      }
      const seen = sent[config.name]?.().filter((sql) => /^SELECT \* FROM .* ORDER BY /.test(sql));
      if (config.name === "bigquery") expect(seen).toContain(`SELECT * FROM \`conformance-project.conformance.${TABLE}\` WHERE run_id = @run ORDER BY \`account\`, \`n\` LIMIT 5 OFFSET 10`);
      if (config.name === "snowflake") expect(seen).toContain(`SELECT * FROM RAW.CONFORMANCE.${TABLE.toUpperCase()} WHERE RUN_ID = ? ORDER BY ACCOUNT, N LIMIT 5 OFFSET 10`);
    });
  });
});

describe("GET /transforms/{id}/results?offset=", () => {
  const call = (route: string) => api(h.t, h.cookie, "GET", route);

  it("pages through an action_items table in its key's order: every item once, the same pages every time", async () => {
    const { connectorId, folder } = await seedDatagenConnector(h.t, h.cookie, { name: "Paged calls" });
    const synced = await api(h.t, h.cookie, "POST", `/connectors/${connectorId}/sync`);
    const sync = await waitForRun<SyncRun>(h.t, h.cookie, `/connectors/${connectorId}`, synced.body.run.id, { timeoutMs: 60_000 });
    expect(sync.status).toBe("succeeded");
    const created = await api(h.t, h.cookie, "POST", "/transforms/create", {
      template_id: "action_items",
      name: "Paged items",
      description: "",
      connector_id: connectorId,
      permissions_setup: true,
      frequency: "daily",
      file_types: [".vtt"],
      status: "PENDING",
    });
    expect(created.status).toBe(201);
    const id = created.body.transform_id as string;
    const run = await waitForRun<TransformRun>(h.t, h.cookie, `/transforms/${id}`, created.body.run_id, { timeoutMs: 80_000 });
    expect({ status: run.status, error: run.error }).toEqual({ status: "succeeded", error: null });
    const table = resultTableName(id, "action_items");
    const total = run.outputs[0]!.rows;
    // A warehouse keeps rows in no set order: stored here last key first, the pages must still come in the output's order.
    for (const sql of [
      `CREATE TABLE reversed AS SELECT * FROM "${table}" ORDER BY utterance_id DESC`,
      `DELETE FROM "${table}"`,
      `INSERT INTO "${table}" SELECT * FROM reversed ORDER BY utterance_id DESC`,
      "DROP TABLE reversed",
    ])
      await readWarehouse(h.t, folder, sql);
    // Four pages or so, whatever the generator's volume: enough to cross pages.
    const limit = Math.max(2, Math.ceil(total / 4));
    expect(total).toBeGreaterThan(limit * 2);

    const read = async () => {
      const seen: { id: string; at: number }[] = [];
      for (let offset = 0; offset < total; offset += limit) {
        const page = await call(`/transforms/${id}/results?table=${table}&limit=${limit}&offset=${offset}`);
        expect(page.status).toBe(200);
        expect(page.body).toMatchObject({ table, label: "Action items", offset, total });
        expect(page.body.rows).toHaveLength(Math.min(limit, total - offset));
        seen.push(...page.body.rows.map((r: { utterance_id: string; spoken_at: string; run_id: string }) => (expect(r.run_id).toBe(run.id), { id: r.utterance_id, at: Date.parse(r.spoken_at) })));
      }
      return seen;
    };
    const items = await read();
    const ids = items.map((i) => i.id);
    // No item twice, none missed, in the output's order: when it was said (its declared order), then utterance_id
    // (its key; text by its bytes), which makes the order total.
    expect(new Set(ids).size).toBe(total);
    const inOrder = [...items].sort((a, b) => a.at - b.at || Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)));
    expect(ids).toEqual(inOrder.map((i) => i.id));
    expect(await read()).toEqual(items);
    // The first page is the details page's first rows, and no offset is offset 0.
    const first = await call(`/transforms/${id}/results?table=${table}&limit=5`);
    expect(first.body).toMatchObject({ offset: 0, total });
    expect(first.body.rows.map((r: { utterance_id: string }) => r.utterance_id)).toEqual(ids.slice(0, 5));
    // Past the end: no rows, and the total, so that the page can say how many pages there are.
    expect((await call(`/transforms/${id}/results?table=${table}&offset=${total}`)).body).toMatchObject({ offset: total, rows: [], total });
    expect((await call(`/transforms/${id}/results?table=${table}&offset=1000000000`)).body).toMatchObject({ rows: [], total });

    // The results page's one call: the charts, and each table's first rows as the first page gives them.
    const page = await call(`/transforms/${id}/charts?tz=Europe/Paris&rows=5`);
    expect(page.status).toBe(200);
    expect(page.body.charts.map((c: { id: string }) => c.id)).toEqual(["items_per_owner", "items_per_week"]);
    expect(page.body.results).toEqual([{ table, label: "Action items", columns: first.body.columns, rows: first.body.rows, total }]);
    expect((await call(`/transforms/${id}/charts`)).body.results).toBeUndefined();
    for (const rows of ["0", "501", "abc", "-1", ""])
      expect(await call(`/transforms/${id}/charts?rows=${rows}`)).toEqual({ status: 400, body: { message: "rows must be a whole number from 1 to 500.", field: "rows" } });

    // An offset that is not a whole number from 0 to a billion is a 400 with a sentence, never a 500.
    for (const offset of ["-1", "abc", "1.5", "1e3", "", " 2", "0x10", "1000000001", "99999999999"]) {
      const refused = await call(`/transforms/${id}/results?table=${table}&offset=${encodeURIComponent(offset)}`);
      expect({ offset, ...refused }).toEqual({ offset, status: 400, body: { message: "offset must be a whole number from 0 to 1000000000.", field: "offset" } });
    }

    // A page looked at again is served as drawn, until a new run: then it shows that run's results.
    expect((await call(`/transforms/${id}/charts?tz=Europe/Paris&rows=5`)).body).toEqual(page.body);
    const again = await api(h.t, h.cookie, "POST", `/transforms/${id}/run`);
    expect(again.status).toBe(202);
    const second = await waitForRun<TransformRun>(h.t, h.cookie, `/transforms/${id}`, again.body.run.id, { timeoutMs: 80_000 });
    expect(second.status).toBe("succeeded");
    const redrawn = await call(`/transforms/${id}/charts?tz=Europe/Paris&rows=5`);
    expect(redrawn.body.results[0].rows.map((r: { run_id: string }) => r.run_id)).toEqual(Array(5).fill(second.id));
  });
});
