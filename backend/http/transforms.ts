import { Hono, type Context } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { jsonBody } from "../lib/requests.js";
import { listHandler } from "./list-route.js";
import { listTransforms } from "../db/lists.js";
import { connectorChoices, connectorDataOf, findTransformRunDetails, latestSucceededRun, listTransformRuns, transformFailing } from "../db/transforms.js";
import { addScheduleRoutes } from "./schedules.js";
import { addRunRoutes } from "./run-routes.js";
import { TRANSFORM_FILE_TYPES, TRANSFORM_MESSAGES as M } from "../../contract/transforms.js";
import { allDefinitions, templateDefinition } from "../transforms/catalogue.js";
import { resultTables } from "../transforms/runner.js";
import { dataFileTypes, openWarehouse, ownedWarehouseDestination } from "../transforms/warehouse.js";
import { MAX_DOWNLOAD_ROWS, resultsCsv } from "../transforms/results-csv.js";
import { cancelTransformRun, checkTransformDraft, createTransform, deleteTransform, getTransform, getTransformRow, runTransform, transformSchedules } from "../services/transforms.js";
import { conflict, invalid, ServiceError } from "../services/errors.js";
import { presentTransform, presentTransformRun, TRANSFORM_RUN_VIEWS } from "../present/transforms.js";
import { presentCancel } from "../present/runs.js";
import { LRUCache } from "lru-cache";
import { renderChart, type RenderedChart } from "../transforms/charts/render.js";
import type { Warehouse } from "../integrations/destinations/warehouse.js";
import { isTimeZone } from "../../contract/run-operations.js";

/**
 * Spec §7 "Transforms" plus, beyond the spec, the first screen's server
 * check (validate-draft), Run now, run history and result rows.
 */
export const transformsRoutes = new Hono<ApiEnv>();
transformsRoutes.use("/transforms/*", requireSession);

transformsRoutes.get("/transforms/config", async (c) => {
  return c.json({
    transform_types: allDefinitions().map((d) => ({ value: d.transformType, label: d.label })),
    connectors: (await connectorChoices(c.var.services.db, c.var.actor.ownerId)).map((connector) => ({
      id: connector.id,
      name: connector.name,
      file_types: dataFileTypes(connector),
      synced: connector.synced,
    })),
    file_types: [...TRANSFORM_FILE_TYPES],
  });
});

transformsRoutes.get("/transforms/list", listHandler("transforms", listTransforms, presentTransform));

/** The first screen's Continue (§5): the schema's checks, the connector is the caller's, the name is not taken. */
transformsRoutes.post("/transforms/validate-draft", async (c) => {
  await checkTransformDraft(c.var.services, c.var.actor, await jsonBody(c));
  return c.json({ status: "success", message: "The transform can be configured." });
});

transformsRoutes.post("/transforms/create", async (c) => {
  const { row, run } = await createTransform(c.var.services, c.var.actor, await jsonBody(c));
  return c.json({ status: "success", transform_id: row.id, run_id: run?.id ?? null, message: "Transform created" }, 201);
});

transformsRoutes.delete("/transforms/delete/:id", async (c) => {
  await deleteTransform(c.var.services, c.var.actor, c.req.param("id"));
  return c.json({ message: "Transform deleted" });
});

const owned = (c: Context<ApiEnv>) => getTransformRow(c.var.services, c.var.actor, c.req.param("id")!);

/** Run now: 409 while a run is queued or running. */
transformsRoutes.post("/transforms/:id/run", async (c) => c.json({ status: "success", run: presentTransformRun(await runTransform(c.var.services, c.var.actor, c.req.param("id"))), message: "Run queued" }, 202));

/** Cancel the transform's queued or running run: 200 when it is over (or nothing was open), 202 while it stops. */
transformsRoutes.post("/transforms/:id/cancel", async (c) => {
  const { body, stopping } = presentCancel(await cancelTransformRun(c.var.services, c.var.actor, c.req.param("id")), "run");
  return c.json(body, stopping ? 202 : 200);
});

addRunRoutes(transformsRoutes, "transforms", { kind: "transform", owned, list: listTransformRuns, failing: transformFailing, details: findTransformRunDetails, present: TRANSFORM_RUN_VIEWS });

/**
 * The result tables of a transform's latest successful run, read from its connector's warehouse: opened once for all
 * the reads of a request (opening it is most of a small read's time), closed by `close`. Each table's rows come in its
 * output's declared order then its key (the key makes the order total: pages neither repeat nor miss a row).
 */
