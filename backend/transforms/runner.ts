import type PgBoss from "pg-boss";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.js";
import { transformRuns } from "../db/schema.js";
import {
  beatTransformRun,
  deadTransformRuns,
  findTransformRun,
  insertTransformRun,
  listTransformRuns,
  markTransformRunning,
  openTransformRun,
  openTransformRunsWithJobs,
  scheduledTransforms,
  setTransformStatus,
  settleDeadTransformRun,
  transformRow,
  updateOpenTransformRun,
  updateTransformRun,
} from "../db/transforms.js";
import { recoverDeadRuns, recoverLostRuns, type LostRunOutcome, type OpenRun } from "../jobs/lost-runs.js";
import { heartbeatSettings, keepBeating } from "../jobs/heartbeat.js";
import { connectorRow } from "../db/connectors.js";
import { latestSlot } from "../jobs/sync-connector.job.js";
import { checkName } from "../integrations/destinations/writer.js";
import { ServiceAccountError } from "../integrations/destinations/google.js";
import { RESULTS_PREFIX_INPUT, templateDefinition } from "./catalogue.js";
import { InputError, validateInputs } from "./inputs.js";
import { applyHostedModel, executePipeline, PipelineConfigError } from "./pipelines.js";
import { HostedProviderError } from "./provider.js";
import { openWarehouse, platformsFor, warehouseDestination, type WarehouseServices } from "./warehouse.js";
import type { TransformRun } from "../../contract/transforms.js";

/**
 * The transform runner. A run is a `transform_runs` row plus a job on the
 * stately "run-transform" queue with the transform id as singletonKey: one run
 * at a time per transform across every worker. It reads what the connector
 * synced from its destination's warehouse, runs the template's pipeline and
 * upserts the result tables back there. See
 * docs/decisions/2026-11-22-transforms-and-templates.md.
 */
export const TRANSFORM_QUEUE = "run-transform";
export const TRANSFORM_SCHEDULER_QUEUE = "transform-scheduler";
export const TRANSFORM_RETRY_LIMIT = 3;

export type RunTrigger = "create" | "manual" | "schedule";

/** A failure retrying cannot fix: the run fails at once with this message. */
export class PermanentRunError extends Error {}

/** transforms.status follows its latest run. */
const STATUS_OF_RUN: Record<TransformRun["status"], string> = { queued: "PENDING", running: "RUNNING", succeeded: "SUCCEEDED", failed: "FAILED" };

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

/* ---- queueing ------------------------------------------------------------------------------------- */

