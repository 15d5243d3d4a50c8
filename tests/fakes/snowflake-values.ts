import { SqlError, type SqlKind, type SqlValue } from "./warehouse-sql.js";

/** Snowflake's types and values as the fake (./snowflake.ts) stores, casts and returns them. */

/** A column as created: its name (upper case) and Snowflake type. */
export interface SnowflakeColumn {
  name: string;
  type: string;
}

export const kindOfType = (type: string): SqlKind => {
  const t = type.toUpperCase().replace(/\(.*$/, "");
  if (["VARCHAR", "TEXT", "STRING", "CHAR", "CHARACTER"].includes(t)) return "string";
  if (["FLOAT", "FLOAT4", "FLOAT8", "DOUBLE", "REAL", "DECIMAL"].includes(t)) return "number";
  if (["NUMBER", "INT", "INTEGER", "BIGINT", "SMALLINT"].includes(t)) return "integer";
  if (t === "BOOLEAN") return "boolean";
  if (t.startsWith("TIMESTAMP") || t === "DATETIME") return "timestamp";
  if (["VARIANT", "OBJECT", "ARRAY"].includes(t)) return "json";
  throw new SqlError(`SQL compilation error: unsupported data type '${type}' in this fake`);
};

/** rowtype entries as Snowflake describes result columns. */
export const ROW_TYPE: Record<SqlKind, { type: string; scale: number | null; precision: number | null }> = {
  string: { type: "text", scale: null, precision: null },
  number: { type: "real", scale: null, precision: null },
  integer: { type: "fixed", scale: 0, precision: 38 },
  boolean: { type: "boolean", scale: null, precision: null },
  timestamp: { type: "timestamp_tz", scale: 9, precision: 0 },
  json: { type: "variant", scale: null, precision: null },
};

/** A cell of a JSON rowset: text for everything; TIMESTAMP_TZ as "<epoch seconds>.<9 digits> <offset minutes + 1440>". */
export function cell(v: SqlValue, kind: SqlKind): string | null {
  if (v === null) return null;
  switch (kind) {
    case "integer":
      return String(Math.trunc(Number(v)));
    case "boolean":
      return v === true || v === "true" ? "1" : "0";
    case "timestamp": {
      const ms = v instanceof Date ? v.getTime() : Date.parse(String(v));
      const seconds = Math.floor(ms / 1000);
      return `${seconds}.${String(ms - seconds * 1000).padStart(3, "0")}000000 1440`;
    }
    default:
      return v instanceof Date ? v.toISOString() : String(v);
  }
}

/** A bound value (as the SDK sends it: text, or null) cast to a column kind, as `?::TYPE` / PARSE_JSON(?) would. */
export function cast(raw: unknown, kind: SqlKind, type: string): SqlValue {
  if (raw === null || raw === undefined) return null;
  const text = String(raw);
  switch (kind) {
    case "number":
    case "integer": {
      const n = Number(text);
      if (text.trim() === "" || !Number.isFinite(n)) throw new SqlError(`Numeric value '${text}' is not recognized`);
      return kind === "integer" ? Math.round(n) : n;
    }
    case "boolean":
      if (/^(true|t|yes|y|on|1)$/i.test(text)) return true;
      if (/^(false|f|no|n|off|0)$/i.test(text)) return false;
      throw new SqlError(`Boolean value '${text}' is not recognized`);
    case "timestamp": {
      const ms = Date.parse(text);
      if (Number.isNaN(ms)) throw new SqlError(`Timestamp '${text}' is not recognized`);
      return new Date(ms);
    }
    case "json":
      try {
        return JSON.stringify(JSON.parse(text));
      } catch {
        throw new SqlError(`Error parsing JSON: ${text.slice(0, 40)} (${type})`);
      }
    default:
      return text;
  }
}

/** A value stored into a column of another type, converted as Snowflake's assignment would. */
export function assign(value: SqlValue, column: SnowflakeColumn): SqlValue {
  if (value === null) return null;
  const kind = kindOfType(column.type);
  const has = value instanceof Date ? "timestamp" : typeof value === "number" ? (kind === "integer" ? "integer" : "number") : typeof value === "boolean" ? "boolean" : kind === "json" ? "json" : "string";
  if (has === kind) return value;
  return cast(value instanceof Date ? value.toISOString() : String(value), kind, column.type);
}

/** Snowflake's limit on expressions in a list (the rows of a VALUES clause among them). */
export const MAX_LIST_EXPRESSIONS = 16_384;

export const rowKey = (values: SqlValue[]) => JSON.stringify(values.map((v) => (v instanceof Date ? v.getTime() : v)));
