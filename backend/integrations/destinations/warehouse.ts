import type { StreamColumnType } from "../../../contract/integrations/streams.js";
import type { Line, MeetingMeta } from "../../transforms/analysis/index.js";
import type { DestinationWriter } from "./writer.js";

/**
 * Where transforms read what a connector synced (the tables of its source's streams, filtered by source_id) and write
 * their result tables: one per warehouse plug-in (its `warehouse()`). Each plug-in speaks its own SQL dialect behind
 * these calls; a transform never holds a whole table: it reads bounded batches from `scan`.
 */
export interface Warehouse {
  /** Rows of a synced table for one source (and, for a table with a platform column, those platforms); 0 without the table. */
  countRows(table: string, sourceId: string, platforms?: string[]): Promise<number>;
  /**
   * A streamed SELECT over a synced table: batches of at most `batchRows` rows, in `orderBy` order, compared as bytes
   * (so that two scans ordered by one column can be merged). No batch at all when the table does not exist. A row
   * written twice (a warehouse whose merge left a key twice) may come twice, next to each other when ordered by its key.
   */
  scan(query: ScanQuery): AsyncIterable<Record<string, unknown>[]>;
  /**
   * Rows of one run in a result table (null when the table does not exist): `limit` rows at most, after the first
   * `page.offset`, in `page.orderBy` order (ascending, text compared as bytes; the output's key, so that pages neither
   * repeat nor miss a row). Order-by columns the table lacks are left out; with none, the rows come in no set order.
   */
  readTable(table: string, limit: number, runId: string, location?: ResultsLocation, page?: ReadPage): Promise<ResultPage | null>;
  /** The writer for result tables (in the results dataset/schema when one is named); `done` releases it. */
  resultsWriter(location?: ResultsLocation): Promise<{ writer: DestinationWriter; done(): Promise<void> }>;
  /** Removes a result table's rows of other runs (where the warehouse allows it; readers filter by run_id anyway). */
  prune(table: string, runId: string, location?: ResultsLocation): Promise<void>;
  close(): Promise<void>;
}

export interface ScanColumn {
  name: string;
  /** Its stream type: a timestamp comes back as a Date, a number as a number, json parsed, a string as a string or null. */
  type: StreamColumnType;
}

export interface ScanQuery {
  /** The synced table: a stream's name ("transcript_utterances"). */
  table: string;
  sourceId: string;
  /** Only rows whose `platform` is one of these; absent: every row of the source (tables without a platform column). */
  platforms?: string[];
  columns: readonly ScanColumn[];
  /** Only rows whose `column` holds one of `values` (a bounded list: a batch of meeting ids). */
  in?: { column: string; values: readonly string[] };
  /** Each distinct row once (SELECT DISTINCT). */
  distinct?: boolean;
  /** Ascending, by these columns. */
  orderBy: readonly string[];
  batchRows: number;
}

/** Which page of a result table: rows from the `offset`-th (0 first), ordered by `orderBy` ("-column": descending). */
export interface ReadPage {
  offset?: number;
  orderBy?: readonly string[];
}

/**
 * The ORDER BY terms of `page` for the columns the table has (`has` compares as the warehouse names them), each quoted
 * by the warehouse's `quote`; a name written "-risk_score" sorts that column descending.
 */
export function orderColumns(page: ReadPage | undefined, has: (column: string) => boolean, quote: (column: string) => string): string[] {
  return (page?.orderBy ?? [])
    .map((term) => ({ column: term.replace(/^-/, ""), descending: term.startsWith("-") }))
    .filter(({ column }) => has(column))
    .map(({ column, descending }) => `${quote(column)}${descending ? " DESC" : ""}`);
}
/** A page's offset as a whole number of rows, 0 or more. */
export const offsetOf = (page: ReadPage | undefined) => Math.max(0, Math.floor(page?.offset ?? 0) || 0);

export interface ResultPage {
  columns: string[];
  rows: Record<string, unknown>[];
  total: number;
}

/** Where result tables go: BigQuery `dataset`, Snowflake `schema` (the destination's own when absent). */
export interface ResultsLocation {
  dataset?: string;
  schema?: string;
}

export type { Line, MeetingMeta };
