import type { Line, MeetingMeta } from "../../transforms/analysis/index.js";
import type { DestinationWriter } from "./writer.js";

/**
 * Where transforms read what a connector synced (the `meetings` and `transcript_utterances` tables the sync engine
 * writes, filtered by source_id) and write their result tables: one per warehouse plug-in (its `warehouse()`).
 */
export interface Warehouse {
  countMeetings(sourceId: string, platforms: string[]): Promise<number>;
  readMeetings(sourceId: string, platforms: string[]): Promise<MeetingMeta[]>;
  readLines(sourceId: string, platforms: string[]): Promise<Line[]>;
  /** Rows of one run in a result table (null when the table does not exist). */
  readTable(table: string, limit: number, runId: string, location?: ResultsLocation): Promise<ResultPage | null>;
  /** The writer for result tables (in the results dataset/schema when one is named); `done` releases it. */
  resultsWriter(location?: ResultsLocation): Promise<{ writer: DestinationWriter; done(): Promise<void> }>;
  /** Removes a result table's rows of other runs (where the warehouse allows it; readers filter by run_id anyway). */
  prune(table: string, runId: string, location?: ResultsLocation): Promise<void>;
  close(): Promise<void>;
}

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
