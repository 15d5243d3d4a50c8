/** The BigQuery fake's reads (./bigquery.ts): the tables a query names, and jobs.getQueryResults' pages of a query job's result. */
import { SqlError, type SqlResult, type SqlTable, type TableRef } from "./warehouse-sql.js";
import { encode, KIND_OF_TYPE, typed, type FakeTable } from "./google-bigquery-values.js";

/** A table reference of a query (`project.dataset.table`, `dataset.table`, or `…INFORMATION_SCHEMA.TABLES|COLUMNS`) as rows. */
export function tableSource(
  datasets: Map<string, Map<string, FakeTable>>,
  project: string,
  ref: TableRef,
  defaultDataset?: { projectId?: string; datasetId?: string },
): { table: SqlTable; key: string } {
  const parts = [...ref.parts];
  const view = parts.length >= 2 && parts.at(-2)!.toUpperCase() === "INFORMATION_SCHEMA" ? parts.splice(-2).at(-1)!.toUpperCase() : undefined;
  if (parts.length === 1 && !view && defaultDataset?.datasetId) parts.unshift(defaultDataset.projectId ?? project, defaultDataset.datasetId);
  if (parts.length === (view ? 1 : 2)) parts.unshift(project);
  if (parts.length !== (view ? 2 : 3)) throw new SqlError(`Table name "${ref.parts.join(".")}" missing dataset while no default dataset is set in the request.`);
  const [p, d, t] = parts as [string, string, string?];
  const dataset = datasets.get(`${p}.${d}`);
  if (!dataset) throw new SqlError(`Not found: Dataset ${p}:${d} was not found in location US`, "not_found");
  if (view === "TABLES") {
    return {
      key: `${p}.${d}`,
      table: {
        columns: ["table_catalog", "table_schema", "table_name"].map((name) => ({ name, kind: "string" as const })),
        rows: [...dataset.keys()].map((name) => ({ table_catalog: p, table_schema: d, table_name: name })),
      },
    };
  }
  if (view === "COLUMNS") {
    return {
      key: `${p}.${d}`,
      table: {
        columns: [
          { name: "table_name", kind: "string" },
          { name: "column_name", kind: "string" },
          { name: "ordinal_position", kind: "integer" },
          { name: "data_type", kind: "string" },
        ],
        rows: [...dataset].flatMap(([name, table]) =>
          (table.schema?.fields ?? []).map((f, i) => ({ table_name: name, column_name: f.name, ordinal_position: i + 1, data_type: f.type.toUpperCase() })),
        ),
      },
    };
  }
  if (view) throw new SqlError(`Not found: Table ${p}:${d}.INFORMATION_SCHEMA.${view}`, "not_found");
  const table = dataset.get(t!);
  if (!table) throw new SqlError(`Not found: Table ${p}:${d}.${t} was not found in location US`, "not_found");
  const fields = table.schema?.fields ?? [];
  return {
    key: `${p}.${d}`,
    table: {
      columns: fields.map((f) => ({ name: f.name, kind: KIND_OF_TYPE[f.type.toUpperCase()] ?? "string" })),
      rows: table.rows.map((r) => Object.fromEntries(fields.map((f) => [f.name, typed(f.type, r.json[f.name])]))),
    },
  };
}

/**
 * jobs.getQueryResults (GET …/queries/{jobId}): the rows from `startIndex`, or from where the page before ended (its
 * `pageToken`), at most `maxResults` of them (all the rest without it); `pageToken` while rows remain; `totalRows` counts
 * the whole result. Timestamps as the call's formatOptions ask. A token of another job or a bad one is refused (400).
 */
export function queryResultsPage(project: string, jobId: string, stored: SqlResult | undefined, query: Record<string, string>): { status: number; body: Record<string, unknown> } {
  const result = stored ?? { columns: [], rows: [] };
  let start = Number(query.startIndex ?? 0);
  if (query.pageToken !== undefined) {
    const [job, offset] = Buffer.from(query.pageToken, "base64url").toString("utf8").split("|");
    if (job !== jobId || !/^\d+$/.test(offset ?? "")) return { status: 400, body: { message: `Invalid page token: ${query.pageToken}`, reason: "invalid" } };
    start = Number(offset);
  }
  const size = query.maxResults === undefined ? Infinity : Number(query.maxResults);
  if (!Number.isInteger(start) || start < 0 || !(size >= 0)) return { status: 400, body: { message: "Invalid startIndex or maxResults", reason: "invalid" } };
  const end = Math.min(result.rows.length, start + size);
  const format = { useInt64Timestamp: query["formatOptions.useInt64Timestamp"] === "true", timestampOutputFormat: query["formatOptions.timestampOutputFormat"] };
  const encoded = encode({ columns: result.columns, rows: result.rows.slice(start, end) }, format);
  return {
    status: 200,
    body: {
      kind: "bigquery#getQueryResultsResponse",
      jobComplete: true,
      totalRows: String(result.rows.length),
      ...encoded,
      ...(end < result.rows.length ? { pageToken: Buffer.from(`${jobId}|${end}`).toString("base64url") } : {}),
      jobReference: { projectId: project, jobId },
    },
  };
}
