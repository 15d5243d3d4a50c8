import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError, type ApiEnv, type Services } from "./context.js";
import { authRoutes } from "./auth.js";
import { sourceIntegrationRoutes } from "./source-integrations.js";
import { sourcesRoutes } from "./sources.js";
import { destinationsRoutes } from "./destinations.js";
import { destinationIntegrationsRoutes } from "./destination-integrations.js";
import { connectorsRoutes } from "./connectors.js";
import { transformsRoutes } from "./transforms.js";
import { templatesRoutes } from "./templates.js";

/** The HTTP API of spec §7, call for call. Every answer is JSON; every failure has a `message`. */
export function createApi(services: Services) {
  const app = new Hono<ApiEnv>();
  app.use(async (c, next) => {
    c.set("services", services);
    await next();
  });
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.route("/", authRoutes);
  app.route("/", sourcesRoutes);
  app.route("/", sourceIntegrationRoutes);
  app.route("/", destinationsRoutes);
  app.route("/", destinationIntegrationsRoutes);
  app.route("/", connectorsRoutes);
  app.route("/", transformsRoutes);
  app.route("/", templatesRoutes);
  app.notFound((c) => c.json({ message: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404));
  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json({ message: error.message }, error.status);
    if (error instanceof HTTPException) return c.json({ message: error.message || "Bad request" }, error.status);
    services.log.error({ err: error, path: c.req.path }, "unhandled error");
    return c.json({ message: "Something went wrong on our side. Please try again." }, 500);
  });
  return app;
}
