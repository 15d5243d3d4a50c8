import { randomUUID } from "node:crypto";
import { ROW_TYPE } from "./snowflake-values.js";
import type { SqlKind } from "./warehouse-sql.js";

/**
 * What the Snowflake fake (./snowflake.ts) answers a statement with: the result's columns (rowtype) and rows, as
 * Snowflake's query-request answer holds them. Like Snowflake with a large result, only the first rows come in the
 * answer (rowset); the rest are listed as chunks (data.chunks: url and rowCount each) that the SDK downloads itself
 * (GET url) when the rows are read: each chunk's rows as JSON arrays separated by commas. Snowflake cuts chunks by
 * size; the fake by `chunkRows`.
 */
export class SnowflakeResults {
  /** Rows in the answer itself, and in each chunk after it. */
  chunkRows = DEFAULT_CHUNK_ROWS;
  /** Chunk path → its body. */
  private readonly chunks = new Map<string, string>();

  clear() {
    this.chunks.clear();
    this.chunkRows = DEFAULT_CHUNK_ROWS;
  }

  /** A chunk's body, by the path of its url (undefined: no such chunk). */
  chunk(path: string): string | undefined {
    return this.chunks.get(path);
  }

  /** The answer's `data`; chunk urls start with `baseUrl` (the fake's own). */
  data(baseUrl: string, columns: (string | { name: string; kind: SqlKind })[], rowset: (string | null)[][], statementTypeId: number): Record<string, unknown> {
    const queryId = randomUUID();
    const size = Math.max(1, this.chunkRows);
    const chunks: { url: string; rowCount: number; uncompressedSize: number; compressedSize: number }[] = [];
    for (let start = size, n = 0; start < rowset.length; start += size, n++) {
      const path = `/results/${queryId}/main/data_0_0_${n}`;
      const body = rowset
        .slice(start, start + size)
        .map((row) => JSON.stringify(row))
        .join(",");
      this.chunks.set(path, body);
      const bytes = Buffer.byteLength(body);
      chunks.push({ url: `${baseUrl}${path}`, rowCount: Math.min(size, rowset.length - start), uncompressedSize: bytes, compressedSize: bytes });
    }
    return {
      parameters: [],
      rowtype: columns.map((c) => {
        const { name, kind } = typeof c === "string" ? { name: c, kind: "string" as const } : c;
        return { name, database: "", schema: "", table: "", byteLength: 16777216, ...ROW_TYPE[kind], nullable: true, collation: null, length: 16777216 };
      }),
      rowset: rowset.slice(0, size),
      ...(chunks.length ? { chunks } : {}),
      total: rowset.length,
      returned: rowset.length,
      queryId,
      databaseProvider: null,
      finalDatabaseName: null,
      finalSchemaName: null,
      finalWarehouseName: null,
      finalRoleName: null,
      numberOfBinds: 0,
      arrayBindSupported: false,
      statementTypeId,
      version: 1,
      sendResultTime: Date.now(),
      queryResultFormat: "json",
      queryContext: { entries: [] },
    };
  }
}

const DEFAULT_CHUNK_ROWS = 1_000;
