import type http from "node:http";
import { randomUUID } from "node:crypto";
import { googleError, HttpFake, json, type RecordedRequest } from "./google-http-fake.js";
import { parseSql, runSelect, SqlError, type SqlResult, type SqlValue } from "./warehouse-sql.js";
import { encode, fits, KIND_OF_TYPE, parameterValue, TYPE_OF_KIND, type FakeTable, type SchemaField } from "./google-bigquery-values.js";
import { queryResultsPage, tableSource } from "./google-bigquery-query.js";
import { failedJob, parseLoadUpload, runLoad, type JobOutcome } from "./google-bigquery-load.js";
import { applyMerge, isCreateTable, isMerge, parseCreateTable, parseMerge } from "./google-bigquery-dml.js";

/**
 * A local BigQuery REST API (v2): datasets.get, tables.get/insert/patch/update/delete
 * (a schema may gain NULLABLE fields, never lose or retype one), tabledata.insertAll, load jobs (jobs.insert
 * with an uploaded NDJSON file, uploadType=multipart: ./google-bigquery-load.ts), jobs.get, and queries —
 * jobs.query (POST …/queries, the SDK's query() fast path), jobs.insert (dry runs, and query jobs whose
 * results jobs.getQueryResults answers, a page of maxResults rows at a time by pageToken:
 * ./google-bigquery-query.ts) — the calls @google-cloud/bigquery makes for the connection test, the writer
 * and the transform runner. Rows are kept per project.dataset.table and checked against the
 * table's schema; like BigQuery, a streamed row whose insertId was seen within `dedupWindowMs` is dropped
 * (best-effort de-duplication, not an upsert). SELECTs are evaluated by ./warehouse-sql.ts (GoogleSQL with
 * named parameters, as the SDK sends them), MERGE by ./google-bigquery-dml.ts. Permissions can be denied
 * to test errors.
 */
export type BigQueryPermission = `bigquery.${"datasets.get" | "jobs.create" | "tables.updateData" | "tables.getData" | "tables.update" | "tables.delete"}`;

export class FakeBigQuery {
  /** "project.dataset" → tables. */
  readonly datasets = new Map<string, Map<string, FakeTable>>();
  private readonly denied = new Set<string>();
  private readonly http = new HttpFake((req, res) => this.handle(req, res));
  /** Job configurations received by jobs.insert. */
  readonly jobs: Record<string, unknown>[] = [];
  /** Query texts received (jobs.query and query jobs), in order. */
  readonly queries: string[] = [];
  /** How long an insertId keeps a re-sent row out (BigQuery: at least a minute). */
  dedupWindowMs = 60_000;
  /**
   * How long a field added by tables.patch/update stays unknown to insertAll
   * ("no such field"), as BigQuery's streaming path may lag a schema change.
   */
  schemaLagMs = 0;
  /** How many of the next load jobs fail with a transient backendError (BigQuery asks to try such a job again). */
  failingLoads = 0;
  private readonly results = new Map<string, SqlResult>();
  /** Load jobs' final state by job id, for jobs.get. */
  private readonly outcomes = new Map<string, JobOutcome & { configuration: unknown }>();

  get requests(): RecordedRequest[] {
    return this.http.requests;
  }
  get url(): string {
    return this.http.url;
  }
  start(port = 0) {
    return this.http.start(port);
  }
  stop() {
    return this.http.stop();
  }

  createDataset(project: string, dataset: string) {
    if (!this.datasets.has(`${project}.${dataset}`)) this.datasets.set(`${project}.${dataset}`, new Map());
    return this;
  }
  /** Denies a permission on a project (jobs) or on "project.dataset" (datasets, tables). */
  deny(resource: string, permission: BigQueryPermission) {
    this.denied.add(`${resource}|${permission}`);
    return this;
  }
  reset() {
    this.datasets.clear();
    this.denied.clear();
    this.jobs.length = 0;
    this.queries.length = 0;
    this.results.clear();
    this.outcomes.clear();
    this.dedupWindowMs = 60_000;
    this.schemaLagMs = 0;
    this.failingLoads = 0;
    this.http.requests.length = 0;
  }
  /** The rows of a table as stored: streamed ones as sent, loaded and merged ones without their NULLs (oldest first). */
  rows(project: string, dataset: string, table: string) {
    return (this.datasets.get(`${project}.${dataset}`)?.get(table)?.rows ?? []).map((r) => r.json);
  }
  /** The dataset's tables, with when each expires (ms since the epoch) if it does. */
  tables(project: string, dataset: string) {
    return [...(this.datasets.get(`${project}.${dataset}`) ?? [])].map(([name, table]) => ({ name, expirationTime: table.expirationTime }));
  }
  /** The table's schema fields (tables.insert), or undefined when there is no such table. */
  schema(project: string, dataset: string, table: string) {
    return this.datasets.get(`${project}.${dataset}`)?.get(table)?.schema?.fields;
  }

