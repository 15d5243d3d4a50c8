import type { Row } from "../integrations/destinations/writer.js";
import { plainRow } from "../integrations/destinations/kit/warehouse-rows.js";
import type { PreviewSample } from "../../contract/transforms.js";
import type { TemplateDefinition } from "./catalogue.js";
import { programOf, type ProgramContext } from "./programs/index.js";
import { meetingsWithLines, SCAN_BATCH_ROWS } from "./read.js";
import { platformsFor, streamFilter, type Warehouse } from "./warehouse.js";

/** The preview runs the template's program on the first records only: this many meetings, or rows of a scan. */
export const PREVIEW_MEETINGS = 50;
export const PREVIEW_SCAN_ROWS = 2_000;
/** Rows shown per result table. */
export const PREVIEW_ROWS = 5;

/** At most `limit` items of an iterable (the rest is never read). */
async function* first<T>(items: AsyncIterable<T>, limit: number, size: (item: T) => number = () => 1): AsyncGenerator<T> {
  let taken = 0;
  for await (const item of items) {
    if (taken >= limit) return;
    taken += size(item);
    yield item;
  }
}

async function* nothing(): AsyncGenerator<Record<string, unknown>[]> {}

/**
 * A sample of what the template would write: its program run on the connector's first records (by id), in memory,
 * nothing written to the warehouse. Each result table's first rows, without the run's own columns.
 */
export async function previewSample(
  warehouse: Warehouse,
  d: TemplateDefinition,
  values: Record<string, unknown>,
  source: { sourceId: string; fileTypes: readonly string[] },
): Promise<{ records: number; tables: PreviewSample[] }> {
  const program = programOf(d.id);
  if (!program) return { records: 0, tables: [] };
  const held = new Map(d.outputs.map((o) => [o.suffix, { rows: [] as Row[], total: 0 }]));
  let records = 0;
  const context: ProgramContext = {
    values,
    stamp: { run_id: "preview", computed_at: new Date() },
    meetings: () => first(meetingsWithLines(warehouse, source.sourceId, platformsFor([...source.fileTypes]), SCAN_BATCH_ROWS, PREVIEW_MEETINGS), PREVIEW_MEETINGS),
    scan: (table, columns, orderBy, options) => {
      const filter = streamFilter(table, source.fileTypes);
      if (!filter) return nothing();
      return first(warehouse.scan({ table, sourceId: source.sourceId, ...filter, ...options, columns, orderBy, batchRows: PREVIEW_SCAN_ROWS }), PREVIEW_SCAN_ROWS, (b) => b.length);
    },
    write: async (suffix, rows) => {
      const out = held.get(suffix)!;
      out.total += rows.length;
      for (const row of rows) if (out.rows.length < PREVIEW_ROWS) out.rows.push(row);
    },
    step: () => {},
    note: () => {},
    readDone: (count) => {
      records = count;
    },
    checkpoint: () => {},
  };
  await program.run(context);
  const tables = d.outputs.map((o) => {
    const { rows, total } = held.get(o.suffix)!;
    const shown = rows.map((row) => {
      const { run_id: _run, computed_at: _at, ...rest } = row;
      return plainRow(rest) as PreviewSample["rows"][number];
    });
    return { table: o.suffix, description: o.description, columns: Object.keys(shown[0] ?? {}), rows: shown, total };
  });
  return { records, tables };
}
