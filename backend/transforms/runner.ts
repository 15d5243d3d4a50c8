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
import { applyHostedModel, executePipeline, PipelineConfigError } from "./pipelines.js";
import { HostedProviderError } from "./provider.js";
import { openWarehouse, platformsFor, warehouseDestination, type WarehouseServices } from "./warehouse.js";

/**
 * The transform runner: one attempt of a transform run. It reads what the connector synced from its destination's
 * warehouse, runs the template's pipeline and upserts the result tables back there. The runs themselves (queue,
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

/* ---- one run ---------------------------------------------------------------------------------------- */

export interface RunResult {
  records: number;
  lines: number;
  outputs: { table: string; rows: number }[];
}

/**
 * Reads the connector's synced transcripts, runs the template's pipeline and writes the result tables. Once
 * `run.signal` is aborted (Cancel) it stops between steps and between result tables, each table written whole.
 */
export async function runTransform(services: WarehouseServices, transformId: string, run: { id: string; at: Date; signal?: AbortSignal }, log?: RunLogSink): Promise<RunResult> {
  const { db } = services;
  const transform = await transformRow(db, transformId);
  if (!transform) throw new PermanentRunError("The transform no longer exists.");
  const d = transform.templateId ? templateDefinition(transform.templateId) : null;
  if (!d) throw new PermanentRunError(`The transform's template (${transform.templateId ?? "none"}) does not exist on this server.`);
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

  const warehouse = openWarehouse(destination, connector.ownerId, services);
  log?.info(`Reading the transcripts of connector "${connector.name}" from "${destination.name}" (${destination.integration_label}).`);
  try {
    let meetings, lines;
    try {
      meetings = await warehouse.readMeetings(connector.sourceId, platforms);
      lines = await warehouse.readLines(connector.sourceId, platforms);
    } catch (error) {
      if (error instanceof ServiceAccountError) throw new PermanentRunError(error.message);
      // A host the public-address rule refused before connecting stays refused: no retry.
      if (error instanceof RefusedHostError) throw new PermanentRunError(`Reading the transcripts from "${destination.name}" failed: ${error.message}`);
      throw Object.assign(new Error(`Reading the transcripts from "${destination.name}" failed: ${(error as Error).message}`), { cause: error });
    }
    run.signal?.throwIfAborted();
    log?.info(`Read ${meetings.length.toLocaleString("en-US")} transcripts (${lines.length.toLocaleString("en-US")} lines); running the ${d.name} pipeline.`);
    let outputs;
    try {
      outputs = executePipeline(d, values, { meetings, lines }, run);
      await applyHostedModel(d, values, outputs);
    } catch (error) {
      if (error instanceof PipelineConfigError || error instanceof HostedProviderError) throw new PermanentRunError(error.message);
      throw error;
    }
    run.signal?.throwIfAborted();
    const location = { dataset: requirement.results_dataset, schema: requirement.results_schema };
    const results = await warehouse.resultsWriter(location);
    const written: RunResult["outputs"] = [];
    try {
      for (const output of outputs) {
        run.signal?.throwIfAborted();
        const table = resultTableName(transform.id, output.suffix, requirement.results_prefix);
        try {
          // Re-runs replace rows by key; rows the new run no longer produces are removed after it.
          await results.writer.upsertRows(table, output.rows, output.key);
          await warehouse.prune(table, run.id, location);
        } catch (error) {
          throw Object.assign(new Error(`Writing the result table ${table} to "${destination.name}" failed: ${(error as Error).message}`), { cause: error });
        }
        written.push({ table, rows: output.rows.length });
        log?.info(`Result table ${table} written: ${output.rows.length.toLocaleString("en-US")} rows.`);
      }
    } finally {
      await results.done().catch(() => {});
    }
    return { records: meetings.length, lines: lines.length, outputs: written };
  } finally {
    await warehouse.close().catch(() => {});
  }
}
