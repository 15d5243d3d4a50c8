import { OpenAPIHono } from "@hono/zod-openapi";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { PublicApiEnv } from "./env.js";
import type { Services } from "../services/deps.js";
import { withSecretScope } from "../lib/redact.js";
import { answerError, errorBody } from "./errors.js";
import { bearerAuth, idempotency, rateLimit, scopeCheck } from "./middleware.js";
import { addDestinationRoutes, addSourceRoutes } from "./records.js";
import { addConnectorRoutes, addTransformRoutes } from "./pipelines.js";
import { docsRoutes } from "./docs.js";
import { API_MESSAGES } from "../../contract/api.js";

export const API_VERSION_PATH = "/api/v1";
/** Every body of the public API is a small JSON record (the app's calls take the same 64 KB)... */
const BODY_LIMIT = 64 * 1024;
/** ...but a transform's inputs (keyword lists, trackers), as the app's /transforms/create. */
const TRANSFORM_BODY_LIMIT = 512 * 1024;
const tooLarge = (maxSize: number) =>
  bodyLimit({ maxSize, onError: (c) => c.json(errorBody("payload_too_large", `The request body is too large: at most ${maxSize / 1024} KB is accepted here.`), 413) });
export const OPENAPI_PATH = "/openapi.json";

/** The routes of /api/v1, each with its zod schemas: the OpenAPI document is made from them (no hand-written document). */
export function createApiV1(services: Services) {
  const v1 = new OpenAPIHono<PublicApiEnv>({
    // A request the route's schemas refuse: the first problem, with the contract's message, in the one error shape.
    defaultHook: (result, c) => {
      if (result.success) return;
      const issue = result.error.issues[0]!;
      return c.json(errorBody("invalid_request", issue.message, issue.path.join(".") || undefined), 400);
    },
  });
  v1.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", description: "An API key made on the settings page (Settings → API keys)." });
  v1.onError((error, c) => answerError(error, c));
  v1.notFound((c) => c.json(errorBody("not_found", API_MESSAGES.noRoute(c.req.method, c.req.path)), 404));
  v1.use(async (c, next) => {
    c.set("services", services);
    await withSecretScope(next);
  });
  const [small, transforms] = [tooLarge(BODY_LIMIT), tooLarge(TRANSFORM_BODY_LIMIT)];
  v1.use((c, next) => (c.req.method === "POST" && c.req.path === `${API_VERSION_PATH}/transforms` ? transforms : small)(c, next));
  // The document itself is public: a client is generated from it before it has a key.
  v1.get(OPENAPI_PATH, (c) => c.json(openApiDocument(v1, services.config.APP_URL)));
  v1.use(bearerAuth(services), rateLimit(services), scopeCheck, idempotency);
  addSourceRoutes(v1);
  addDestinationRoutes(v1);
  addConnectorRoutes(v1);
  addTransformRoutes(v1);
  return v1;
}

export function openApiDocument(v1: OpenAPIHono<PublicApiEnv>, appUrl: string) {
  return v1.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Tributary API",
      version: "1",
      description:
        "Sources, destinations, connectors, transforms, their runs and schedules, as the app shows them. Authenticate with `Authorization: Bearer <key>` (a key from the settings page). Errors are `{ error: { code, message } }`; lists page with `limit` and `cursor`; a POST with an `Idempotency-Key` is done once.",
    },
    servers: [{ url: new URL(API_VERSION_PATH, appUrl).toString() }],
  });
}

/** /api/v1/* (the public API) and /api/docs (its reference page): forwarded by the web server from <APP_URL>/api/. */
export function createPublicApi(services: Services) {
  const api = new Hono<PublicApiEnv>();
  api.route(API_VERSION_PATH, createApiV1(services));
  api.route("/api", docsRoutes);
  api.notFound((c) => c.json(errorBody("not_found", API_MESSAGES.noRoute(c.req.method, c.req.path)), 404));
  api.onError((error, c) => answerError(error, c));
  return api;
}
