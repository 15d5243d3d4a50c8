/** BigQuery's values as the fake keeps, checks and answers them (shared by its tables, loads, queries and MERGE). */
import type { SqlKind, SqlResult, SqlValue } from "./warehouse-sql.js";

export interface SchemaField {
  name: string;
  type: string;
  mode?: string;
}
export interface FakeTable {
  schema: { fields?: SchemaField[] } | undefined;
  rows: { insertId?: string; json: Record<string, unknown> }[];
  /** insertId → when it was last accepted. */
  seen: Map<string, number>;
  /** Fields added by tables.patch/update (lower-case name) → when. */
  added: Map<string, number>;
  /** When BigQuery deletes the table by itself (ms since the epoch), if ever. */
  expirationTime?: number;
}
export type TimestampFormat = { useInt64Timestamp?: boolean; timestampOutputFormat?: string };

/** A query's result as the REST API sends it (schema, and rows of f/v cells). */
export function encode(result: SqlResult, format: TimestampFormat) {
  return {
    schema: { fields: result.columns.map((c) => ({ name: c.name, type: TYPE_OF_KIND[c.kind], mode: "NULLABLE" })) },
    rows: result.rows.map((row) => ({ f: row.map((v, i) => ({ v: cell(v, result.columns[i]!.kind, format) })) })),
  };
}

export const KIND_OF_TYPE: Record<string, SqlKind> = {
  STRING: "string",
  FLOAT: "number",
  FLOAT64: "number",
  NUMERIC: "number",
  BIGNUMERIC: "number",
  INTEGER: "integer",
  INT64: "integer",
  BOOLEAN: "boolean",
  BOOL: "boolean",
  TIMESTAMP: "timestamp",
  JSON: "json",
};
export const TYPE_OF_KIND: Record<SqlKind, string> = { string: "STRING", number: "FLOAT", integer: "INTEGER", boolean: "BOOLEAN", timestamp: "TIMESTAMP", json: "JSON" };

/** A streamed JSON value as the column's type (what a query sees). */
export function typed(type: string, v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  switch (KIND_OF_TYPE[type.toUpperCase()] ?? "string") {
    case "number":
    case "integer":
      return Number(v);
    case "boolean":
      return v === true || v === "true";
    case "timestamp":
      return typeof v === "number" ? new Date(v * 1000) : new Date(String(v));
    case "json":
      return typeof v === "string" ? v : JSON.stringify(v);
    default:
      return typeof v === "string" ? v : JSON.stringify(v);
  }
}

/** Whether a streamed value fits the column's type (BigQuery refuses the row otherwise). */
export function fits(type: string, v: unknown): boolean {
  if (v === null || v === undefined) return true;
  switch (KIND_OF_TYPE[type.toUpperCase()] ?? "string") {
    case "number":
    case "integer":
      return Number.isFinite(Number(v)) && (typeof v === "number" || (typeof v === "string" && v.trim() !== ""));
    case "boolean":
      return typeof v === "boolean" || v === "true" || v === "false";
    case "timestamp":
      return (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && !Number.isNaN(Date.parse(v)));
    case "json":
      if (typeof v !== "string") return true;
      try {
        JSON.parse(v);
        return true;
      } catch {
        return false;
      }
    default:
      return typeof v !== "object";
  }
}

/** A query parameter (QueryParameter JSON) as a value. */
export function parameterValue(type: { type?: string; arrayType?: { type?: string } } | undefined, value: { value?: unknown; arrayValues?: { value?: unknown }[] } | undefined): SqlValue | SqlValue[] {
  const kind = String(type?.type ?? "STRING").toUpperCase();
  if (kind === "ARRAY") return (value?.arrayValues ?? []).map((v) => parameterValue(type?.arrayType, v) as SqlValue);
  const raw = value?.value;
  if (raw === null || raw === undefined) return null;
  if (kind === "INT64" || kind === "FLOAT64" || kind === "NUMERIC" || kind === "BIGNUMERIC") return Number(raw);
  if (kind === "BOOL") return raw === true || raw === "true";
  if (kind === "TIMESTAMP") return new Date(String(raw).replace(" ", "T"));
  return String(raw);
}

/** A cell as the REST API sends it: strings, timestamps as int64 microseconds (useInt64Timestamp), float seconds, or ISO text. */
export function cell(v: SqlValue, kind: SqlKind, format: TimestampFormat): string | null {
  if (v === null) return null;
  if (kind === "timestamp") {
    const ms = v instanceof Date ? v.getTime() : Date.parse(String(v));
    if (format.timestampOutputFormat === "ISO8601_STRING") return new Date(ms).toISOString();
    if (format.useInt64Timestamp || format.timestampOutputFormat === "INT64") return String(BigInt(ms) * 1000n);
    return String(ms / 1000);
  }
  if (kind === "integer") return String(Math.trunc(Number(v)));
  if (v instanceof Date) return v.toISOString();
  return String(v);
}
