import { connectorRow } from "../db/connectors.js";
import { warehouseKindsInWords } from "../../contract/integrations/destination-words.js";
import type { RunLogSink } from "../db/run-logs.js";
import { transformRow } from "../db/transforms.js";
import { RefusedHostError } from "../lib/public-address.js";
import { PermanentRunError } from "../runs/engine.js";
import { checkName } from "../integrations/destinations/writer.js";
import { ServiceAccountError } from "../integrations/destinations/kit/google.js";
import { RESULTS_PREFIX_INPUT, templateDefinition } from "./catalogue.js";
import { InputError, validateInputs } from "./inputs.js";
import { meetingsWithLines, SCAN_BATCH_ROWS } from "./read.js";
import { programOf, PipelineConfigError, type ProgramContext } from "./programs/index.js";
import { ResultSink } from "./results-sink.js";
import { HostedProviderError } from "./provider.js";
import { openWarehouse, platformsFor, streamFilter, warehouseDestination, type Warehouse, type WarehouseServices } from "./warehouse.js";

/**
 * The transform runner: one attempt of a transform run. It runs the template's program (backend/transforms/programs/)
 * over what the connector synced, read from its destination's warehouse in bounded batches, and upserts the result
 * tables back there. The runs themselves (queue,
 * lock, retries, recovery, history) are the runs engine's (backend/transforms/runs.ts). See
 * docs/decisions/2026-11-22-transforms-and-templates.md.
 */

/** `<prefix>_<first 8 hex of the transform id>_<suffix>`: stable across runs, so re-runs replace rows by key. */
export function resultTableName(transformId: string, suffix: string, prefix = RESULTS_PREFIX_INPUT.default!): string {
  return checkName("table", `${prefix}_${transformId.replace(/-/g, "").slice(0, 8)}_${suffix}`);
}

/** The result tables of a transform (names), from its template and requirement inputs. */
export function resultTables(transform: { id: string; templateId: string | null; requirementInputs: Record<string, unknown> }): string[] {
  const d = transform.templateId ? templateDefinition(transform.templateId) : null;
  if (!d) return [];
  const prefix = typeof transform.requirementInputs.results_prefix === "string" ? transform.requirementInputs.results_prefix : undefined;
  return d.outputs.map((o) => resultTableName(transform.id, o.suffix, prefix));
}

/** A scan of nothing (the transform's file types leave out the stream). */
async function* nothing(): AsyncGenerator<Record<string, unknown>[]> {}

/* ---- one run ---------------------------------------------------------------------------------------- */

export interface RunResult {
  records: number;
  lines: number;
  outputs: { table: string; rows: number }[];
}

/**
 * Runs the template's program over what the connector synced, in its destination's warehouse: the program reads in
 * bounded batches and its result rows are written as they come (ResultSink). Once `run.signal` is aborted (Cancel) it
 * stops at the program's next checkpoint (between meetings, between steps, between result tables), unless it has
 * begun writing a large result, which it then finishes.
 */
