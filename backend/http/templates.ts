import { Hono, type Context } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { ApiError, jsonBody } from "../lib/requests.js";
import {
  DEFAULT_FILE_TYPES,
  DEFAULT_TEMPLATE_ID,
  INPUT_GROUP_ORDER,
  INPUT_TYPES,
  PERMISSION_TYPES,
  previewRequestSchema,
  SETUP_STEP_TYPES,
  TRANSFORM_FILE_TYPES,
  TRANSFORM_FREQUENCIES,
  TRANSFORM_MESSAGES as M,
  WIZARD_INTEGRATION_KEYS,
  type PreviewResponse,
} from "../../contract/transforms.js";
import { allDefinitions, CATEGORIES, LOCAL_PROVIDER, setupStepsFor, toTemplate, type TemplateDefinition } from "../transforms/catalogue.js";
import { offered, requireOffered } from "../transforms/offer.js";
import { checkedInputs, connectorAndWarehouse, requireTemplate, toWarehouseTarget } from "../transforms/requests.js";
import { invalid, parseFields } from "../services/errors.js";
import { findConnector } from "../db/connectors.js";
import { connectorDataOf } from "../db/transforms.js";
import { countStreamRows, dataFileTypes, openWarehouse, ownedWarehouseDestination } from "../transforms/warehouse.js";
import { programOf } from "../transforms/programs/index.js";
import { previewSample } from "../transforms/preview.js";
import type { DestinationRow } from "../db/destinations.js";
import { presentWizardDestination } from "../present/destinations.js";

/** Spec §7 "templates": the catalogue (backend/transforms/catalogue.ts), per-warehouse setup steps, and the preview. */
export const templatesRoutes = new Hono<ApiEnv>();
templatesRoutes.use("/templates/*", requireSession);

templatesRoutes.get("/templates/input-constants", (c) =>
  c.json({
    input_types: [...INPUT_TYPES],
    group_order: [...INPUT_GROUP_ORDER],
    file_types: [...TRANSFORM_FILE_TYPES],
    default_file_types: [...DEFAULT_FILE_TYPES],
    frequencies: [...TRANSFORM_FREQUENCIES],
    workflows: [
      { value: "template", label: "Use Templates", available: true },
      { value: "custom", label: "Build Custom", available: false },
    ],
    default_template_id: DEFAULT_TEMPLATE_ID,
    setup_step_types: [...SETUP_STEP_TYPES],
    permission_types: [...PERMISSION_TYPES],
    integration_keys: [...WIZARD_INTEGRATION_KEYS],
  }),
);

/**
 * Beyond the spec: with ?connector_id=, only the templates the connector is offered (backend/transforms/offer.ts: its
 * source syncs the stream they read), and only the categories that hold one; 404 when the connector is not the caller's.
 */
async function offeredTemplates(c: Context<ApiEnv>): Promise<TemplateDefinition[]> {
  const connectorId = c.req.query("connector_id");
  if (!connectorId) return allDefinitions();
  const connector = await findConnector(c.var.services.db, c.var.actor.ownerId, connectorId);
  const data = connector ? await connectorDataOf(c.var.services.db, connector.id) : null;
  if (!data) throw new ApiError(404, M.connectorNotFound);
  return allDefinitions().filter((d) => offered(d, data.integrationName));
}

templatesRoutes.get("/templates/categories", async (c) => {
  const templates = await offeredTemplates(c);
  return c.json({ categories: CATEGORIES.filter((k) => templates.some((d) => d.category === k.id)) });
});

templatesRoutes.get("/templates/categories/:category/templates", async (c) => {
  const category = c.req.param("category");
  if (!CATEGORIES.some((k) => k.id === category)) throw new ApiError(404, "Category not found");
  return c.json({ templates: (await offeredTemplates(c)).filter((d) => d.category === category).map((d) => toTemplate(d)) });
});

