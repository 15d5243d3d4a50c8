import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { type ApiEnv } from "./context.js";
import { ApiError, JSON_ONLY_MESSAGE, sendsNonJson, STATUS_OF_KIND } from "../lib/requests.js";
import { ServiceError } from "../services/errors.js";
import { ConnectionTestError } from "../integrations/destinations/plugin.js";
import type { Services } from "../services/deps.js";
import { authRoutes } from "./auth.js";
import { sourceIntegrationRoutes } from "./source-integrations.js";
import { sourcesRoutes } from "./sources.js";
import { destinationsRoutes } from "./destinations.js";
import { destinationIntegrationsRoutes } from "./destination-integrations.js";
import { connectorsRoutes } from "./connectors.js";
import { transformsRoutes } from "./transforms.js";
import { templatesRoutes } from "./templates.js";
import { alertsRoutes, emailConfirmationRoutes } from "./alerts.js";
import { runsRoutes } from "./runs.js";
import { apiKeysRoutes } from "./api-keys.js";
import { activityRoutes } from "./activity.js";
import { openRecordsOfTheirWorkspaces, workspacesRoutes } from "./workspaces.js";
import { redactValues, withSecretScope } from "../lib/redact.js";
import { responseCheck } from "./response-check.js";

const KB = 1024;
/** Every body the API takes is a small JSON form; this covers the largest of them many times over. */
export const DEFAULT_BODY_LIMIT = 64 * KB;
/**
 * Routes that may take more: a transform's inputs (keyword lists, trackers) and the preview of the same inputs.
 * Checked in order, first match wins; everything else gets DEFAULT_BODY_LIMIT.
 */
export const BODY_LIMITS: readonly (readonly [RegExp, number])[] = [
  [/^\/transforms\/(create|validate-draft)$/, 512 * KB],
  [/^\/templates\/[^/]+\/preview$/, 512 * KB],
];

export const TOO_LARGE_MESSAGE = (limit: number) => `The request body is too large: at most ${Math.round(limit / KB)} KB is accepted here.`;
export const CROSS_SITE_MESSAGE = "Cross-site requests are not accepted. Use Tributary's own pages.";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Writes come only from the web server (it calls from Node: no Origin, no Sec-Fetch-Site), never from a page in a
 * browser: a request a browser marks as cross-site or same-site, or whose Origin is not the app's own, is refused
 * whatever it carries, so neither a <form> nor a no-cors fetch from another origin can change anything, body or no
 * body. A body must be exactly application/json; without a Content-Type there must be no body at all.
 */
function writeGuard(appOrigin: string): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method)) return next();
    const site = c.req.header("sec-fetch-site")?.toLowerCase();
    const origin = c.req.header("origin");
    if (site === "cross-site" || site === "same-site" || (origin !== undefined && origin !== appOrigin)) {
      return c.json({ message: CROSS_SITE_MESSAGE }, 403);
    }
    if (sendsNonJson((name) => c.req.header(name))) return c.json({ message: JSON_ONLY_MESSAGE }, 415);
    return next();
  };
}

/** Bodies a little over a limit are still read (and dropped) before the 413, so that the client sees the answer. */
const DISCARD_BEFORE_413 = 1024 * KB;

/**
 * Reads and drops what is left of a request body, at most `max` bytes. A client still sending when the answer comes
 * back has its connection cut (and sees no answer) once the server stops waiting for the rest of the body.
 */
async function discardUnread(request: Request, max = Infinity): Promise<void> {
  if (!request.body || request.bodyUsed || request.body.locked) return;
  const reader = request.body.getReader();
  try {
    for (let size = 0; size <= max; ) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
    }
  } catch {
    // A broken upload: nothing more to read.
  } finally {
    reader.releaseLock();
  }
}

/** Answers are sent only once the (size-capped) body has been read, whether or not the route read it. */
const finishBody: MiddlewareHandler<ApiEnv> = async (c, next) => {
  await next();
  await discardUnread(c.req.raw);
};

