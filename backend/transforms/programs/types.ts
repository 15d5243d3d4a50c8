import type { ScanColumn } from "../../integrations/destinations/warehouse.js";
import type { Row } from "../../integrations/destinations/writer.js";
import type { MeetingWithLines } from "../read.js";

/**
 * A template's program: what a run of it does, step by step, over what the connector synced. It reads in bounded
 * batches (a pass over the meetings with their lines, or a scan of a stream's table) and writes result rows as it
 * goes: no step holds a whole table. The runner (backend/transforms/runner.ts) gives it its context.
 */
export interface ProgramContext {
  /** The template's input values, validated. */
  values: Record<string, unknown>;
  /** Carried by every result row: readers tell runs apart by it. */
  stamp: { run_id: string; computed_at: Date };
  /** A pass over the connector's meetings (of the transform's platforms), one meeting with its lines at a time, by id. */
  meetings(): AsyncIterable<MeetingWithLines>;
  /** A pass over a stream's table of the connector's source ("email_messages"), in batches, in `orderBy` order. */
  scan(table: string, columns: readonly ScanColumn[], orderBy: readonly string[], options?: { distinct?: boolean }): AsyncIterable<Record<string, unknown>[]>;
  /** Result rows of one of the template's outputs (by suffix), written in bounded batches. */
  write(suffix: string, rows: Row[]): Promise<void>;
  /**
   * Marks the start of the work of one of the template's flowchart nodes (by id): the run's log names it, and a test
   * checks that each program steps through exactly the nodes its template draws.
   */
  step(...nodes: string[]): void;
  /** A step's progress for the run's log. */
  note(message: string): void;
  /** After the first pass: what it read, for the run's log ("Read 1,204 transcripts (24,080 lines); running the … pipeline."). */
  readDone(records: number, lines?: number): void;
  /** Throws once the run was cancelled and nothing was written yet: call it between meetings and between steps. */
  checkpoint(): void;
}

export interface TemplateProgram {
  /** The stream whose records the program reads: the wizard counts them, the run's log names them. */
  stream: "meetings" | "email_messages";
  run(context: ProgramContext): Promise<void>;
}

/** An input as a list of strings (absent: none). */
export const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
