import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { BACKEND_RESPONSES, BACKEND_STREAMS } from "../../contract/responses.js";
import { createApi } from "../../backend/http/app.js";
import type { ApiEnv } from "../../backend/http/context.js";
import type { Services } from "../../backend/services/deps.js";
import { responseCheck, routeKeyFor } from "../../backend/http/response-check.js";
import { SOURCE_PLUGINS } from "../../backend/integrations/sources/index.js";
import { createLogger } from "../../backend/lib/log.js";

/** The session backend's routes as registered, the /externalauth/<source>/<call> dispatcher expanded into its calls. */
function registeredRoutes(): string[] {
  const app = createApi({ config: { APP_URL: "http://localhost:3999", CHECK_RESPONSES: false } } as Services);
  const keys = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL" || route.path.startsWith("/api/")) continue;
    if (route.path.startsWith("/externalauth/:integration")) {
      for (const plugin of SOURCE_PLUGINS) {
        for (const [name, call] of Object.entries(plugin.setup)) {
          if (call.method === route.method) keys.add(`${call.method} /externalauth/${plugin.manifest.name}/${name}`);
        }
      }
    } else keys.add(`${route.method} ${route.path}`);
  }
  return [...keys].sort();
}

describe("contract/responses.ts", () => {
  it("describes every route the backend answers, and no route it does not", () => {
    const described = [...Object.keys(BACKEND_RESPONSES), ...BACKEND_STREAMS].sort();
    expect(described).toEqual(registeredRoutes());
  });

  it("finds the most literal route for a path", () => {
    expect(routeKeyFor("GET", "/templates/categories")).toBe("GET /templates/categories");
    expect(routeKeyFor("GET", "/templates/topic-modeling")).toBe("GET /templates/:id");
    expect(routeKeyFor("HEAD", "/sources/list-by-id/abc")).toBe("GET /sources/list-by-id/:id");
    expect(routeKeyFor("POST", "/sources/list-by-id/abc")).toBeUndefined();
  });
});

describe("the response check", () => {
  /** A backend of a few routes answering what each test makes them answer, checked as CHECK_RESPONSES checks. */
  function checked(answer: (c: import("hono").Context<ApiEnv>) => Response | Promise<Response>) {
    const app = new Hono<ApiEnv>();
    app.use(responseCheck(createLogger("silent")));
    app.get("/healthz", answer);
    app.get("/not-in-the-table", answer);
    return app;
  }

  it("passes an answer that matches its route's schema", async () => {
    const response = await checked((c) => c.json({ status: "ok" })).request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("turns an answer that does not match into a 500 naming the route and the field, not its value", async () => {
    const response = await checked((c) => c.json({ status: 42, secret: "hunter2" })).request("/healthz");
    expect(response.status).toBe(500);
    const body = (await response.json()) as { message: string };
    expect(body.message).toContain("GET /healthz does not match its schema: status: invalid_type");
    expect(body.message).not.toContain("42");
  });

  it("checks failures against the error shape", async () => {
    const good = await checked((c) => c.json({ message: "Source not found" }, 404)).request("/healthz");
    expect(good.status).toBe(404);
    const bad = await checked((c) => c.json({ error: "nope" }, 404)).request("/healthz");
    expect(bad.status).toBe(500);
    expect(((await bad.json()) as { message: string }).message).toContain("is not the error shape: message: invalid_type");
  });

  it("refuses a 2xx answer from a route the table does not describe", async () => {
    const response = await checked((c) => c.json({ anything: true })).request("/not-in-the-table");
    expect(response.status).toBe(500);
    expect(((await response.json()) as { message: string }).message).toContain("no route of contract/responses.ts matches it");
  });

  it("refuses a JSON route answering something else", async () => {
    const response = await checked((c) => c.text("ok")).request("/healthz");
    expect(response.status).toBe(500);
    expect(((await response.json()) as { message: string }).message).toContain("not JSON");
  });
});
