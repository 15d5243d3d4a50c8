import { randomUUID } from "node:crypto";
import { Hono, type Context } from "hono";
import { ApiError, jsonBody, parse, requireSession, type ApiEnv } from "./context.js";
import { listHandler } from "./list-route.js";
import { listDestinations } from "../db/lists.js";
import {
  deleteDestination,
  findCredential,
  findDestination,
  insertDestination,
  listAllDestinations,
  updateDestinationRow,
  type CredentialRow,
} from "../db/destinations.js";
import {
  createDestinationSchema,
  destinationCategory,
  DESTINATION_MESSAGES as M,
  integrationLabel,
  isGoogle,
  isSnowflake,
  updateDestinationSchema,
  type DestinationFields,
} from "../../contract/destinations.js";
import { boundValues } from "../integrations/destinations/validation-token.js";
import { validationTokens } from "../integrations/destinations/tokens.js";
import { localDestinationAllowed, localFolder, LocalWriter, resolveLocalRoot } from "../integrations/destinations/local.js";

export const destinationsRoutes = new Hono<ApiEnv>();
destinationsRoutes.use("/destinations/*", requireSession);

destinationsRoutes.get("/destinations/list", listHandler(listDestinations));

destinationsRoutes.get("/destinations/list-all", async (c) => c.json(await listAllDestinations(c.var.services.db, c.var.user.id)));

destinationsRoutes.get("/destinations/list-by-id/:id", async (c) => {
  const destination = await findDestination(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (!destination) throw new ApiError(404, M.notFound);
  return c.json(destination);
});

/**
 * The credential of a successful test over exactly these values, or a 400 with
 * the spec's message: the values must be the ones the signed token covers.
 */
async function testedCredential(c: Context<ApiEnv>, integration: string, values: Partial<DestinationFields>): Promise<CredentialRow> {
  const { db, config, secrets } = c.var.services;
  const credential = await findCredential(db, c.var.user.id, values.credential_id);
  const tokens = validationTokens(config.TRIBUTARY_SECRET_KEY);
  if (!credential || credential.integrationName !== integration) throw new ApiError(400, M.notTested);
  if (!tokens.verify(values.validation_token, c.var.user.id, integration, credential.id, boundValues(integration, values))) throw new ApiError(400, M.notTested);
  if (isSnowflake(integration) && values.password !== undefined) {
    const sealed = credential.secret ? secrets.open<{ password?: string }>(credential.secret) : {};
    if (sealed.password !== values.password) throw new ApiError(400, M.notTested);
  }
  return credential;
}

destinationsRoutes.post("/destinations/create", async (c) => {
  const v = parse(createDestinationSchema, await jsonBody(c));
  const integration = v.integration_name!;
  const ownerId = c.var.user.id;
  const { db, config: serverConfig } = c.var.services;
  const base = {
    name: v.name!,
    description: v.description ?? "",
    integrationName: integration,
    integrationLabel: integrationLabel(integration),
    category: destinationCategory(integration),
    status: "ACTIVE",
  };
  let created;
  if (integration === "local") {
    if (!localDestinationAllowed()) throw new ApiError(400, "The local destination is not available on this server (ALLOW_LOCAL_DESTINATION=false).");
    const id = randomUUID();
    const folder = localFolder(ownerId, id);
    const writer = new LocalWriter(resolveLocalRoot(serverConfig.DATA_DIR, folder));
    try {
      await writer.prepare();
    } catch (error) {
      c.var.services.log.error({ err: error }, "local destination folder could not be prepared");
      throw new ApiError(422, `${M.createFailed} The folder under DATA_DIR could not be created.`);
    } finally {
      await writer.close();
    }
    created = await insertDestination(db, ownerId, { id, ...base, config: { folder, files: `${folder}/files`, warehouse: `${folder}/warehouse.duckdb` }, credentialId: null });
  } else {
    const credential = await testedCredential(c, integration, v);
    const common = { project_id: v.project_id, service_account_email: credential.metadata.service_account_email };
    const config: Record<string, unknown> =
      integration === "storage"
        ? { ...common, bucket_name: v.bucket_name }
        : integration === "bigquery"
          ? { ...common, dataset_name: v.dataset_name ?? "", permission_type: v.permission_type ?? "dataset_write" }
          : {
              account: v.account!.toLowerCase(),
              user: v.user!.toUpperCase(),
              ...(integration === "snowflake" ? { warehouse: v.warehouse!.toUpperCase() } : { stage_name: v.stage_name!.toUpperCase() }),
              database: v.database!.toUpperCase(),
              schema: v.schema!.toUpperCase(),
            };
    created = await insertDestination(db, ownerId, { ...base, config, credentialId: credential.id });
  }
  return c.json({ status: "success", message: "Destination created", destination_id: created.id, destination: created }, 201);
});

destinationsRoutes.put("/destinations/update/:id", async (c) => {
  const existing = await findDestination(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (!existing) throw new ApiError(404, M.notFound);
  const v = parse(updateDestinationSchema, await jsonBody(c));
  if (!v.name) throw new ApiError(400, M.name);
  const integration = existing.integration_name;
  let config = existing.config as Record<string, unknown>;
  let credentialId = existing.credential_id;
  if (isGoogle(integration)) {
    const permission = (config.permission_type as DestinationFields["permission_type"]) ?? "dataset_write";
    if (!v.project_id) throw new ApiError(400, M.projectId);
    if (integration === "storage" && !v.bucket_name) throw new ApiError(400, M.bucket);
    if (integration === "bigquery" && permission !== "dataset_query_access" && !v.dataset_name) throw new ApiError(400, M.dataset);
    const next = integration === "storage" ? { project_id: v.project_id, bucket_name: v.bucket_name } : { project_id: v.project_id, dataset_name: v.dataset_name ?? "" };
    const changed = Object.entries(next).some(([k, value]) => (config[k] ?? "") !== (value ?? ""));
    if (changed) {
      const credential = await testedCredential(c, integration, { ...v, ...next, permission_type: permission, credential_id: v.credential_id ?? credentialId ?? undefined }).catch(
        (error: unknown) => {
          throw error instanceof ApiError && error.message === M.notTested ? new ApiError(400, M.reauthenticate) : error;
        },
      );
      credentialId = credential.id;
      config = { ...config, ...next, service_account_email: credential.metadata.service_account_email ?? config.service_account_email };
    }
  }
  const updated = await updateDestinationRow(c.var.services.db, c.var.user.id, existing.id, { name: v.name, description: v.description ?? "", config, credentialId });
  if (!updated) throw new ApiError(404, M.notFound);
  return c.json({ status: "success", message: "Destination updated", destination: updated });
});

destinationsRoutes.delete("/destinations/delete/:id", async (c) => {
  const result = await deleteDestination(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (result.deleted) return c.json({ status: "success", message: "Destination deleted" });
  if (result.reason === "missing") throw new ApiError(404, M.notFound);
  const names = result.connectors.map((x) => `"${x.name}"`).join(", ");
  const one = result.connectors.length === 1;
  throw new ApiError(
    409,
    `This destination is used by the connector${one ? "" : "s"} ${names}. Remove it from ${one ? "that connector" : "those connectors"} (or delete ${one ? "it" : "them"}) first.`,
  );
});