/** Caps every body before it is read: a declared length over the cap is refused unbuffered, a streamed one when it passes the cap. */
function bodyLimits(): MiddlewareHandler<ApiEnv> {
  const limiter = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: async (c) => {
        await discardUnread(c.req.raw, DISCARD_BEFORE_413);
        return c.json({ message: TOO_LARGE_MESSAGE(maxSize) }, 413);
      },
    });
  const routes = BODY_LIMITS.map(([pattern, size]) => [pattern, limiter(size)] as const);
  const fallback = limiter(DEFAULT_BODY_LIMIT);
  return (c, next) => (routes.find(([pattern]) => pattern.test(c.req.path))?.[1] ?? fallback)(c, next);
}

/** Postgres refusing a value it cannot store (NUL, a broken escape): the request's fault, whatever slipped past validation. */
const UNSTORABLE_VALUE_CODES = new Set(["22021", "22P05", "22P02", "54000"]);

function databaseCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * The session backend: the HTTP API of spec §7, call for call, that the web server calls for a signed-in user. Every
 * answer is JSON; every failure has a `message`. The public API (backend/api/) is its own app beside it (backend/server.ts).
 */
export function createApi(services: Services) {
  const app = new Hono<ApiEnv>();
  // Each request holds its own secrets in play (backend/lib/redact.ts): what it opens or is sent for a connection
  // test is taken out of its answer and its log lines.
  if (services.config.CHECK_RESPONSES) app.use(responseCheck(services.log));
  app.use((_c, next) => withSecretScope(next));
  app.use(bodyLimits());
  app.use(finishBody);
  app.use(writeGuard(new URL(services.config.APP_URL).origin));
  app.use(async (c, next) => {
    c.set("services", services);
    await next();
  });
  // For a load balancer: /healthz says the process answers (nothing else is asked); /readyz that it should get
  // traffic (not stopping, the database answers, the change feed listens).
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const reason = await c.var.services.unready();
    return reason ? c.json({ status: "unavailable", message: reason }, 503) : c.json({ status: "ready" });
  });
  app.use(openRecordsOfTheirWorkspaces(app));
  app.route("/", authRoutes);
  app.route("/", sourcesRoutes);
  app.route("/", sourceIntegrationRoutes);
  app.route("/", destinationsRoutes);
  app.route("/", destinationIntegrationsRoutes);
  app.route("/", connectorsRoutes);
  app.route("/", transformsRoutes);
  app.route("/", templatesRoutes);
  app.route("/", alertsRoutes);
  app.route("/", emailConfirmationRoutes);
  app.route("/", runsRoutes);
  app.route("/", apiKeysRoutes);
  app.route("/", activityRoutes);
  app.route("/", workspacesRoutes);
  app.notFound((c) => c.json({ message: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404));
  app.onError((error, c) => {
    if (error instanceof ServiceError) return c.json({ message: redactValues(error.message), ...(error.field ? { field: error.field } : {}) }, STATUS_OF_KIND[error.kind]);
    if (error instanceof ApiError || error instanceof ConnectionTestError) return c.json({ message: redactValues(error.message) }, error.status);
    if (error instanceof HTTPException) return c.json({ message: error.message || "Bad request" }, error.status);
    const code = databaseCode(error);
    if (code && UNSTORABLE_VALUE_CODES.has(code)) {
      services.log.warn({ err: error, path: c.req.path }, "value refused by the database");
      const message =
        code === "54000"
          ? "A value in the request is too long to store. Please shorten it and try again."
          : "The request contains text that cannot be stored (control characters or broken Unicode). Please remove them and try again.";
      return c.json({ message }, 400);
    }
    services.log.error({ err: error, path: c.req.path }, "unhandled error");
    return c.json({ message: "Something went wrong on our side. Please try again." }, 500);
  });
  return app;
}
