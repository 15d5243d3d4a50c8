import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { PublicApiEnv } from "./env.js";
import { jsonBody } from "../lib/requests.js";
import { invalid } from "../services/errors.js";
import { createSource, deleteSource, getSource, updateSource } from "../services/sources.js";
import { createDestination, deleteDestination, getDestination, updateDestination } from "../services/destinations.js";
import { listDestinations, listSources } from "../db/lists.js";
import { sourcePlugin } from "../integrations/sources/index.js";
import type { SetupContext } from "../integrations/sources/plugin.js";
import { sourceSchema, updateSourceBodySchema } from "../../contract/sources.js";
import { destinationSchema, updateDestinationSchema } from "../../contract/destinations.js";
import { API_MESSAGES, apiCreateSourceBodySchema, cursorQuerySchema, idParamsSchema, pageSchema } from "../../contract/api.js";
import { presentSource } from "../present/sources.js";
import { presentDestination } from "../present/destinations.js";
import { apiRoute, idempotencyHeaders, json, jsonRequest } from "./spec.js";
import { listPage } from "./paging.js";

type App = OpenAPIHono<PublicApiEnv>;
const deleted = json(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.");

/**
 * A source of an integration whose only setup call is its callback (the data generator: no account anywhere) gets its
 * credential made here, as the app's Authenticate button does; any other integration needs a credential made in the app.
 */
async function credentialFor(c: { var: PublicApiEnv["Variables"] }, raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (typeof raw.credentialId === "string" && raw.credentialId) return raw;
  const plugin = sourcePlugin(typeof raw.integration_name === "string" ? raw.integration_name : "");
  if (!plugin) return raw;
  const calls = Object.keys(plugin.setup);
  if (calls.length !== 1 || calls[0] !== "callback") throw invalid(API_MESSAGES.credentialRequired);
  const { services, actor } = c.var;
  const context: SetupContext = {
    services,
    userId: actor.ownerId,
    redirectUri: new URL(`/sources/add/${plugin.manifest.name}`, services.config.APP_URL).toString(),
    body: async () => ({}),
    ownedCredential: () => Promise.reject(invalid(API_MESSAGES.credentialRequired)),
    connectionTest: (work) => work(),
  };
  const answer = (await plugin.setup.callback!.run(context)) as { credential_id: string };
  return { ...raw, credentialId: answer.credential_id };
}

export function addSourceRoutes(app: App) {
  const tags = ["Sources"];
  app.openapi(
    apiRoute({ method: "get", path: "/sources", operationId: "listSources", tags, summary: "List sources", request: { query: cursorQuerySchema }, responses: { 200: json(pageSchema(sourceSchema), "A page of sources, newest first.") } }),
    async (c) => c.json(await listPage(c.var.services.db, c.var.actor.ownerId, "sources", listSources, presentSource, c.req.valid("query")), 200),
  );
  app.openapi(
    apiRoute({ method: "get", path: "/sources/{id}", operationId: "getSource", tags, summary: "Read a source", request: { params: idParamsSchema }, responses: { 200: json(sourceSchema, "The source.") } }),
    async (c) => c.json(presentSource(await getSource(c.var.services, c.var.actor, c.req.valid("param").id)), 200),
  );
  app.openapi(
    apiRoute({
      method: "post",
      path: "/sources",
      operationId: "createSource",
      tags,
      summary: "Create a source",
      description: "A data generator source needs no credentialId; any other integration needs a credential authenticated in the app.",
      request: { headers: idempotencyHeaders, body: jsonRequest(apiCreateSourceBodySchema) },
      responses: { 201: json(sourceSchema, "The source, created.") },
    }),
    async (c) => {
      const raw = await jsonBody(c);
      const body = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
      return c.json(presentSource(await createSource(c.var.services, c.var.actor, await credentialFor(c, body))), 201);
    },
  );
  app.openapi(
    apiRoute({ method: "patch", path: "/sources/{id}", operationId: "updateSource", tags, summary: "Rename a source", request: { params: idParamsSchema, body: jsonRequest(updateSourceBodySchema) }, responses: { 200: json(sourceSchema, "The source, updated.") } }),
    async (c) => c.json(presentSource(await updateSource(c.var.services, c.var.actor, c.req.valid("param").id, await jsonBody(c))), 200),
  );
  app.openapi(
    apiRoute({ method: "delete", path: "/sources/{id}", operationId: "deleteSource", tags, summary: "Delete a source (409 while connectors use it)", request: { params: idParamsSchema }, responses: { 200: deleted } }),
    async (c) => {
      const { id } = c.req.valid("param");
      await deleteSource(c.var.services, c.var.actor, id);
      return c.json({ id, deleted: true as const }, 200);
    },
  );
}

export function addDestinationRoutes(app: App) {
  const tags = ["Destinations"];
  app.openapi(
    apiRoute({ method: "get", path: "/destinations", operationId: "listDestinations", tags, summary: "List destinations", request: { query: cursorQuerySchema }, responses: { 200: json(pageSchema(destinationSchema), "A page of destinations, newest first.") } }),
    async (c) => c.json(await listPage(c.var.services.db, c.var.actor.ownerId, "destinations", listDestinations, presentDestination, c.req.valid("query")), 200),
  );
  app.openapi(
    apiRoute({ method: "get", path: "/destinations/{id}", operationId: "getDestination", tags, summary: "Read a destination", request: { params: idParamsSchema }, responses: { 200: json(destinationSchema, "The destination.") } }),
    async (c) => c.json(presentDestination(await getDestination(c.var.services, c.var.actor, c.req.valid("param").id)), 200),
  );
  app.openapi(
    apiRoute({
      method: "post",
      path: "/destinations",
      operationId: "createDestination",
      tags,
      summary: "Create a destination",
      description:
        "The body of the app's POST /destinations/create: name, description, integration_name and the integration's settings. A local destination needs no connection test; a cloud one needs the credential_id and validation_token of a successful test made in the app.",
      request: { headers: idempotencyHeaders, body: jsonRequest(z.object({ name: z.string().optional(), description: z.string().optional(), integration_name: z.string().optional() }).passthrough()) },
      responses: { 201: json(destinationSchema, "The destination, created.") },
    }),
    async (c) => c.json(presentDestination(await createDestination(c.var.services, c.var.actor, await jsonBody(c))), 201),
  );
  app.openapi(
    apiRoute({ method: "patch", path: "/destinations/{id}", operationId: "updateDestination", tags, summary: "Update a destination", request: { params: idParamsSchema, body: jsonRequest(updateDestinationSchema) }, responses: { 200: json(destinationSchema, "The destination, updated.") } }),
    async (c) => c.json(presentDestination(await updateDestination(c.var.services, c.var.actor, c.req.valid("param").id, await jsonBody(c))), 200),
  );
  app.openapi(
    apiRoute({ method: "delete", path: "/destinations/{id}", operationId: "deleteDestination", tags, summary: "Delete a destination (409 while connectors use it)", request: { params: idParamsSchema }, responses: { 200: deleted } }),
    async (c) => {
      const { id } = c.req.valid("param");
      await deleteDestination(c.var.services, c.var.actor, id);
      return c.json({ id, deleted: true as const }, 200);
    },
  );
}