async function resultsOf(c: Context<ApiEnv>) {
  const { db } = c.var.services;
  const transform = await owned(c);
  const tables = resultTables(transform);
  // resultTables lists the template's outputs in order: the output's label is its words on the results page ("Topics").
  const definition = transform.templateId ? templateDefinition(transform.templateId) : undefined;
  const outputOf = (table: string) => definition?.outputs[tables.indexOf(table)];
  const latest = await latestSucceededRun(db, transform.id);
  let warehouse: { open: Warehouse; name: string } | null = null;
  const requirement = transform.requirementInputs as Record<string, string | undefined>;
  const location = { dataset: requirement.results_dataset, schema: requirement.results_schema };
  return {
    transform,
    definition,
    tables,
    /** The run the results are of: what a drawing of them is kept under. */
    runId: latest?.id ?? null,
    label: (table: string) => outputOf(table)?.label ?? table,
    /** Whether the latest successful run wrote this table. */
    written: (table: string) => Boolean(latest?.outputs.some((o) => o.table === table)),
    /** `limit` rows at most after the first `offset`, or no page when the latest successful run wrote none. */
    async read(table: string, limit: number, offset = 0) {
      if (!latest?.outputs.some((o) => o.table === table)) return null;
      if (!warehouse) {
        const destination = await ownedWarehouseDestination(db, c.var.actor.ownerId, transform.connectorId);
        if (!destination) throw conflict(M.noWarehouse);
        warehouse = { open: openWarehouse(destination, c.var.actor.ownerId, c.var.services), name: destination.name };
      }
      const output = outputOf(table);
      try {
        return await warehouse.open.readTable(table, limit, latest.id, location, { offset, orderBy: [...(output?.order ?? []), ...(output?.key ?? [])] });
      } catch (error) {
        throw new ServiceError("upstream", `Reading the result table ${table} from "${warehouse.name}" failed: ${(error as Error).message}`);
      }
    },
    async close() {
      await warehouse?.open.close().catch(() => {});
    },
  };
}

/** Rows of one result table (?table=, default the transform's first), as `resultsOf` reads them. */
async function readResults(c: Context<ApiEnv>, limit: number, offset = 0) {
  const results = await resultsOf(c);
  try {
    const table = c.req.query("table") || results.tables[0] || "";
    if (!results.tables.includes(table)) throw invalid(M.unknownResultTable, "table");
    return { table, tables: results.tables, page: await results.read(table, limit, offset), label: results.label(table) };
  } finally {
    await results.close();
  }
}

/** The most rows a results page may skip (?offset=): far past any result table a template writes. */
const MAX_RESULTS_OFFSET = 1_000_000_000;

/**
 * Rows of one result table as of the latest successful run, in its key's order (?table= one of the transform's tables,
 * default the first; ?limit= 1–500, default 50; ?offset= rows skipped, default 0). An offset past the end answers no
 * rows, with the table's total.
 */
transformsRoutes.get("/transforms/:id/results", async (c) => {
  const limitText = c.req.query("limit") ?? "50";
  const limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= 500)) throw invalid("limit must be a whole number from 1 to 500.", "limit");
  const offsetText = c.req.query("offset") ?? "0";
  const offset = /^\d{1,10}$/.test(offsetText) ? Number(offsetText) : NaN;
  if (!(offset >= 0 && offset <= MAX_RESULTS_OFFSET)) throw invalid("offset must be a whole number from 0 to 1000000000.", "offset");
  const { table, tables, page, label } = await readResults(c, limit, offset);
  return c.json(page ? { table, label, tables, offset, ...page } : { table, label, tables, offset, columns: [] as string[], rows: [] as Record<string, unknown>[], total: 0 });
});

/** Every row of one result table as of the latest successful run, as a CSV file (?table= one of the transform's tables). */
transformsRoutes.get("/transforms/:id/results/download", async (c) => {
  const { table, page } = await readResults(c, MAX_DOWNLOAD_ROWS + 1);
  if (page && page.total > MAX_DOWNLOAD_ROWS) throw new ServiceError("too_large", M.downloadTooLarge(page.total, MAX_DOWNLOAD_ROWS));
  return c.body(resultsCsv(page?.columns ?? [], page?.rows ?? []), 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${table}.csv"`,
    "cache-control": "private, no-store",
  });
});

/**
 * The template's charts over the latest successful run's results, drawn on the server in the reader's time zone (?tz=,
 * default UTC), each chart's table read once. A chart whose table that run did not write is drawn empty. With
 * `firstRows`, also the first rows of every result table that run wrote (the results page's tables), taken from the
 * charts' reads where a chart read the table: one opening of the warehouse for the whole page.
 */