/** Records a queued run and sends its job; null when the transform already has a run queued or running. */
export async function enqueueTransformRun(db: Database, boss: PgBoss, transform: { id: string; ownerId: string }, trigger: RunTrigger): Promise<TransformRun | null> {
  // Check and insert under a per-transform lock: two callers at once (Run now, the scheduler) make one run.
  const run = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`transform-run:${transform.id}`}))`);
    if (await openTransformRun(tx, transform.id)) return null;
    // The transform's row first: every write also locks its owner's users row (the data version, migration 0004),
    // so a statement that holds the transform's row and waits for that one can never wait on this transaction too.
    await setTransformStatus(tx, transform.id, STATUS_OF_RUN.queued);
    return insertTransformRun(tx, { transformId: transform.id, ownerId: transform.ownerId, trigger });
  });
  if (!run) return null;
  const jobId = await boss.send(TRANSFORM_QUEUE, { runId: run.id }, { singletonKey: transform.id });
  if (!jobId) {
    await db.delete(transformRuns).where(eq(transformRuns.id, run.id));
    return null;
  }
  await updateTransformRun(db, run.id, { jobId });
  return run;
}

/* ---- one run ---------------------------------------------------------------------------------------- */

export interface RunResult {
  records: number;
  lines: number;
  outputs: { table: string; rows: number }[];
}

/** Reads the connector's synced transcripts, runs the template's pipeline and writes the result tables. */
export async function runTransform(services: WarehouseServices, transformId: string, run: { id: string; at: Date }): Promise<RunResult> {
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
  if (!destination) throw new PermanentRunError("The connector has no destination with a warehouse (local, BigQuery or Snowflake) to read its transcripts from.");
  const platforms = platformsFor(transform.fileTypes);
  const requirement = transform.requirementInputs as Record<string, string | undefined>;

  const warehouse = openWarehouse(destination, connector.ownerId, services);
  try {
    let meetings, lines;
    try {
      meetings = await warehouse.readMeetings(connector.sourceId, platforms);
      lines = await warehouse.readLines(connector.sourceId, platforms);
    } catch (error) {
      if (error instanceof ServiceAccountError) throw new PermanentRunError(error.message);
      throw Object.assign(new Error(`Reading the transcripts from "${destination.name}" failed: ${(error as Error).message}`), { cause: error });
    }
    let outputs;
    try {
      outputs = executePipeline(d, values, { meetings, lines }, run);
      await applyHostedModel(d, values, outputs);
    } catch (error) {
      if (error instanceof PipelineConfigError || error instanceof HostedProviderError) throw new PermanentRunError(error.message);
      throw error;
    }
    const location = { dataset: requirement.results_dataset, schema: requirement.results_schema };
    const results = await warehouse.resultsWriter(location);
    const written: RunResult["outputs"] = [];
    try {
      for (const output of outputs) {
        const table = resultTableName(transform.id, output.suffix, requirement.results_prefix);
        try {
          // Re-runs replace rows by key; rows the new run no longer produces are removed after it.
          await results.writer.upsertRows(table, output.rows, output.key);
          await warehouse.prune(table, run.id, location);
        } catch (error) {
          throw Object.assign(new Error(`Writing the result table ${table} to "${destination.name}" failed: ${(error as Error).message}`), { cause: error });
        }
        written.push({ table, rows: output.rows.length });
      }
    } finally {
      await results.done().catch(() => {});
    }
    return { records: meetings.length, lines: lines.length, outputs: written };
  } finally {
    await warehouse.close().catch(() => {});
  }
}

interface RunLog {
  info: (o: object, m: string) => void;
  warn: (o: object, m: string) => void;
}

/** Runs one queued run: a retried job (worker died, transient error) picks the same run up again. */
export async function performTransformRun(services: WarehouseServices, runId: string, log?: RunLog): Promise<void> {
  const { db } = services;
  const run = await findTransformRun(db, runId);
  if (!run || run.status === "succeeded" || run.status === "failed") return;
  const attempts = run.attempts + 1;
  const startedAt = run.startedAt ?? new Date();
  await markTransformRunning(db, run.id, { startedAt, attempts });
  await setTransformStatus(db, run.transformId, STATUS_OF_RUN.running);
  const stopBeating = keepBeating(
    async () => {
      if (!(await beatTransformRun(db, run.id))) log?.warn({ runId }, "transform run is no longer running here (taken back as lost?)");
    },
    heartbeatSettings().intervalSeconds,
    (error) => log?.warn({ runId, err: (error as Error).message }, "transform run heartbeat failed"),
  );
  try {
    const result = await runTransform(services, run.transformId, { id: run.id, at: startedAt });
    await updateTransformRun(db, run.id, { status: "succeeded", finishedAt: new Date(), records: result.records, outputs: result.outputs, error: null });
    await setTransformStatus(db, run.transformId, STATUS_OF_RUN.succeeded);
    log?.info({ runId, records: result.records, lines: result.lines, outputs: result.outputs }, "transform run succeeded");
  } catch (error) {
    const message = (error as Error).message || String(error);
    if (error instanceof PermanentRunError || attempts > TRANSFORM_RETRY_LIMIT) {
      await updateTransformRun(db, run.id, { status: "failed", finishedAt: new Date(), error: message });
      await setTransformStatus(db, run.transformId, STATUS_OF_RUN.failed);
      log?.warn({ runId, err: error }, "transform run failed");
      return;
    }
    await updateTransformRun(db, run.id, { status: "queued", error: `Attempt ${attempts} failed, retrying: ${message}` });
    await setTransformStatus(db, run.transformId, STATUS_OF_RUN.queued);
    throw error;
  } finally {
    stopBeating();
  }
}

/* ---- schedules ------------------------------------------------------------------------------------- */

/** Every minute: queue a run for each transform (of an active connector) whose slot (daily/hourly, spread by id) has come. */
/** Records a lost run's outcome while it is still open under its job (see recoverLostRuns), and the transform's status. */
async function settleLostTransformRun(db: Database, run: OpenRun, outcome: LostRunOutcome): Promise<boolean> {
  if (!(await updateOpenTransformRun(db, run.id, run.jobId, outcome))) return false;
  await setTransformStatus(db, run.key, STATUS_OF_RUN[outcome.status]);
  return true;
}

/** Queues again, or fails, the transform runs whose job ended without them (see recoverLostRuns); answers how many. */
export async function recoverLostTransformRuns(db: Database, boss: PgBoss): Promise<number> {
  const runs = (await openTransformRunsWithJobs(db)).map((r) => ({ id: r.id, attempts: r.attempts, error: r.error, jobId: r.jobId!, key: r.transformId }));
  return recoverLostRuns(boss, TRANSFORM_QUEUE, TRANSFORM_RETRY_LIMIT, runs, (run, outcome) => settleLostTransformRun(db, run, outcome));
}

/** Queues again, or fails, the running transform runs whose heartbeat stopped (see recoverDeadRuns); answers how many. */
export async function recoverDeadTransformRuns(db: Database, boss: PgBoss, timeoutSeconds = heartbeatSettings().timeoutSeconds): Promise<number> {
  const runs = (await deadTransformRuns(db, timeoutSeconds)).map((r) => ({ id: r.id, attempts: r.attempts, error: r.error, jobId: r.jobId!, key: r.transformId }));
  if (runs.length === 0) return 0;
  return recoverDeadRuns(
    boss,
    TRANSFORM_QUEUE,
    TRANSFORM_RETRY_LIMIT,
    runs,
    async (run, outcome) => {
      if (!(await settleDeadTransformRun(db, run.id, run.jobId, timeoutSeconds, { ...outcome, heartbeatAt: null }))) return false;
      await setTransformStatus(db, run.key, STATUS_OF_RUN[outcome.status]);
      return true;
    },
    (run, outcome) => settleLostTransformRun(db, run, outcome),
  );
}

export async function enqueueDueTransformRuns(db: Database, boss: PgBoss, now = new Date()): Promise<number> {
  let queued = 0;
  for (const transform of await scheduledTransforms(db)) {
    const slot = latestSlot(transform.id, transform.frequency, now);
    if (slot.getTime() < transform.createdAt.getTime()) continue;
    const [latest] = await listTransformRuns(db, transform.id, 1);
    if (latest && new Date(latest.created_at).getTime() >= slot.getTime()) continue;
    if (await enqueueTransformRun(db, boss, transform, "schedule")) queued++;
  }
  return queued;
}
