import type { Job, QueryResultsOptions, QueryRowsResponse } from "@google-cloud/bigquery";
import { checkName } from "../writer.js";
import type { PluginDestination } from "../plugin.js";
import { offsetOf, orderColumns, type ReadPage, type ResultsLocation, type ScanQuery, type Warehouse } from "../warehouse.js";
import { bigQueryClient, platformServiceAccount } from "../kit/google.js";
import { foundOnce, num, plainRow, platformList, rebatch, uuid } from "../kit/warehouse-rows.js";
import { BigQueryWriter } from "./writer.js";

/** Array parameters carry their type: BigQuery cannot infer the type of an empty one. */
const typesOf = (params: Record<string, unknown>) => Object.fromEntries(Object.entries(params).filter(([, v]) => Array.isArray(v)).map(([k]) => [k, ["STRING"]]));
/** A row with the SDK's wrapped values ({ value }: timestamps, dates) as plain ones. */
const plain = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v && typeof v === "object" && "value" in v ? (v as { value: unknown }).value : v]));

/** A query job's result, page by page (maxResults rows each); a page asked for before the job is done is asked for again. */
async function* pages(job: Job, maxResults: number): AsyncGenerator<Record<string, unknown>[]> {
  let options: QueryResultsOptions | undefined = { maxResults, autoPaginate: false };
  while (options) {
    const [rows, next]: QueryRowsResponse = await job.getQueryResults(options);
    if (rows.length) yield rows.map(plain);
    // The SDK's next query: the same options while the job runs, with the next page's token while pages remain, none at the end.
    options = next ? { maxResults, autoPaginate: false, ...(next.pageToken ? { pageToken: next.pageToken } : {}) } : undefined;
  }
}

/** Transforms on BigQuery: the synced tables read with @google-cloud/bigquery (counts by query(), scans by query jobs read page by page), results written by the writer. */
export class BigQueryWarehouse implements Warehouse {
  /** The platform's service account does the work: nothing of the user's call is needed. */
  constructor(private readonly destination: PluginDestination) {}
  private get project() {
    return String(this.destination.config.project_id ?? "");
  }
  private get dataset() {
    return String(this.destination.config.dataset_name ?? "");
  }
  private client() {
    return bigQueryClient(platformServiceAccount(), this.project);
  }
  private table(name: string, dataset = this.dataset) {
    return `\`${this.project}.${checkName("table", dataset)}.${checkName("table", name)}\``;
  }
  private readonly exists = foundOnce(async (name: string, dataset: string = this.dataset) => {
    const [exists] = await this.client().dataset(dataset).table(name).exists();
    return exists;
  });
  private async run(query: string, params: Record<string, unknown>) {
    const [rows] = await this.client().query({ query, params, types: typesOf(params), useLegacySql: false });
    return (rows as Record<string, unknown>[]).map(plain);
  }
  /** The source's rows, of `platforms` when given (bound as @source and @platforms). */
  private filter(sourceId: string, platforms?: string[]) {
    if (platforms === undefined) return { where: "source_id = @source", params: { source: uuid(sourceId) } };
    return { where: "source_id = @source AND platform IN UNNEST(@platforms)", params: { source: uuid(sourceId), platforms: platformList(platforms) } };
  }
  async countRows(table: string, sourceId: string, platforms?: string[]) {
    if (!(await this.exists(table))) return 0;
    const { where, params } = this.filter(sourceId, platforms);
    const rows = await this.run(`SELECT COUNT(*) AS n FROM ${this.table(table)} WHERE ${where}`, params);
    return num(rows[0]?.n);
  }
  /**
   * A query job whose result is read a page of `batchRows` rows at a time (jobs.getQueryResults with maxResults and
   * the pageToken of the page before): BigQuery keeps the result, this holds one page. Strings order as bytes.
   */
  async *scan(query: ScanQuery): AsyncGenerator<Record<string, unknown>[]> {
    if (!(await this.exists(query.table))) return;
    const column = (name: string) => `\`${checkName("column", name)}\``;
    const columns = query.columns.map((c) => (c.type === "timestamp" ? `UNIX_MILLIS(${column(c.name)}) AS ${column(c.name)}` : column(c.name)));
    const { where, params } = this.filter(query.sourceId, query.platforms);
    const within = query.in ? ` AND ${column(query.in.column)} IN UNNEST(@within)` : "";
    if (query.in) Object.assign(params, { within: [...query.in.values] });
    const sql = `SELECT${query.distinct ? " DISTINCT" : ""} ${columns.join(", ")} FROM ${this.table(query.table)} WHERE ${where}${within} ORDER BY ${query.orderBy.map(column).join(", ")}`;
    const [job] = await this.client().createQueryJob({ query: sql, params, types: typesOf(params), useLegacySql: false });
    const size = Math.max(1, Math.floor(query.batchRows));
    yield* rebatch(pages(job, size), size, query.columns);
  }
  /** A page of one run's rows, ordered by the key columns given (BigQuery orders strings by their bytes). */
  async readTable(table: string, limit: number, runId: string, location?: ResultsLocation, page?: ReadPage) {
    const dataset = location?.dataset || this.dataset;
    if (!(await this.exists(table, dataset))) return null;
    const [metadata] = await this.client().dataset(dataset).table(table).getMetadata();
    const columns = ((metadata as { schema?: { fields?: { name: string }[] } }).schema?.fields ?? []).map((f) => f.name);
    const order = orderColumns(page, (k) => columns.includes(k), (k) => `\`${checkName("column", k)}\``);
    const params = { run: uuid(runId) };
    const [count] = await this.run(`SELECT COUNT(*) AS n FROM ${this.table(table, dataset)} WHERE run_id = @run`, params);
    const rows = await this.run(
      `SELECT * FROM ${this.table(table, dataset)} WHERE run_id = @run${order.length ? ` ORDER BY ${order.join(", ")}` : ""} LIMIT ${Math.max(0, Math.floor(limit))} OFFSET ${offsetOf(page)}`,
      params,
    );
    return { columns, rows: rows.map(plainRow), total: num(count?.n) };
  }
  async resultsWriter(location?: ResultsLocation) {
    const writer = new BigQueryWriter(platformServiceAccount(), this.project, location?.dataset || this.dataset);
    return { writer, done: () => writer.close() };
  }
  /** Older runs' rows stay, told apart by run_id (the readers filter by it). */
  async prune() {}
  async close() {}
}
