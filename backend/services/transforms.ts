import {
  connectorDataOf,
  deleteTransform as deleteTransformRow,
  findTransform,
  insertTransform,
  ownedTransformRow,
  renameTransform as renameTransformRow,
  setTransformSchedule,
  transformNameTaken,
  type TransformRecord,
} from "../db/transforms.js";
import type { CancelResult } from "../db/runs.js";
import { findConnector } from "../db/connectors.js";
import { TRANSFORM_MESSAGES as M, transformCreateSchema, transformDraftSchema, updateTransformBodySchema } from "../../contract/transforms.js";
import { checkedInputs, connectorAndWarehouse, toWarehouseTarget } from "../transforms/requests.js";
import { templateDefinition } from "../transforms/catalogue.js";
import { requireOffered } from "../transforms/offer.js";
import { enqueueTransformRun, TRANSFORM_RUNS } from "../transforms/runs.js";
import { runAsker, type Actor } from "./actor.js";
import type { Services } from "./deps.js";
import { conflict, invalid, notFound, parse, parseFields } from "./errors.js";
import { cancelOpenRun, stopBeforeDelete } from "./runs.js";
import { scheduleUseCases } from "./schedules.js";
import { recordActivity } from "./activity.js";

const target = (t: { id: string; name: string }) => ({ type: "transform" as const, id: t.id, name: t.name });

/** The actor's transform (its row), or not found. */
export async function getTransformRow(deps: Services, actor: Actor, id: string) {
  const row = await ownedTransformRow(deps.db, actor.ownerId, id);
  if (!row) throw notFound(M.notFound);
  return row;
}

/** The actor's transform as its pages and the API show it, or not found. */
export async function getTransform(deps: Services, actor: Actor, id: string): Promise<TransformRecord> {
  const transform = await findTransform(deps.db, actor.ownerId, id);
  if (!transform) throw notFound(M.notFound);
  return transform;
}

/** The wizard's first screen (§5): the schema's checks, the connector is the actor's, the name is not taken. */
export async function checkTransformDraft(deps: Services, actor: Actor, raw: unknown): Promise<void> {
  const draft = parseFields(transformDraftSchema, raw);
  if (!(await findConnector(deps.db, actor.ownerId, draft.connector_id))) throw invalid(M.connectorNotFound, "connector_id");
  if (await transformNameTaken(deps.db, actor.ownerId, draft.name)) throw conflict(M.nameTaken, "name");
}

/** A transform made from a template, and its first run queued. */
export async function createTransform(deps: Services, actor: Actor, raw: unknown) {
  const { db } = deps;
  const body = parseFields(transformCreateSchema, raw);
  const d = templateDefinition(body.template_id);
  if (!d) throw invalid(M.templateNotFound, "template_id");
  const { connector, destination } = await connectorAndWarehouse(db, actor.ownerId, body.connector_id);
  if (!destination) throw invalid(M.noWarehouse, "connector_id");
  requireOffered(d, await connectorDataOf(db, connector.id));
  const { inputs, requirementInputs } = checkedInputs(d, toWarehouseTarget(destination), body.inputs, body.requirement_inputs);
  const row = await insertTransform(db, actor.ownerId, {
    name: body.name,
    description: body.description,
    transformType: d.transformType,
    templateId: d.id,
    connectorId: connector.id,
    frequency: body.frequency,
    fileTypes: [...new Set(body.file_types)],
    inputs,
    requirementInputs,
    permissionsSetup: body.permissions_setup,
  });
  if (!row) throw conflict(M.nameTaken, "name");
  await recordActivity(deps, actor, "created", target(row));
  // The first run, at once.
  const run = await enqueueTransformRun(db, deps.queue, { id: row.id, ownerId: actor.ownerId }, "create");
  return { row, run };
}

/** The actor's transform renamed (its name and description); a conflict when the name is taken. */
export async function renameTransform(deps: Services, actor: Actor, id: string, raw: unknown): Promise<TransformRecord> {
  const body = parse(updateTransformBodySchema, raw);
  const outcome = await renameTransformRow(deps.db, actor.ownerId, id, body);
  if (outcome === "missing") throw notFound(M.notFound);
  if (outcome === "taken") throw conflict(M.nameTaken);
  const transform = await getTransform(deps, actor, id);
  await recordActivity(deps, actor, "updated", target(transform));
  return transform;
}

/** A transform deleted, its run stopped first: nothing lands after the delete. */
export async function deleteTransform(deps: Services, actor: Actor, id: string): Promise<void> {
  const transform = await ownedTransformRow(deps.db, actor.ownerId, id);
  if (transform) await stopBeforeDelete(deps, TRANSFORM_RUNS, transform.id, "run");
  if (!(await deleteTransformRow(deps.db, actor.ownerId, id))) throw notFound(M.notFound);
  await recordActivity(deps, actor, "deleted", transform ? target(transform) : { type: "transform", id, name: null });
}

/** Run now: a conflict while a run is queued or running. */
export async function runTransform(deps: Services, actor: Actor, id: string) {
  const transform = await getTransformRow(deps, actor, id);
  const run = await enqueueTransformRun(deps.db, deps.queue, { id: transform.id, ownerId: actor.ownerId }, "manual", runAsker(actor));
  if (!run) throw conflict(M.runOpen);
  await recordActivity(deps, actor, "ran", target(transform));
  return run;
}

/** The actor's transform's queued run cancelled, or its running one asked to stop. */
export async function cancelTransformRun(deps: Services, actor: Actor, id: string): Promise<CancelResult> {
  const transform = await getTransformRow(deps, actor, id);
  const result = await cancelOpenRun(deps, TRANSFORM_RUNS, transform.id);
  // Only a cancel that stopped something is an act; a second click on a run already stopping is not another.
  if (result.outcome === "cancelled" || result.outcome === "stopping") await recordActivity(deps, actor, "cancelled", target(transform));
  return result;
}

/** The actor's transform's schedule: read, set, previewed. */
export const transformSchedules = scheduleUseCases({ find: findTransform, set: setTransformSchedule, notFound: M.notFound, recordType: "transform" });
