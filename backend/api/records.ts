import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../http/context.js";
import { ApiError, jsonBody, parse } from "../http/context.js";
import { createSourceFor, deleteSourceFor } from "../http/sources.js";
import { createDestinationFor, deleteDestinationFor, updateDestinationFor } from "../http/destinations.js";
import { findSource, updateSource } from "../db/sources.js";
import { findDestination } from "../db/destinations.js";
import { listDestinations, listSources } from "../db/lists.js";
import { sourcePlugin } from "../integrations/sources/index.js";
import type { SetupContext } from "../integrations/sources/plugin.js";
import { sourceSchema, SOURCE_MESSAGES, updateSourceBodySchema } from "../../contract/sources.js";
import { destinationSchema, DESTINATION_MESSAGES, updateDestinationSchema } from "../../contract/destinations.js";
import { API_MESSAGES, apiCreateSourceBodySchema, cursorQuerySchema, idParamsSchema, pageSchema } from "../../contract/api.js";
import { presentSource } from "../http/present/sources.js";
import { presentDestination } from "../http/present/destinations.js";
import { apiRoute, idempotencyHeaders, json, jsonRequest } from "./spec.js";
import { listPage } from "./paging.js";

type App = OpenAPIHono<ApiEnv>;
const deleted = json(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.");

/**
 * A source of an integration whose only setup call is its callback (the data generator: no account anywhere) gets its
 * credential made here, as the app's Authenticate button does; any other integration needs a credential made in the app.
 */
async function credentialFor(c: { var: ApiEnv["Variables"] }, raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (typeof raw.credentialId === "string" && raw.credentialId) return raw;
  const plugin = sourcePlugin(typeof raw.integration_name === "string" ? raw.integration_name : "");
  if (!plugin) return raw;
  const calls = Object.keys(plugin.setup);
  if (calls.length !== 1 || calls[0] !== "callback") throw new ApiError(400, API_MESSAGES.credentialRequired);
  const { services, user } = c.var;
  const context: SetupContext = {
    services,
    userId: user.id,
    redirectUri: new URL(`/sources/add/${plugin.manifest.name}`, services.config.APP_URL).toString(),
    body: async () => ({}),
    ownedCredential: () => Promise.reject(new ApiError(400, API_MESSAGES.credentialRequired)),
    connectionTest: (work) => work(),
  };
  const answer = (await plugin.setup.callback!.run(context)) as { credential_id: string };
  return { ...raw, credentialId: answer.credential_id };
}

export function addSourceRoutes(app: App) {
  const tags = ["Sources"];
  app.openapi(
    apiRoute({ method: "get", path: "/sources", operationId: "listSources", tags, summary: "List sources", request: { query: cursorQuerySchema }, responses: { 200: json(pageSchema(sourceSchema), "A page of sources, newest first.") } }),
    async (c) => c.json(await listPage(c.var.services.db, c.var.user.id, "sources", listSources, presentSource, c.req.valid("query")), 200),
  );
  app.openapi(
    apiRoute({ method: "get", path: "/sources/{id}", operationId: "getSource", tags, summary: "Read a source", request: { params: idParamsSchema }, responses: { 200: json(sourceSchema, "The source.") } }),
    async (c) => {
      const source = await findSource(c.var.services.db, c.var.user.id, c.req.valid("param").id);
      if (!source) throw new ApiError(404, SOURCE_MESSAGES.notFound);
      return c.json(presentSource(source), 200);
    },
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
      return c.json(presentSource(await createSourceFor(c, await credentialFor(c, body))), 201);
    },
  );
  app.openapi(
    apiRoute({ method: "patch", path: "/sources/{id}", operationId: "updateSource", tags, summary: "Rename a source", request: { params: idParamsSchema, body: jsonRequest(updateSourceBodySchema) }, responses: { 200: json(sourceSchema, "The source, updated.") } }),
    async (c) => {
      const body = parse(updateSourceBodySchema, await jsonBody(c));
      const source = await updateSource(c.var.services.db, c.var.user.id, c.req.valid("param").id, body);
      if (!source) throw new ApiError(404, SOURCE_MESSAGES.notFound);
      return c.json(presentSource(source), 200);
    },
  );
  app.openapi(
    apiRoute({ method: "delete", path: "/sources/{id}", operationId: "deleteSource", tags, summary: "Delete a source (409 while connectors use it)", request: { params: idParamsSchema }, responses: { 200: deleted } }),
    async (c) => {
      const { id } = c.req.valid("param");
      await deleteSourceFor(c, id);
      return c.json({ id, deleted: true as const }, 200);
    },
  );
}

export function addDestinationRoutes(app: App) {
  const tags = ["Destinations"];
  app.openapi(
    apiRoute({ method: "get", path: "/destinations", operationId: "listDestinations", tags, summary: "List destinations", request: { query: cursorQuerySchema }, responses: { 200: json(pageSchema(destinationSchema), "A page of destinations, newest first.") } }),
    async (c) => c.json(await listPage(c.var.services.db, c.var.user.id, "destinations", listDestinations, presentDestination, c.req.valid("query")), 200),
  );
  app.openapi(
    apiRoute({ method: "get", path: "/destinations/{id}", operationId: "getDestination", tags, summary: "Read a destination", request: { params: idParamsSchema }, responses: { 200: json(destinationSchema, "The destination.") } }),
    async (c) => {
      const destination = await findDestination(c.var.services.db, c.var.user.id, c.req.valid("param").id);
      if (!destination) throw new ApiError(404, DESTINATION_MESSAGES.notFound);
      return c.json(presentDestination(destination), 200);
    },
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
    async (c) => c.json(presentDestination(await createDestinationFor(c, await jsonBody(c))), 201),
  );
  app.openapi(
    apiRoute({ method: "patch", path: "/destinations/{id}", operationId: "updateDestination", tags, summary: "Update a destination", request: { params: idParamsSchema, body: jsonRequest(updateDestinationSchema) }, responses: { 200: json(destinationSchema, "The destination, updated.") } }),
    async (c) => {
      const existing = await findDestination(c.var.services.db, c.var.user.id, c.req.valid("param").id);
      if (!existing) throw new ApiError(404, DESTINATION_MESSAGES.notFound);
      return c.json(presentDestination(await updateDestinationFor(c, existing, await jsonBody(c))), 200);
    },
  );
  app.openapi(
    apiRoute({ method: "delete", path: "/destinations/{id}", operationId: "deleteDestination", tags, summary: "Delete a destination (409 while connectors use it)", request: { params: idParamsSchema }, responses: { 200: deleted } }),
    async (c) => {
      const { id } = c.req.valid("param");
      await deleteDestinationFor(c, id);
      return c.json({ id, deleted: true as const }, 200);
    },
  );
}
