import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/** The app's one backend client (app/services/backend.server.ts) against a real HTTP server standing in for the backend. */
let server: http.Server;
let answer: { status: number; body?: string } = { status: 200, body: "{}" };
let seen: { method?: string; url?: string; cookie?: string; body: string } = { body: "" };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      seen = { method: req.method, url: req.url, cookie: req.headers.cookie, body };
      res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.BACKEND_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.TRIBUTARY_SECRET_KEY ??= "t".repeat(43);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const browser = (path: string) => new Request(`http://localhost:3000${path}`, { headers: { cookie: "tributary_session=abc" } });
const SOURCE = {
  id: "1",
  name: "Demo",
  description: "",
  type: "datagen",
  integration_id: "datagen",
  integration_name: "datagen",
  integration_label: "Data generator",
  credentialId: "c1",
  status: "active",
  created_at: "2026-01-02T03:04:05.000Z",
  updated_at: null,
  connector_count: 0,
  required_integration_categories: [],
  source_metadata: { company: "Acme" },
};

describe("callBackend", () => {
  it("sends the browser's cookie and the JSON body to the route's method and path, and answers the body its schema read", async () => {
    const { callBackend } = await import("~/services/backend.server");
    answer = { status: 201, body: JSON.stringify({ ...SOURCE, message: "Source updated", extra: true }) };
    const outcome = await callBackend(browser("/sources"), "PUT /sources/update/:id", { params: { id: "a b/c" }, json: { name: "Demo" } }, "Failed");
    expect(outcome).toEqual({ ok: true, data: { ...SOURCE, message: "Source updated" } });
    expect(seen).toMatchObject({ method: "PUT", url: "/sources/update/a%20b%2Fc", cookie: "tributary_session=abc", body: '{"name":"Demo"}' });
  });

  it("appends the query, leaving out what is unset", async () => {
    const { callBackend } = await import("~/services/backend.server");
    answer = { status: 200, body: JSON.stringify({ status: "success", runs: [], failing: null, has_more: false, message: "Runs" }) };
    await callBackend(browser("/connectors"), "GET /connectors/:id/runs", { params: { id: "1" }, query: { before: "r&2", page: undefined } });
    expect(seen).toMatchObject({ method: "GET", url: "/connectors/1/runs?before=r%262" });
  });

  it("an answer that does not match the route's schema is a failure with the call's own message, logged without its values", async () => {
    const { callBackend } = await import("~/services/backend.server");
    answer = { status: 200, body: JSON.stringify({ ...SOURCE, id: 1, name: "hunter2-secret-name", connector_count: "many" }) };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(await callBackend(browser("/sources"), "GET /sources/list-by-id/:id", { params: { id: "1" } }, "Failed to fetch source")).toEqual({
        ok: false,
        status: 502,
        message: "Failed to fetch source",
      });
      expect(warn).toHaveBeenCalledTimes(1);
      const line = String(warn.mock.calls[0]![0]);
      expect(line).toContain("GET /sources/list-by-id/:id");
      expect(line).toContain("id (invalid_type)");
      expect(line).toContain("connector_count (invalid_type)");
      expect(line).not.toContain("many");
    } finally {
      warn.mockRestore();
    }
  });

  it("a body that is not JSON is a failure too", async () => {
    const { callBackend } = await import("~/services/backend.server");
    answer = { status: 200, body: "<html>" };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(await callBackend(browser("/sources"), "GET /sources/list-all", {}, "Failed to fetch sources")).toEqual({ ok: false, status: 502, message: "Failed to fetch sources" });
    } finally {
      warn.mockRestore();
    }
  });

  it("an error answer gives the backend's message, or the call's own when it has none", async () => {
    const { callBackend } = await import("~/services/backend.server");
    answer = { status: 409, body: JSON.stringify({ message: "Used by 2 connectors: A, B" }) };
    expect(await callBackend(browser("/sources"), "DELETE /sources/delete/:id", { params: { id: "1" } }, "Failed to delete source")).toEqual({ ok: false, status: 409, message: "Used by 2 connectors: A, B" });
    expect(seen).toMatchObject({ method: "DELETE", url: "/sources/delete/1" });
    answer = { status: 500, body: "oops" };
    expect(await callBackend(browser("/sources"), "DELETE /sources/delete/:id", { params: { id: "1" } }, "Failed to delete source")).toEqual({ ok: false, status: 500, message: "Failed to delete source" });
  });

  it("a route's :name segments are required, and only a route of the table is called", async () => {
    const { callBackend } = await import("~/services/backend.server");
    const never = () => {
      // @ts-expect-error: the route needs its id.
      void callBackend(browser("/"), "PUT /sources/update/:id");
      // @ts-expect-error: the route's segment is :id, not :source.
      void callBackend(browser("/"), "GET /sources/list-by-id/:id", { params: { source: "1" } });
      // @ts-expect-error: no such route.
      void callBackend(browser("/"), "GET /sources/everything");
    };
    expect(typeof never).toBe("function");
  });

  it("a route named at run time is one of the table's, or none", async () => {
    const { knownRoute } = await import("~/services/backend.server");
    expect(knownRoute(`POST /externalauth/${"postgres"}/test_connection`)).toBe("POST /externalauth/postgres/test_connection");
    expect(knownRoute(`GET /externalauth/${"datagen"}/auth_url`)).toBeNull();
    expect(knownRoute("GET /toString")).toBeNull();
  });

  it("a 401 ends the session: the user is forgotten and sent to sign in, the page remembered", async () => {
    const { callBackend } = await import("~/services/backend.server");
    const { getSession, sessionStorage } = await import("~/services/session.server");
    const signedIn = await getSession(browser("/"));
    signedIn.set("user_info", { name: "Grace Hopper", email: "grace@example.com" } as never);
    const cookie = (await sessionStorage().commitSession(signedIn)).split(";")[0]!;
    answer = { status: 401, body: JSON.stringify({ message: "User not authenticated" }) };
    const request = new Request("http://localhost:3000/destinations/details/1?delete=1", { headers: { cookie } });
    const thrown = await callBackend(request, "GET /destinations/list-by-id/:id", { params: { id: "1" } }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.headers.get("location")).toBe("/?redirectTo=%2Fdestinations%2Fdetails%2F1%3Fdelete%3D1");
    const after = await sessionStorage().getSession(response.headers.get("set-cookie"));
    expect(after.get("user_info")).toBeUndefined();
    expect(after.get("authError")).toBe("Your session has ended. Please sign in again.");
  });

  it("a backend that does not answer is a failure with the call's message, not a thrown error", async () => {
    const { callBackend } = await import("~/services/backend.server");
    const { env } = await import("~/services/env.server");
    const config = env();
    const url = config.backendUrl;
    // A closed port: nothing listens there.
    Object.assign(config, { backendUrl: "http://127.0.0.1:9" });
    try {
      expect(await callBackend(browser("/sources"), "GET /sources/list-all", {}, "Failed to fetch sources")).toEqual({ ok: false, status: 503, message: "Failed to fetch sources" });
    } finally {
      Object.assign(config, { backendUrl: url });
    }
  });
});