  private forbidden(res: http.ServerResponse, resource: string, permission: BigQueryPermission): boolean {
    if (!this.denied.has(`${resource}|${permission}`)) return false;
    googleError(res, 403, `Access Denied: ${resource}: Permission ${permission} denied (or it may not exist).`, "accessDenied");
    return true;
  }

  private dataset(res: http.ServerResponse, project: string, dataset: string) {
    const found = this.datasets.get(`${project}.${dataset}`);
    if (!found) googleError(res, 404, `Not found: Dataset ${project}:${dataset}`, "notFound");
    return found;
  }

  /** Runs a query; answers the result or sends the error (and answers undefined). */
  private runQuery(res: http.ServerResponse, project: string, request: Record<string, any>): SqlResult | undefined {
    const text = String(request.query ?? "");
    this.queries.push(text);
    if (request.useLegacySql === true) return void googleError(res, 400, "This fake only speaks GoogleSQL (useLegacySql: false).", "invalidQuery");
    const params: Record<string, SqlValue | SqlValue[]> = {};
    for (const p of (request.queryParameters ?? []) as { name?: string; parameterType?: any; parameterValue?: any }[]) {
      if (!p.name) return void googleError(res, 400, "Positional query parameters are not supported by this fake.", "invalid");
      params[p.name] = parameterValue(p.parameterType, p.parameterValue);
    }
    try {
      if (isMerge(text) || isCreateTable(text)) return this.runDml(res, project, text, request.defaultDataset);
      const statement = parseSql(text);
      if (statement.type !== "select") return void googleError(res, 400, "DML statements are not supported by this fake.", "invalidQuery");
      const { table, key } = tableSource(this.datasets, project, statement.from, request.defaultDataset);
      if (this.forbidden(res, key, "bigquery.tables.getData")) return undefined;
      return runSelect(statement, table, { params });
    } catch (error) {
      if (!(error instanceof SqlError)) throw error;
      googleError(res, error.code === "not_found" ? 404 : 400, error.message, error.code === "not_found" ? "notFound" : "invalidQuery");
      return undefined;
    }
  }

  /** A MERGE between two tables, or a CREATE TABLE; answers an empty result (the SDK reads no rows from these). */
  private runDml(res: http.ServerResponse, project: string, text: string, defaultDataset?: { projectId?: string; datasetId?: string }): SqlResult | undefined {
    const locate = (parts: string[]) => {
      const full = parts.length === 3 ? parts : parts.length === 2 ? [project, ...parts] : [defaultDataset?.projectId ?? project, defaultDataset?.datasetId ?? "", ...parts];
      const dataset = this.datasets.get(`${full[0]}.${full[1]}`);
      if (!dataset) throw new SqlError(`Not found: Dataset ${full[0]}:${full[1]} was not found in location US`, "not_found");
      return { key: `${full[0]}.${full[1]}`, id: `${full[0]}:${full[1]}.${full[2]}`, name: full[2]!, dataset, found: dataset.get(full[2]!) };
    };
    if (isCreateTable(text)) {
      const ddl = parseCreateTable(text);
      const at = locate(ddl.table);
      if (this.forbidden(res, at.key, "bigquery.tables.updateData")) return undefined;
      if (at.found && !ddl.ifNotExists) throw new SqlError(`Already Exists: Table ${at.id}`);
      if (!at.found) at.dataset.set(at.name, { schema: { fields: ddl.fields }, rows: [], seen: new Map(), added: new Map(), expirationTime: ddl.expirationTime });
      return { columns: [], rows: [] };
    }
    const statement = parseMerge(text);
    const [target, source] = [locate(statement.target), locate(statement.source)];
    for (const t of [target, source]) if (!t.found) throw new SqlError(`Not found: Table ${t.id} was not found in location US`, "not_found");
    if (this.forbidden(res, source.key, "bigquery.tables.getData") || this.forbidden(res, target.key, "bigquery.tables.updateData")) return undefined;
    applyMerge(statement, target.found!, source.found!);
    return { columns: [], rows: [] };
  }

