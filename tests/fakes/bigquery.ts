import type http from "node:http";
import { randomUUID } from "node:crypto";
import { googleError, HttpFake, json, type RecordedRequest } from "./google-http-fake.js";

/**
 * A local BigQuery REST API (v2): datasets.get, jobs.insert (dry-run and
 * plain queries, which return no rows), tables.get/insert and
 * tabledata.insertAll — the calls @google-cloud/bigquery makes for the
 * connection test and the writer. Permissions can be denied to test errors.
 */
export type BigQueryPermission = "bigquery.datasets.get" | "bigquery.jobs.create" | "bigquery.tables.updateData";

interface FakeTable {
  schema: unknown;
  rows: Map<string, Record<string, unknown>>;
}

export class FakeBigQuery {
  /** "project.dataset" → tables. */
  readonly datasets = new Map<string, Map<string, FakeTable>>();
  private readonly denied = new Set<string>();
  private readonly http = new HttpFake((req, res) => this.handle(req, res));
  /** Job configurations received by jobs.insert. */
  readonly jobs: Record<string, unknown>[] = [];

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
    this.http.requests.length = 0;
  }
  rows(project: string, dataset: string, table: string) {
    return [...(this.datasets.get(`${project}.${dataset}`)?.get(table)?.rows.values() ?? [])];
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

  private handle(req: RecordedRequest, res: http.ServerResponse) {
    const m = req.path.match(/^\/bigquery\/v2\/projects\/([^/]+)(?:\/(datasets|jobs|queries))?(?:\/([^/]+))?(?:\/(tables))?(?:\/([^/]+))?(?:\/(insertAll|data))?$/);
    if (!m) return googleError(res, 404, `Not found: ${req.method} ${req.path}`, "notFound");
    const [, project, kind, id, tables, tableId, action] = m.map((x) => (x === undefined ? undefined : decodeURIComponent(x)));
    const body = req.body.length ? (JSON.parse(req.body.toString("utf8")) as Record<string, any>) : {};

    if (kind === "datasets" && id && !tables && req.method === "GET") {
      if (this.forbidden(res, `${project}.${id}`, "bigquery.datasets.get")) return;
      if (!this.dataset(res, project!, id)) return;
      return json(res, 200, { kind: "bigquery#dataset", id: `${project}:${id}`, datasetReference: { projectId: project, datasetId: id }, location: "US" });
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
      return json(res, 200, { kind: "bigquery#job", jobReference: { projectId: project, jobId: id, location: "US" }, status: { state: "DONE" } });
    }
    if (kind === "queries" && id && req.method === "GET") {
      return json(res, 200, { kind: "bigquery#getQueryResultsResponse", jobComplete: true, totalRows: "0", rows: [], schema: { fields: [] }, jobReference: { projectId: project, jobId: id } });
    }
    if (kind === "datasets" && id && tables) {
      const key = `${project}.${id}`;
      const dataset = this.dataset(res, project!, id);
      if (!dataset) return;
      if (!tableId && req.method === "POST") {
        const name = body.tableReference?.tableId as string;
        if (dataset.has(name)) return googleError(res, 409, `Already Exists: Table ${project}:${id}.${name}`, "duplicate");
        dataset.set(name, { schema: body.schema, rows: new Map() });
        return json(res, 200, { kind: "bigquery#table", id: `${project}:${id}.${name}`, tableReference: { projectId: project, datasetId: id, tableId: name }, schema: body.schema });
      }
      const table = tableId ? dataset.get(tableId) : undefined;
      if (!table) return googleError(res, 404, `Not found: Table ${project}:${id}.${tableId}`, "notFound");
      if (!action && req.method === "GET") {
        return json(res, 200, { kind: "bigquery#table", id: `${project}:${id}.${tableId}`, tableReference: { projectId: project, datasetId: id, tableId }, schema: table.schema });
      }
      if (action === "insertAll" && req.method === "POST") {
        if (this.forbidden(res, key, "bigquery.tables.updateData")) return;
        for (const row of (body.rows ?? []) as { insertId?: string; json: Record<string, unknown> }[]) table.rows.set(row.insertId ?? randomUUID(), row.json);
        return json(res, 200, { kind: "bigquery#tableDataInsertAllResponse" });
      }
    }
    googleError(res, 404, `Not found: ${req.method} ${req.path}`, "notFound");
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
