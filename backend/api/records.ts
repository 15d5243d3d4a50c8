import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { PublicApiEnv } from "./env.js";
import { jsonBody } from "../lib/requests.js";
import { invalid } from "../services/errors.js";
import { createSource, deleteSource, getSource, updateSource } from "../services/sources.js";
import { createDestination, deleteDestination, getDestination, updateDestination } from "../services/destinations.js";
import { listDestinations, listSources } from "../db/lists.js";
import { sourcePlugin } from "../integrations/sources/index.js";
import type { SetupContext } from "../integrations/sources/plugin.js";
import { updateSourceBodySchema } from "../../contract/sources.js";
import { API_MESSAGES, cursorQuerySchema, idParamsSchema, pageSchema } from "../../contract/api.js";
import {
  apiCreateDestinationSchema,
  apiCreateSourceSchema,
  apiDestinationSchema,
  apiSourceSchema,
  apiUpdateDestinationSchema,
  readsNoAccount,
  type ApiCreateDestination,
  type ApiCreateSource,
  type ApiUpdateDestination,
} from "./schemas.js";
import { presentApiDestination, presentApiSource } from "./present.js";
import { apiRoute, idempotencyHeaders, json, jsonRequest } from "./spec.js";
import { listPage } from "./paging.js";

type App = OpenAPIHono<PublicApiEnv>;
const deleted = json(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.");

/**
 * The service's input for a source of the API's body. An integration that reads no account (the data generator) gets
 * its credential made here, as the app's Authenticate button does; any other needs a credential made in the app.
 */
async function sourceInput(c: { var: PublicApiEnv["Variables"] }, body: ApiCreateSource): Promise<Record<string, unknown>> {
  const input = { name: body.name, description: body.description, integration_name: body.integration, credentialId: body.credential_id, source_metadata: body.settings ?? {} };
  if (body.credential_id) return input;
  if (!readsNoAccount(body.integration)) throw invalid(API_MESSAGES.credentialRequired, "credential_id");
  const plugin = sourcePlugin(body.integration)!;
  const { services, actor } = c.var;
  const context: SetupContext = {
    services,
    userId: actor.ownerId,
    redirectUri: new URL(`/sources/add/${plugin.manifest.name}`, services.config.APP_URL).toString(),
    body: async () => ({}),
    ownedCredential: () => Promise.reject(invalid(API_MESSAGES.credentialRequired, "credential_id")),
    connectionTest: (work) => work(),
  };
  const answer = (await plugin.setup.callback!.run(context)) as { credential_id: string };
  return { ...input, credentialId: answer.credential_id };
}

/** The service's input (the app's flat body) for a destination of the API's body: its settings beside its name. */
function destinationInput(body: ApiCreateDestination | ApiUpdateDestination, integration?: string): Record<string, unknown> {
  const { settings, ...rest } = body as ApiUpdateDestination & { integration?: string };
  const flat: Record<string, unknown> = { ...(settings ?? {}), ...rest };
  delete flat.integration;
  return integration ? { ...flat, integration_name: integration } : flat;
}

export function addSourceRoutes(app: App) {
  const tags = ["Sources"];
  app.openapi(
    apiRoute({ method: "get", path: "/sources", operationId: "listSources", tags, summary: "List sources", request: { query: cursorQuerySchema }, responses: { 200: json(pageSchema(apiSourceSchema), "A page of sources, newest first.") } }),
    async (c) => c.json(await listPage(c.var.services.db, c.var.actor.ownerId, "sources", listSources, presentApiSource, c.req.valid("query")), 200),
  );
  app.openapi(
    apiRoute({ method: "get", path: "/sources/{id}", operationId: "getSource", tags, summary: "Read a source", request: { params: idParamsSchema }, responses: { 200: json(apiSourceSchema, "The source.") } }),
    async (c) => c.json(presentApiSource(await getSource(c.var.services, c.var.actor, c.req.valid("param").id)), 200),
  );
  app.openapi(
    apiRoute({
      method: "post",
      path: "/sources",
      operationId: "createSource",
      tags,
      summary: "Create a source",
      description: "The body is the integration's variant: its settings are that integration's. A data generator source needs no credential_id; any other integration needs a credential authenticated in the app.",
      request: { headers: idempotencyHeaders, body: jsonRequest(apiCreateSourceSchema) },
      responses: { 201: json(apiSourceSchema, "The source, created.") },
    }),
    async (c) => c.json(presentApiSource(await createSource(c.var.services, c.var.actor, await sourceInput(c, c.req.valid("json")))), 201),
  );
  app.openapi(
    apiRoute({ method: "patch", path: "/sources/{id}", operationId: "updateSource", tags, summary: "Rename a source", request: { params: idParamsSchema, body: jsonRequest(updateSourceBodySchema) }, responses: { 200: json(apiSourceSchema, "The source, updated.") } }),
    async (c) => c.json(presentApiSource(await updateSource(c.var.services, c.var.actor, c.req.valid("param").id, await jsonBody(c))), 200),
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
    apiRoute({ method: "get", path: "/destinations", operationId: "listDestinations", tags, summary: "List destinations", request: { query: cursorQuerySchema }, responses: { 200: json(pageSchema(apiDestinationSchema), "A page of destinations, newest first.") } }),
    async (c) => c.json(await listPage(c.var.services.db, c.var.actor.ownerId, "destinations", listDestinations, presentApiDestination, c.req.valid("query")), 200),
  );
  app.openapi(
    apiRoute({ method: "get", path: "/destinations/{id}", operationId: "getDestination", tags, summary: "Read a destination", request: { params: idParamsSchema }, responses: { 200: json(apiDestinationSchema, "The destination.") } }),
    async (c) => c.json(presentApiDestination(await getDestination(c.var.services, c.var.actor, c.req.valid("param").id)), 200),
  );
  app.openapi(
    apiRoute({
      method: "post",
      path: "/destinations",
      operationId: "createDestination",
      tags,
      summary: "Create a destination",
      description:
        "The body is the integration's variant: its settings are that integration's. A local destination needs no connection test; a cloud one needs the credential_id and validation_token of a successful test made in the app over the same settings.",
      request: { headers: idempotencyHeaders, body: jsonRequest(apiCreateDestinationSchema) },
      responses: { 201: json(apiDestinationSchema, "The destination, created.") },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return c.json(presentApiDestination(await createDestination(c.var.services, c.var.actor, destinationInput(body, body.integration))), 201);
    },
  );
  app.openapi(
    apiRoute({ method: "patch", path: "/destinations/{id}", operationId: "updateDestination", tags, summary: "Update a destination", request: { params: idParamsSchema, body: jsonRequest(apiUpdateDestinationSchema) }, responses: { 200: json(apiDestinationSchema, "The destination, updated.") } }),
    async (c) => c.json(presentApiDestination(await updateDestination(c.var.services, c.var.actor, c.req.valid("param").id, destinationInput(c.req.valid("json")))), 200),
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