  /** jobs.insert with an upload (uploadType=multipart: the job resource, then the data): a load job, run at once. */
  private upload(req: RecordedRequest, res: http.ServerResponse, project: string) {
    const upload = parseLoadUpload(req);
    if (typeof upload === "string") return googleError(res, 400, upload, "invalid");
    const { jobId = `job_${randomUUID()}`, configuration, data } = upload;
    const load = configuration.load;
    if (this.forbidden(res, project, "bigquery.jobs.create")) return;
    const datasetId = load.destinationTable?.datasetId ?? "";
    const dataset = this.dataset(res, load.destinationTable?.projectId ?? project, datasetId);
    if (!dataset || this.forbidden(res, `${project}.${datasetId}`, "bigquery.tables.updateData")) return;
    this.jobs.push(configuration);
    const failing = this.failingLoads > 0 && this.failingLoads--;
    const outcome = { ...(failing ? failedJob({ reason: "backendError", message: "Backend error. Job aborted." }) : runLoad(project, datasetId, dataset, load, data)), configuration };
    this.outcomes.set(jobId, outcome);
    return json(res, 200, { kind: "bigquery#job", id: `${project}:US.${jobId}`, jobReference: { projectId: project, jobId, location: "US" }, ...outcome });
  }

  private handle(req: RecordedRequest, res: http.ServerResponse) {
    const upload = req.path.match(/^\/upload\/bigquery\/v2\/projects\/([^/]+)\/jobs$/);
    if (upload && req.method === "POST") return this.upload(req, res, decodeURIComponent(upload[1]!));
    const m = req.path.match(/^\/bigquery\/v2\/projects\/([^/]+)(?:\/(datasets|jobs|queries))?(?:\/([^/]+))?(?:\/(tables))?(?:\/([^/]+))?(?:\/(insertAll|data))?$/);
    if (!m) return googleError(res, 404, `Not found: ${req.method} ${req.path}`, "notFound");
    const [, project, kind, id, tables, tableId, action] = m.map((x) => (x === undefined ? undefined : decodeURIComponent(x)));
    const body = req.body.length ? (JSON.parse(req.body.toString("utf8")) as Record<string, any>) : {};

    if (kind === "datasets" && id && !tables && req.method === "GET") {
      if (this.forbidden(res, `${project}.${id}`, "bigquery.datasets.get")) return;
      if (!this.dataset(res, project!, id)) return;
      return json(res, 200, { kind: "bigquery#dataset", id: `${project}:${id}`, datasetReference: { projectId: project, datasetId: id }, location: "US" });
    }
    if (kind === "queries" && !id && req.method === "POST") {
      // jobs.query: run at once, answer the rows with the job's reference.
      if (this.forbidden(res, project!, "bigquery.jobs.create")) return;
      const result = this.runQuery(res, project!, body);
      if (!result) return;
      const jobId = `job_${randomUUID()}`;
      this.results.set(jobId, result);
      return json(res, 200, {
        kind: "bigquery#queryResponse",
        jobReference: { projectId: project, jobId, location: "US" },
        ...encode(result, body.formatOptions ?? {}),
        totalRows: String(result.rows.length),
        totalBytesProcessed: "0",
        jobComplete: true,
        cacheHit: false,
      });
    }
    if (kind === "jobs" && !id && req.method === "POST") {
      if (this.forbidden(res, project!, "bigquery.jobs.create")) return;
      this.jobs.push(body.configuration ?? {});
      const query = body.configuration?.query?.query as string | undefined;
      const referenced = query?.match(/`([^`.]+)\.([^`.]+)\.INFORMATION_SCHEMA\.TABLES`/);
      if (referenced && !this.datasets.has(`${referenced[1]}.${referenced[2]}`)) {
        return googleError(res, 404, `Not found: Dataset ${referenced[1]}:${referenced[2]} was not found in location US`, "notFound");
      }
      const jobId = body.jobReference?.jobId ?? `job_${randomUUID()}`;
      if (query !== undefined && !body.configuration?.dryRun) {
        // A query job runs at once; jobs.getQueryResults answers its rows (formatted per that call's options).
        const result = this.runQuery(res, project!, body.configuration.query);
        if (!result) return;
        this.results.set(jobId, result);
      }
      return json(res, 200, {
        kind: "bigquery#job",
        id: `${project}:US.${jobId}`,
        jobReference: { projectId: project, jobId, location: "US" },
        configuration: body.configuration,
        status: { state: "DONE" },
        statistics: { creationTime: String(Date.now()), totalBytesProcessed: "0", query: { totalBytesProcessed: "0", statementType: "SELECT" } },
      });
    }
    if (kind === "jobs" && id && req.method === "GET") {
      return json(res, 200, { kind: "bigquery#job", jobReference: { projectId: project, jobId: id, location: "US" }, status: { state: "DONE" }, ...this.outcomes.get(id) });
    }
    if (kind === "queries" && id && req.method === "GET") {
      const page = queryResultsPage(project!, id, this.results.get(id), req.query);
      return page.status === 200 ? json(res, 200, page.body) : googleError(res, page.status, String(page.body.message), String(page.body.reason));
    }
    if (kind === "datasets" && id && tables) {
      const key = `${project}.${id}`;
      const dataset = this.dataset(res, project!, id);
      if (!dataset) return;
      if (!tableId && req.method === "POST") {
        const name = body.tableReference?.tableId as string;
        if (dataset.has(name)) return googleError(res, 409, `Already Exists: Table ${project}:${id}.${name}`, "duplicate");
        dataset.set(name, { schema: body.schema, rows: [], seen: new Map(), added: new Map() });
        return json(res, 200, { kind: "bigquery#table", id: `${project}:${id}.${name}`, tableReference: { projectId: project, datasetId: id, tableId: name }, schema: body.schema });
      }
      const table = tableId ? dataset.get(tableId) : undefined;
      if (!table) return googleError(res, 404, `Not found: Table ${project}:${id}.${tableId}`, "notFound");
      if (!action && req.method === "GET") {
        return json(res, 200, {
          kind: "bigquery#table",
          id: `${project}:${id}.${tableId}`,
          tableReference: { projectId: project, datasetId: id, tableId },
          schema: table.schema,
          numRows: String(table.rows.length),
          type: "TABLE",
          ...(table.expirationTime !== undefined ? { expirationTime: String(table.expirationTime) } : {}),
        });
      }
      if (!action && req.method === "DELETE") {
        if (this.forbidden(res, key, "bigquery.tables.delete")) return;
        dataset.delete(tableId!);
        res.writeHead(204).end();
        return;
      }
      if (!action && (req.method === "PATCH" || req.method === "PUT")) {
        if (this.forbidden(res, key, "bigquery.tables.update")) return;
        return this.updateTable(res, `${project}:${id}.${tableId}`, table, body);
      }
      if (action === "insertAll" && req.method === "POST") {
        if (this.forbidden(res, key, "bigquery.tables.updateData")) return;
        return this.insertAll(res, table, body);
      }
    }
    googleError(res, 404, `Not found: ${req.method} ${req.path}`, "notFound");
  }