export async function runTransform(services: WarehouseServices, transformId: string, run: { id: string; at: Date; signal?: AbortSignal }, log?: RunLogSink): Promise<RunResult> {
  const { db } = services;
  const transform = await transformRow(db, transformId);
  if (!transform) throw new PermanentRunError("The transform no longer exists.");
  const d = transform.templateId ? templateDefinition(transform.templateId) : null;
  if (!d) throw new PermanentRunError(`The transform's template (${transform.templateId ?? "none"}) does not exist on this server.`);
  const program = programOf(d.id);
  if (!program) throw new PermanentRunError(`The template ${d.id} has no pipeline on this server.`);
  let values: Record<string, unknown>;
  try {
    values = validateInputs(d, transform.inputs);
  } catch (error) {
    if (error instanceof InputError) throw new PermanentRunError(`The transform's inputs are no longer valid: ${error.message}`);
    throw error;
  }
  const connector = await connectorRow(db, transform.connectorId);
  if (!connector) throw new PermanentRunError("The transform's connector no longer exists.");
  const destination = await warehouseDestination(db, connector.id);
  if (!destination) throw new PermanentRunError(`The connector has no destination with a warehouse (${warehouseKindsInWords()}) to read its transcripts from.`);
  const platforms = platformsFor(transform.fileTypes);
  const requirement = transform.requirementInputs as Record<string, string | undefined>;
  const location = { dataset: requirement.results_dataset, schema: requirement.results_schema };

  const warehouse = openWarehouse(destination, connector.ownerId, services);
  const records = program.stream === "meetings" ? "transcripts" : "e-mail messages";
  log?.info(`Reading the ${records} of connector "${connector.name}" from "${destination.name}" (${destination.integrationLabel}).`);
  let results: Awaited<ReturnType<Warehouse["resultsWriter"]>> | undefined;
  let toldCancel = false;
  const written: RunResult["outputs"] = [];
  const read = { records: 0, lines: 0 };
  const tableOf = (suffix: string) => resultTableName(transform.id, suffix, requirement.results_prefix);
  const keyOf = new Map(d.outputs.map((o) => [o.suffix, o.key]));
  const sink = new ResultSink(
    d.outputs.map((o) => o.suffix),
    async (suffix, rows) => {
      results ??= await warehouse.resultsWriter(location);
      try {
        // Re-runs replace rows by key; rows the new run no longer produces are removed after it (prune).
        await results.writer.upsertRows(tableOf(suffix), rows, keyOf.get(suffix)!);
      } catch (error) {
        throw Object.assign(new Error(`Writing the result table ${tableOf(suffix)} to "${destination.name}" failed: ${(error as Error).message}`), { cause: error });
      }
    },
  );
  const checkpoint = () => {
    if (!run.signal?.aborted) return;
    if (!sink.writing) run.signal.throwIfAborted();
    if (!toldCancel) log?.info("Cancel was asked while the result tables were being written: the run finishes them, so that none is left half-written.");
    toldCancel = true;
  };
  /** A read's failure in the user's words: a refused host or a service account stays refused (no retry). */
  const readFailure = (error: unknown): Error => {
    if (error instanceof ServiceAccountError) return new PermanentRunError(error.message);
    if (error instanceof RefusedHostError) return new PermanentRunError(`Reading the ${records} from "${destination.name}" failed: ${error.message}`);
    return Object.assign(new Error(`Reading the ${records} from "${destination.name}" failed: ${(error as Error).message}`), { cause: error });
  };
  async function* guarded<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
    const iterator = items[Symbol.asyncIterator]();
    try {
      for (;;) {
        let next: IteratorResult<T>;
        try {
          next = await iterator.next();
        } catch (error) {
          throw readFailure(error);
        }
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await iterator.return?.(undefined);
    }
  }
  const context: ProgramContext = {
    values,
    stamp: { run_id: run.id, computed_at: run.at },
    meetings: () => guarded(meetingsWithLines(warehouse, connector.sourceId, platforms)),
    scan: (table, columns, orderBy, options) => {
      const filter = streamFilter(table, transform.fileTypes);
      return guarded(filter ? warehouse.scan({ table, sourceId: connector.sourceId, ...filter, ...options, columns, orderBy, batchRows: SCAN_BATCH_ROWS }) : nothing());
    },
    write: (suffix, rows) => sink.write(suffix, rows),
    step: (...nodes) => {
      const labels = nodes.map((id) => {
        const node = d.nodes.find((n) => n.id === id && n.kind !== "data");
        if (!node) throw new Error(`The ${d.name} pipeline has no step ${id}`);
        return node.label;
      });
      log?.info(`Step: ${labels.join(", ")}.`);
    },
    note: (message) => log?.info(message),
    readDone: (count, lines) => {
      Object.assign(read, { records: count, lines: lines ?? 0 });
      const what = `${count.toLocaleString("en-US")} ${records}${lines === undefined ? "" : ` (${lines.toLocaleString("en-US")} lines)`}`;
      log?.info(`Read ${what}; running the ${d.name} pipeline.`);
    },
    checkpoint,
  };
  try {
    try {
      await program.run(context);
      await sink.finish(checkpoint, async (suffix, rows) => {
        const table = tableOf(suffix);
        try {
          await warehouse.prune(table, run.id, location);
        } catch (error) {
          throw Object.assign(new Error(`Writing the result table ${table} to "${destination.name}" failed: ${(error as Error).message}`), { cause: error });
        }
        written.push({ table, rows });
        log?.info(`Result table ${table} written: ${rows.toLocaleString("en-US")} rows.`);
      });
    } catch (error) {
      if (error instanceof PipelineConfigError || error instanceof HostedProviderError) throw new PermanentRunError(error.message);
      throw error;
    } finally {
      await results?.done().catch(() => {});
    }
    return { records: read.records, lines: read.lines, outputs: written };
  } finally {
    await warehouse.close().catch(() => {});
  }
}
