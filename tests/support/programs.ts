import type { Warehouse } from "../../backend/integrations/destinations/warehouse.js";
import type { Row } from "../../backend/integrations/destinations/writer.js";
import type { Line, MeetingMeta } from "../../backend/transforms/analysis/index.js";
import { templateDefinition } from "../../backend/transforms/catalogue.js";
import { validateInputs } from "../../backend/transforms/inputs.js";
import { programOf } from "../../backend/transforms/programs/index.js";
import { meetingsWithLines, SCAN_BATCH_ROWS, type MeetingWithLines } from "../../backend/transforms/read.js";

/** What a program reads in a test: meetings and lines held in memory, or a warehouse's synced tables. */
export type ProgramInput =
  | { meetings: MeetingMeta[]; lines: Line[]; tables?: Record<string, Row[]> }
  | { warehouse: Warehouse; sourceId: string; platforms: string[]; batchRows?: number };

export interface ProgramOutput {
  suffix: string;
  key: string[];
  rows: Row[];
}

/** In memory, as a warehouse streams them: meetings by id, each with its lines by start, then id. */
async function* inMemory(meetings: MeetingMeta[], lines: Line[]): AsyncGenerator<MeetingWithLines> {
  const byMeeting = new Map<string, Line[]>();
  for (const line of lines) byMeeting.set(line.meeting_id, [...(byMeeting.get(line.meeting_id) ?? []), line]);
  for (const meeting of [...meetings].sort((a, b) => (a.meeting_id < b.meeting_id ? -1 : a.meeting_id > b.meeting_id ? 1 : 0))) {
    const own = (byMeeting.get(meeting.meeting_id) ?? []).sort((a, b) => a.start_ms - b.start_ms || (a.utterance_id < b.utterance_id ? -1 : 1));
    yield { meeting, lines: own };
  }
}

/** A table held in memory, as a scan gives it: in `orderBy` order, in one batch. */
async function* inMemoryScan(rows: Row[], columns: string[], orderBy: readonly string[], distinct = false): AsyncGenerator<Row[]> {
  const valueOf = (v: unknown) => (v instanceof Date ? v.getTime() : v) as string | number;
  const compare = (a: Row, b: Row) => {
    for (const k of orderBy) {
      const [x, y] = [valueOf(a[k]), valueOf(b[k])];
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
  const picked = rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
  const once = distinct ? [...new Map(picked.map((r) => [JSON.stringify(r), r])).values()] : picked;
  if (once.length) yield once.sort(compare);
}

/** The rows of a table held in memory: the meetings and lines as the sync writes them, or one of `tables`. */
function tableOf(input: { meetings: MeetingMeta[]; lines: Line[]; tables?: Record<string, Row[]> }, table: string): Row[] {
  if (table === "meetings") return input.meetings as unknown as Row[];
  if (table === "transcript_utterances") return input.lines as unknown as Row[];
  return input.tables?.[table] ?? [];
}

/**
 * Runs a template's program (its inputs' defaults merged with `inputs`), collecting each output's rows in memory and
 * the flowchart nodes it stepped through in `steps`.
 */
export async function runProgram(
  templateId: string,
  input: ProgramInput,
  run = { id: "run", at: new Date("2026-01-01T00:00:00Z") },
  inputs: Record<string, unknown> = {},
  steps: string[] = [],
): Promise<ProgramOutput[]> {
  const d = templateDefinition(templateId);
  const program = programOf(templateId);
  if (!d || !program) throw new Error(`No template ${templateId}`);
  const outputs = d.outputs.map((o) => ({ suffix: o.suffix, key: o.key, rows: [] as Row[] }));
  await program.run({
    values: validateInputs(d, inputs),
    stamp: { run_id: run.id, computed_at: run.at },
    meetings: () => ("warehouse" in input ? meetingsWithLines(input.warehouse, input.sourceId, input.platforms, input.batchRows) : inMemory(input.meetings, input.lines)),
    scan: (table, columns, orderBy, options) => {
      if (!("warehouse" in input)) return inMemoryScan(tableOf(input, table), columns.map((c) => c.name), orderBy, options?.distinct);
      const platforms = table === "meetings" ? { platforms: input.platforms } : {};
      return input.warehouse.scan({ table, sourceId: input.sourceId, ...platforms, ...options, columns, orderBy, batchRows: input.batchRows ?? SCAN_BATCH_ROWS });
    },
    write: async (suffix, rows) => {
      outputs.find((o) => o.suffix === suffix)!.rows.push(...rows);
    },
    step: (...nodes) => steps.push(...nodes),
    note: () => {},
    readDone: () => {},
    checkpoint: () => {},
  });
  return outputs;
}