  /** tables.patch / tables.update: the new schema must keep every field with its type; added fields must not be REQUIRED. */
  private updateTable(res: http.ServerResponse, id: string, table: FakeTable, body: Record<string, any>) {
    const fields = body.schema?.fields as SchemaField[] | undefined;
    if (fields) {
      const mismatch = (why: string) => googleError(res, 400, `Provided Schema does not match Table ${id}. ${why}`, "invalid");
      const normal = (type: string) => TYPE_OF_KIND[KIND_OF_TYPE[type.toUpperCase()] ?? "string"] ?? type.toUpperCase();
      const names = new Set<string>();
      for (const field of fields) {
        if (!field?.name || !field.type) return googleError(res, 400, "Invalid schema: every field needs a name and a type.", "invalid");
        if (names.has(field.name.toLowerCase())) return googleError(res, 400, `Field ${field.name} already exists in schema`, "invalid");
        names.add(field.name.toLowerCase());
      }
      const old = table.schema?.fields ?? [];
      for (const field of old) {
        const now = fields.find((f) => f.name.toLowerCase() === field.name.toLowerCase());
        if (!now) return mismatch(`Field ${field.name} is missing in new schema`);
        if (normal(now.type) !== normal(field.type)) return mismatch(`Field ${field.name} has changed type from ${field.type.toUpperCase()} to ${now.type.toUpperCase()}`);
      }
      const added = fields.filter((f) => !old.some((o) => o.name.toLowerCase() === f.name.toLowerCase()));
      const required = added.find((f) => String(f.mode ?? "NULLABLE").toUpperCase() === "REQUIRED");
      if (required) return mismatch(`Cannot add required fields to an existing schema. (field: ${required.name})`);
      const now = Date.now();
      for (const field of added) table.added.set(field.name.toLowerCase(), now);
      table.schema = { ...table.schema, fields };
    }
    const [project, rest] = id.split(":") as [string, string];
    const [datasetId, tableId] = rest.split(".") as [string, string];
    return json(res, 200, { kind: "bigquery#table", id, tableReference: { projectId: project, datasetId, tableId }, schema: table.schema, numRows: String(table.rows.length), type: "TABLE" });
  }

