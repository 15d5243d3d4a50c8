import type { z } from "zod";
import { ApiError } from "../http/context.js";
import { findConnector } from "../db/connectors.js";
import type { Database } from "../db/client.js";
import { TRANSFORM_MESSAGES as M } from "../../contract/transforms.js";
import { requirementInputsFor, templateDefinition, type TemplateDefinition } from "./catalogue.js";
import { InputError, validateInputs, validateRequirementInputs } from "./inputs.js";
import { ownedWarehouseDestination, toWarehouseTarget } from "./warehouse.js";

/** A 4xx answered as { message, field } (the screens put the message next to the field). */
export class FieldError extends ApiError {
  constructor(
    status: 400 | 404 | 409,
    message: string,
    readonly field: string | undefined,
  ) {
    super(status, message);
  }
}

/** Parses with a zod schema; the first issue becomes a 400 naming its field. */
export function parseFields<S extends z.ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new FieldError(400, "The request body must be a JSON object.", undefined);
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new FieldError(400, issue.message, issue.path.join(".") || undefined);
  }
  return result.data;
}

export function requireTemplate(id: string): TemplateDefinition {
  const d = templateDefinition(id);
  if (!d) throw new ApiError(404, M.templateNotFound);
  return d;
}

/** The caller's connector (400 when it is not theirs: it came in a body) and its warehouse destination. */
export async function connectorAndWarehouse(db: Database, ownerId: string, connectorId: string) {
  const connector = await findConnector(db, ownerId, connectorId);
  if (!connector) throw new FieldError(400, M.connectorNotFound, "connector_id");
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
    if (error instanceof InputError) throw new FieldError(400, error.message, error.field);
    throw error;
  }
}

export { toWarehouseTarget };
