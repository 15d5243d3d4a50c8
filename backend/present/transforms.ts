import type { TransformRecord, TransformRunDetailsRecord } from "../db/transforms.js";
import type { RunTriggeredBy } from "../../contract/activity.js";
import type { TransformRunRow } from "../db/runs.js";
import type { Transform, TransformRun } from "../../contract/transforms.js";
import type { TransformRunDetails } from "../../contract/runs.js";
import { nextRunAt } from "../runs/schedule.js";
import { iso } from "./values.js";
import { presentLastRun, presentLogLine, runFields } from "./runs.js";

/** A transform's schedule as the API answers it: the schedule (null: its frequency's slot) and its next run (null: manual only, or its connector is paused). */
export function transformSchedule(t: TransformRecord, now = new Date()): Pick<Transform, "schedule" | "next_run_at"> {
  return { schedule: t.schedule, next_run_at: nextRunAt(t.id, t.frequency, t.schedule, t.connectorPaused, now) };
}

/** A transform as the API answers it (GET /transforms/list rows, /transforms/{id} without its file types, /api/v1/transforms). */
export function presentTransform(t: TransformRecord): Transform {
  const { schedule, next_run_at } = transformSchedule(t);
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    transform_type: t.transformType,
    connector_id: t.connectorId,
    connector_name: t.connectorName,
    status: t.status,
    created_at: iso(t.createdAt),
    template_id: t.templateId,
    frequency: t.frequency,
    file_types: t.fileTypes,
    inputs: t.inputs,
    schedule,
    next_run_at,
    last_run: t.lastRun ? presentLastRun(t.lastRun) : null,
  };
}

/** A transform run as the API answers it (the history, Run now). */
export function presentTransformRun(r: TransformRunRow): TransformRun & RunTriggeredBy {
  return { ...runFields(r), transform_id: r.transformId, outputs: r.outputs };
}

/** One transform run's details page: the run, its transform's name, its attempts (as stored), its log, and `logKeptDays` when its log was deleted for its age. */
export function presentTransformRunDetails(transform: { name: string }, r: TransformRunDetailsRecord, logKeptDays: number | null): TransformRunDetails {
  return { ...presentTransformRun(r), transform_name: transform.name, attempts: r.attemptLog, log: r.log.map((line) => presentLogLine(line)), log_kept_days: logKeptDays };
}

/** The run routes' presenters of a transform's runs (the app's and /api/v1's). */
export const TRANSFORM_RUN_VIEWS = { run: presentTransformRun, details: presentTransformRunDetails };