  /** tabledata.insertAll: rows checked against the schema; an invalid row stops the whole request unless skipInvalidRows. */
  private insertAll(res: http.ServerResponse, table: FakeTable, body: Record<string, any>) {
    const lagging = (name: string) => Date.now() - (table.added.get(name) ?? -Infinity) < this.schemaLagMs;
    const fields = new Map((table.schema?.fields ?? []).filter((f) => !lagging(f.name.toLowerCase())).map((f) => [f.name.toLowerCase(), f]));
    const rows = (body.rows ?? []) as { insertId?: string; json: Record<string, unknown> }[];
    const insertErrors: { index: number; errors: { reason: string; location: string; debugInfo: string; message: string }[] }[] = [];
    rows.forEach((row, index) => {
      for (const [name, v] of Object.entries(row.json ?? {})) {
        const field = fields.get(name.toLowerCase());
        if (!field && !body.ignoreUnknownValues) insertErrors.push({ index, errors: [{ reason: "invalid", location: name, debugInfo: "", message: `no such field: ${name}.` }] });
        else if (field && !fits(field.type, v)) insertErrors.push({ index, errors: [{ reason: "invalid", location: name, debugInfo: "", message: `Cannot convert value to ${field.type.toLowerCase()}.` }] });
      }
    });
    const invalid = new Set(insertErrors.map((e) => e.index));
    if (invalid.size && !body.skipInvalidRows) {
      rows.forEach((_, index) => {
        if (!invalid.has(index)) insertErrors.push({ index, errors: [{ reason: "stopped", location: "", debugInfo: "", message: "" }] });
      });
      return json(res, 200, { kind: "bigquery#tableDataInsertAllResponse", insertErrors: insertErrors.sort((a, b) => a.index - b.index) });
    }
    const now = Date.now();
    rows.forEach((row, index) => {
      if (invalid.has(index)) return;
      if (row.insertId) {
        const seen = table.seen.get(row.insertId);
        if (seen !== undefined && now - seen < this.dedupWindowMs) return;
        table.seen.set(row.insertId, now);
      }
      table.rows.push({ insertId: row.insertId, json: row.json });
    });
    return json(res, 200, { kind: "bigquery#tableDataInsertAllResponse", ...(insertErrors.length ? { insertErrors } : {}) });
  }
}

let shared: FakeBigQuery | undefined;
export async function start(port = 0): Promise<FakeBigQuery> {
  shared ??= new FakeBigQuery();
  if (!shared.url) await shared.start(port);
  return shared;
}
export async function stop(): Promise<void> {
  await shared?.stop();
  shared = undefined;
}
