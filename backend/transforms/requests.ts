import { invalid, notFound } from "../services/errors.js";
import { findConnector } from "../db/connectors.js";
import type { Database } from "../db/client.js";
import { TRANSFORM_MESSAGES as M } from "../../contract/transforms.js";
import { requirementInputsFor, templateDefinition, type TemplateDefinition } from "./catalogue.js";
import { InputError, validateInputs, validateRequirementInputs } from "./inputs.js";
import { ownedWarehouseDestination, toWarehouseTarget } from "./warehouse.js";

export function requireTemplate(id: string): TemplateDefinition {
  const d = templateDefinition(id);
  if (!d) throw notFound(M.templateNotFound);
  return d;
}

/** The caller's connector (400 when it is not theirs: it came in a body) and its warehouse destination. */
export async function connectorAndWarehouse(db: Database, ownerId: string, connectorId: string) {
  const connector = await findConnector(db, ownerId, connectorId);
  if (!connector) throw invalid(M.connectorNotFound, "connector_id");
  const destination = await ownedWarehouseDestination(db, ownerId, connector.id);
  return { connector, destination };
}

/** Inputs and requirement inputs checked against the template (and the warehouse's setup steps). */
export function checkedInputs(
  d: TemplateDefinition,
  target: Parameters<typeof requirementInputsFor>[1],
  inputs: Record<string, unknown> | undefined,
  requirementInputs: Record<string, unknown> | undefined,
) {
  try {
    return { inputs: validateInputs(d, inputs), requirementInputs: validateRequirementInputs(requirementInputsFor(d, target), requirementInputs) };
  } catch (error) {
    if (error instanceof InputError) throw invalid(error.message, error.field);
    throw error;
  }
}

export { toWarehouseTarget };