/** The destination the wizard uses for ?connector_id= (none without it); 404 when the connector is not the caller's. */
async function wizardDestination(c: Context<ApiEnv>): Promise<DestinationRow | null | undefined> {
  const connectorId = c.req.query("connector_id");
  if (!connectorId) return undefined;
  const connector = await findConnector(c.var.services.db, c.var.actor.ownerId, connectorId);
  if (!connector) throw new ApiError(404, M.connectorNotFound);
  return ownedWarehouseDestination(c.var.services.db, c.var.actor.ownerId, connector.id);
}

templatesRoutes.get("/templates/:id/metadata", (c) => c.json({ inputs: requireTemplate(c.req.param("id")).inputs }));

templatesRoutes.get("/templates/:id/setup-steps", async (c) => {
  const d = requireTemplate(c.req.param("id"));
  const destination = await wizardDestination(c);
  return c.json({ steps: setupStepsFor(d, destination ? toWarehouseTarget(destination) : null) });
});

/** POST /templates/{id}/preview: the pipeline the inputs make and how many transcripts it would read now. */
templatesRoutes.post("/templates/:id/preview", async (c) => {
  const d = requireTemplate(c.req.param("id"));
  const body = parseFields(previewRequestSchema, await jsonBody(c));
  if (body.template_id !== d.id) throw invalid("The template_id in the body does not match the template of the address.", "template_id");
  const { connector, destination } = await connectorAndWarehouse(c.var.services.db, c.var.actor.ownerId, body.connector_id);
  if (!destination) throw invalid(M.noWarehouse, "connector_id");
  const data = await connectorDataOf(c.var.services.db, connector.id);
  requireOffered(d, data);
  const { inputs } = checkedInputs(d, toWarehouseTarget(destination), body.inputs, body.requirement_inputs);
  const warehouse = openWarehouse(destination, c.var.actor.ownerId, c.var.services);
  const table = programOf(d.id)?.stream ?? "meetings";
  let recordCount: number;
  let sample: Awaited<ReturnType<typeof previewSample>> | null = null;
  // The records of each file type too, so a preview of none can say which file type has some.
  const recordCounts: Record<string, number> = {};
  try {
    const count = (fileTypes: readonly string[]) => countStreamRows(warehouse, table, connector.sourceId, fileTypes);
    recordCount = await count(body.file_types);
    if (recordCount === 0) {
      // One count over every file type first: a connector with nothing synced needs no other.
      const total = await count(TRANSFORM_FILE_TYPES);
      for (const type of TRANSFORM_FILE_TYPES) recordCounts[type] = total === 0 ? 0 : await count([type]);
    } else {
      // Topic labels of the sample are the local model's: a preview never calls a hosted model.
      sample = await previewSample(warehouse, d, { ...inputs, provider: LOCAL_PROVIDER }, { sourceId: connector.sourceId, fileTypes: body.file_types });
    }
  } catch (error) {
    throw new ApiError(502, `${M.previewFailed}: reading "${destination.name}" failed: ${(error as Error).message}`);
  } finally {
    await warehouse.close().catch(() => {});
  }
  const response: PreviewResponse = {
    template_config: { pipeline: d.pipeline(inputs) },
    template_name: d.name,
    transform_type: d.transformType,
    record_count: recordCount,
    ...(recordCount === 0 ? { record_counts: recordCounts } : {}),
    connector_file_types: data ? dataFileTypes(data) : [],
    ...(sample ? { sample_records: sample.records, sample: sample.tables } : {}),
  };
  return c.json(response);
});

// Registered last: "/templates/:id" would otherwise shadow the calls above.
templatesRoutes.get("/templates/:id", async (c) => {
  const d = requireTemplate(c.req.param("id"));
  const destination = await wizardDestination(c);
  const template = toTemplate(d, destination ? toWarehouseTarget(destination) : null);
  return c.json(destination === undefined ? template : { ...template, destination: destination ? presentWizardDestination(destination) : null });
});
