import type { RecordedRequest } from "./google-http-fake.js";
import { splitMultipart } from "./gcs.js";
import { fits, type FakeTable, type SchemaField } from "./google-bigquery-values.js";

/**
 * BigQuery load jobs (jobs.insert with an uploaded file, configuration.load) over the fake's tables, as
 * documented for NEWLINE_DELIMITED_JSON: the destination is created (CREATE_IF_NEEDED) with the job's schema,
 * emptied first (WRITE_TRUNCATE), appended to (WRITE_APPEND) or refused when not empty (WRITE_EMPTY); each
 * line is one row checked against the schema; a row that does not fit is a bad record; more bad records
 * than maxBadRecords (default 0) fail the job and write nothing, fewer are skipped and listed in
 * status.errors. destinationTableProperties.expirationTime sets when a new or truncated table expires.
 */
export interface LoadConfig {
  destinationTable?: { projectId?: string; datasetId?: string; tableId?: string };
  sourceFormat?: string;
  schema?: { fields?: SchemaField[] };
  createDisposition?: string;
  writeDisposition?: string;
  maxBadRecords?: number;
  ignoreUnknownValues?: boolean;
  destinationTableProperties?: { expirationTime?: string };
}

export interface ErrorProto {
  reason: string;
  location?: string;
  message: string;
}

export interface JobOutcome {
  status: { state: "DONE"; errorResult?: ErrorProto; errors?: ErrorProto[] };
  statistics: { load?: { inputFiles: string; inputFileBytes: string; outputRows: string; badRecords: string } };
}

/** A job that ended in `error` (its errorResult), with the row errors that led there. */
export const failedJob = (error: ErrorProto, errors: ErrorProto[] = []): JobOutcome => ({ status: { state: "DONE", errorResult: error, errors: [error, ...errors] }, statistics: {} });
const failed = failedJob;

/** A jobs.insert upload (uploadType=multipart: the job resource, then the data), or why it cannot be one. */
export function parseLoadUpload(req: RecordedRequest): { jobId?: string; configuration: { load: LoadConfig }; data: Buffer } | string {
  if (req.query.uploadType !== "multipart") return `This fake takes uploadType=multipart only, not ${req.query.uploadType}`;
  const boundary = /boundary="?([^";]+)"?/.exec(String(req.headers["content-type"] ?? ""))?.[1];
  const [meta, data] = boundary ? splitMultipart(req.body, boundary) : [];
  if (!meta || !data) return "A load upload needs the job's metadata and the data, as two parts";
  const job = JSON.parse(meta.body.toString("utf8")) as { jobReference?: { jobId?: string }; configuration?: { load?: LoadConfig } };
  if (!job.configuration?.load) return "Only load jobs can carry an upload";
  return { jobId: job.jobReference?.jobId, configuration: { ...job.configuration, load: job.configuration.load }, data: data.body };
}

/** Runs a load of `data` into `dataset` (table name → table); answers the job's final status and statistics. */
export function runLoad(project: string, datasetId: string, dataset: Map<string, FakeTable>, config: LoadConfig, data: Buffer): JobOutcome {
  const tableId = config.destinationTable?.tableId;
  if (!tableId) return failed({ reason: "invalid", message: "Required parameter is missing: destinationTable" });
  if (config.sourceFormat !== "NEWLINE_DELIMITED_JSON") return failed({ reason: "invalid", message: `This fake loads only NEWLINE_DELIMITED_JSON, not ${config.sourceFormat ?? "CSV"}.` });
  const existing = dataset.get(tableId);
  const disposition = config.writeDisposition ?? "WRITE_APPEND";
  if (!existing && config.createDisposition === "CREATE_NEVER") return failed({ reason: "notFound", message: `Not found: Table ${project}:${datasetId}.${tableId}` });
  if (existing && disposition === "WRITE_EMPTY" && existing.rows.length) return failed({ reason: "duplicate", message: `Already Exists: Table ${project}:${datasetId}.${tableId}` });
  const fields = (existing && disposition === "WRITE_APPEND" ? existing.schema?.fields : config.schema?.fields) ?? existing?.schema?.fields;
  if (!fields?.length) return failed({ reason: "invalid", message: "No schema specified on job or table." });
  const byName = new Map(fields.map((f) => [f.name.toLowerCase(), f]));

  const rows: Record<string, unknown>[] = [];
  const errors: ErrorProto[] = [];
  let position = 0;
  for (const line of data.toString("utf8").split("\n")) {
    const at = position;
    position += Buffer.byteLength(line) + 1;
    if (!line.trim()) continue;
    const bad = (message: string, location?: string) => errors.push({ reason: "invalid", ...(location ? { location } : {}), message });
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      bad(`JSON parsing error in row starting at position ${at}: Parser terminated before end of string`);
      continue;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      bad(`JSON parsing error in row starting at position ${at}: Only objects can be loaded as rows.`);
      continue;
    }
    const row: Record<string, unknown> = {};
    let ok = true;
    for (const [name, value] of Object.entries(parsed)) {
      const field = byName.get(name.toLowerCase());
      if (!field) {
        if (config.ignoreUnknownValues) continue;
        bad(`JSON parsing error in row starting at position ${at}: No such field: ${name}.`, name);
        ok = false;
        break;
      }
      if (!fits(field.type, value)) {
        bad(`Cannot convert value to ${field.type.toLowerCase()}.`, name);
        ok = false;
        break;
      }
      if (value !== null && value !== undefined) row[field.name] = value;
    }
    if (ok) rows.push(row);
  }
  const total = rows.length + errors.length;
  if (errors.length > (config.maxBadRecords ?? 0)) {
    const giveUp = { reason: "invalid", message: `Error while reading data, error message: JSON table encountered too many errors, giving up. Rows: ${total}; errors: ${errors.length}. Please look into the errors[] collection for more details.` };
    return failed(giveUp, errors);
  }
  const expires = config.destinationTableProperties?.expirationTime;
  const expirationTime = expires === undefined ? undefined : Number(expires);
  const stored = rows.map((json) => ({ json }));
  if (!existing) {
    dataset.set(tableId, { schema: { fields: fields.map((f) => ({ ...f })) }, rows: stored, seen: new Map(), added: new Map(), expirationTime });
  } else if (disposition === "WRITE_TRUNCATE") {
    existing.schema = { ...existing.schema, fields: fields.map((f) => ({ ...f })) };
    existing.rows = stored;
    if (expirationTime !== undefined) existing.expirationTime = expirationTime;
  } else {
    existing.rows.push(...stored);
  }
  return {
    status: { state: "DONE", ...(errors.length ? { errors } : {}) },
    statistics: { load: { inputFiles: "1", inputFileBytes: String(data.length), outputRows: String(rows.length), badRecords: String(errors.length) } },
  };
}
