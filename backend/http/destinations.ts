import { randomUUID } from "node:crypto";
import { Hono } from "hono";
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
  type DestinationRecord,
} from "../db/destinations.js";
import { createDestinationSchema, DESTINATION_MESSAGES as M, updateDestinationSchema } from "../../contract/destinations.js";
import { destinationPlugin, pluginOf } from "../integrations/destinations/registry.js";
import type { DestinationPlugin } from "../integrations/destinations/plugin.js";
import { answer } from "./destination-integrations.js";
import { validationTokens } from "../integrations/destinations/tokens.js";
import { presentDestination } from "./present/destinations.js";

export const destinationsRoutes = new Hono<ApiEnv>();
destinationsRoutes.use("/destinations/*", requireSession);

destinationsRoutes.get("/destinations/list", listHandler("destinations", listDestinations, presentDestination));

destinationsRoutes.get("/destinations/list-all", async (c) => c.json((await listAllDestinations(c.var.services.db, c.var.user.id)).map((d) => presentDestination(d))));

destinationsRoutes.get("/destinations/list-by-id/:id", async (c) => {
  const destination = await findDestination(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (!destination) throw new ApiError(404, M.notFound);
  return c.json(presentDestination(destination));
});

/**
 * The credential of a successful test over exactly these values, or a 400 with
 * the spec's message: the values must be the ones the signed token covers.
 */
async function testedCredential(c: { var: ApiEnv["Variables"] }, plugin: DestinationPlugin, values: Record<string, unknown>): Promise<CredentialRow> {
  const { db, config, secrets } = c.var.services;
  const integration = plugin.manifest.name;
  const credential = await findCredential(db, c.var.user.id, values.credential_id as string | undefined);
  const tokens = validationTokens(config.TRIBUTARY_SECRET_KEY);
  if (!credential || credential.integrationName !== integration) throw new ApiError(400, M.notTested);
  if (!tokens.verify(values.validation_token as string | undefined, c.var.user.id, integration, credential.id, plugin.boundValues(values))) throw new ApiError(400, M.notTested);
  // A secret sent again must be the one the test sealed.
  const given = plugin.manifest.secretFields.filter((field) => values[field] !== undefined);
  if (given.length > 0) {
    const sealed = credential.secret ? secrets.open<Record<string, unknown>>(credential.secret) : {};
    if (given.some((field) => sealed[field] !== values[field])) throw new ApiError(400, M.notTested);
  }
  return credential;
}

destinationsRoutes.post("/destinations/create", async (c) => {
  const created = await createDestinationFor(c, await jsonBody(c));
  return c.json({ status: "success", message: "Destination created", destination_id: created.id, destination: presentDestination(created) }, 201);
});

/** The rules of POST /destinations/create (and of the public API's POST /api/v1/destinations): the caller's destination, made. */
export async function createDestinationFor(c: { var: ApiEnv["Variables"] }, raw: unknown): Promise<DestinationRecord> {
  const v = parse(createDestinationSchema, raw);
  const plugin = destinationPlugin(v.integration_name);
  if (!plugin) throw new ApiError(400, M.integration);
  const refused = plugin.hidden?.() ?? plugin.unavailable?.()?.reason;
  if (refused) throw new ApiError(400, refused);
  const settings = parse(plugin.manifest.settings, raw) as Record<string, unknown>;
  const ownerId = c.var.user.id;
  const { db } = c.var.services;
  const credential = plugin.manifest.needsConnectionTest ? await testedCredential(c, plugin, { ...v, ...settings }) : null;
  const id = randomUUID();
  const config = await answer(() => plugin.config(settings, { ownerId, services: c.var.services, destinationId: id, credential }));
  return insertDestination(db, ownerId, {
    id,
    name: v.name!,
    description: v.description ?? "",
    integrationName: plugin.manifest.name,
    integrationLabel: plugin.manifest.label,
    category: plugin.manifest.category,
    status: "ACTIVE",
    config,
    credentialId: credential?.id ?? null,
  });
}

destinationsRoutes.put("/destinations/update/:id", async (c) => {
  const existing = await findDestination(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (!existing) throw new ApiError(404, M.notFound);
  const updated = await updateDestinationFor(c, existing, await jsonBody(c));
  return c.json({ status: "success", message: "Destination updated", destination: presentDestination(updated) });
});

/** The rules of PUT /destinations/update/{id} (and the public API's PATCH), once the caller's destination is found. */
export async function updateDestinationFor(c: { var: ApiEnv["Variables"] }, existing: DestinationRecord, raw: unknown): Promise<DestinationRecord> {
  const v = parse(updateDestinationSchema, raw);
  if (!v.name) throw new ApiError(400, M.name);
  const plugin = pluginOf(existing);
  const retest = (values: Record<string, unknown>) =>
    testedCredential(c, plugin, values).catch((error: unknown) => {
      throw error instanceof ApiError && error.message === M.notTested ? new ApiError(400, M.reauthenticate) : error;
    });
  const { config, credentialId } = plugin.update
    ? await answer(() => plugin.update!(existing, v, retest))
    : { config: existing.config, credentialId: existing.credentialId };
  const updated = await updateDestinationRow(c.var.services.db, c.var.user.id, existing.id, { name: v.name, description: v.description ?? "", config, credentialId });
  if (!updated) throw new ApiError(404, M.notFound);
  return updated;
}

destinationsRoutes.delete("/destinations/delete/:id", async (c) => {
  await deleteDestinationFor(c, c.req.param("id"));
  return c.json({ status: "success", message: "Destination deleted" });
});

/** The rules of DELETE /destinations/delete/{id} (and the public API's): 404 when not the caller's, 409 while connectors use it. */
export async function deleteDestinationFor(c: { var: ApiEnv["Variables"] }, id: string): Promise<void> {
  const result = await deleteDestination(c.var.services.db, c.var.user.id, id);
  if (result.deleted) return;
  if (result.reason === "missing") throw new ApiError(404, M.notFound);
  const names = result.connectors.map((x) => `"${x.name}"`).join(", ");
  const one = result.connectors.length === 1;
  throw new ApiError(
    409,
    `This destination is used by the connector${one ? "" : "s"} ${names}. Remove it from ${one ? "that connector" : "those connectors"} (or delete ${one ? "it" : "them"}) first.`,
  );
}