async function drawCharts(c: Context<ApiEnv>, options: { only?: string; firstRows?: number } = {}) {
  const zone = c.req.query("tz") || "UTC";
  if (!isTimeZone(zone)) throw invalid("tz must be a time zone such as Europe/Paris.", "tz");
  const results = await resultsOf(c);
  // A run's results never change once written: what was drawn of them is kept (a results page looked at again, its
  // downloads) under the run, the zone and what was asked; a new run is a new key.
  const key = results.runId ? JSON.stringify([results.transform.id, results.runId, zone, options.firstRows ?? 0, options.only ?? ""]) : null;
  try {
    const kept = key ? drawnResults.get(key) : undefined;
    if (kept) return kept;
    const declared = (results.definition?.charts ?? []).filter((chart) => !options.only || chart.id === options.only);
    if (options.only && declared.length === 0) throw new ServiceError("not_found", "This chart does not exist.");
    const whole = new Map<string, Awaited<ReturnType<typeof results.read>>>();
    const readWhole = async (table: string) => {
      if (!whole.has(table)) whole.set(table, await results.read(table, MAX_DOWNLOAD_ROWS));
      return whole.get(table)!;
    };
    const charts = [];
    for (const chart of declared) {
      const table = results.tables.find((t) => t.endsWith(`_${chart.table}`));
      const page = table ? await readWhole(table) : null;
      charts.push(await renderChart(chart, page?.rows ?? [], zone));
    }
    const tables = [];
    if (options.firstRows)
      for (const table of results.tables.filter(results.written)) {
        const read = whole.get(table) ?? (await results.read(table, options.firstRows));
        tables.push({ table, label: results.label(table), columns: read?.columns ?? [], rows: (read?.rows ?? []).slice(0, options.firstRows), total: read?.total ?? 0 });
      }
    const drawn = { charts, zone, tables };
    if (key) drawnResults.set(key, drawn, { size: JSON.stringify(drawn).length });
    return drawn;
  } finally {
    await results.close();
  }
}

/** Drawn charts and first rows, kept in this process by the run they are of (bytes of their JSON; 32 MB at most). */
const drawnResults = new LRUCache<string, { charts: RenderedChart[]; zone: string; tables: { table: string; label: string; columns: string[]; rows: Record<string, unknown>[]; total: number }[] }>({
  maxSize: 32 * 1024 * 1024,
  ttl: 60 * 60 * 1000,
});

/** ?rows= (1–500): also the first rows of each result table, for a results page that shows them beside the charts. */
transformsRoutes.get("/transforms/:id/charts", async (c) => {
  const rowsText = c.req.query("rows");
  const firstRows = rowsText === undefined ? undefined : /^\d{1,3}$/.test(rowsText) ? Number(rowsText) : NaN;
  if (firstRows !== undefined && !(firstRows >= 1 && firstRows <= 500)) throw invalid("rows must be a whole number from 1 to 500.", "rows");
  const { charts, zone, tables } = await drawCharts(c, { firstRows });
  return c.json({ charts, time_zone: zone, ...(firstRows ? { results: tables } : {}) });
});

/** One chart as a file: ?format=svg (the picture) or csv (the points behind it). */
transformsRoutes.get("/transforms/:id/charts/:chart/download", async (c) => {
  const format = c.req.query("format") ?? "svg";
  if (format !== "svg" && format !== "csv") throw invalid("format must be svg or csv.", "format");
  const { charts } = await drawCharts(c, { only: c.req.param("chart") });
  const chart = charts[0]!;
  const headers = { "content-disposition": `attachment; filename="${chart.id}.${format}"`, "cache-control": "private, no-store" };
  if (format === "svg") return c.body(chart.svg, 200, { ...headers, "content-type": "image/svg+xml; charset=utf-8" });
  const columns = [chart.columns.x, ...(chart.columns.series ? [chart.columns.series] : []), chart.columns.y];
  const rows = chart.points.map((p) => ({ [chart.columns.x]: p.x, ...(chart.columns.series ? { [chart.columns.series]: p.series ?? "" } : {}), [chart.columns.y]: p.y }));
  return c.body(resultsCsv(columns, rows), 200, { ...headers, "content-type": "text/csv; charset=utf-8" });
});

addScheduleRoutes(transformsRoutes, "transforms", transformSchedules, presentTransform);

// Registered last: "/transforms/:id" would otherwise shadow the calls above.
transformsRoutes.get("/transforms/:id", async (c) => {
  const transform = await getTransform(c.var.services, c.var.actor, c.req.param("id"));
  const connector = await connectorDataOf(c.var.services.db, transform.connectorId);
  return c.json({ ...presentTransform(transform), connector_file_types: connector ? dataFileTypes(connector) : [] });
});
