import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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
const thing = z.object({ id: z.string(), name: z.string() });

describe("callBackend", () => {
  it("sends the browser's cookie and the JSON body, and answers the body checked against its schema", async () => {
    const { callBackend } = await import("~/services/backend.server");
    answer = { status: 200, body: JSON.stringify({ id: "1", name: "Demo", extra: true }) };
    const outcome = await callBackend(browser("/sources"), "/sources/create", { method: "POST", json: { name: "Demo" }, schema: thing }, "Failed");
    expect(outcome).toEqual({ ok: true, data: { id: "1", name: "Demo" } });
    expect(seen).toMatchObject({ method: "POST", url: "/sources/create", cookie: "tributary_session=abc", body: '{"name":"Demo"}' });
  });

  it("an answer that does not match the contract is a failure with the call's own message", async () => {
    const { callBackend } = await import("~/services/backend.server");
    answer = { status: 200, body: JSON.stringify({ id: 1 }) };
    expect(await callBackend(browser("/sources"), "/sources/list-by-id/1", { schema: thing }, "Failed to fetch source")).toEqual({ ok: false, status: 502, message: "Failed to fetch source" });
  });

  it("an error answer gives the backend's message, or the call's own when it has none", async () => {
    const { callBackend } = await import("~/services/backend.server");
    answer = { status: 409, body: JSON.stringify({ message: "Used by 2 connectors: A, B" }) };
    expect(await callBackend(browser("/sources"), "/sources/delete/1", { method: "DELETE" }, "Failed to delete source")).toEqual({ ok: false, status: 409, message: "Used by 2 connectors: A, B" });
    answer = { status: 500, body: "oops" };
    expect(await callBackend(browser("/sources"), "/sources/delete/1", { method: "DELETE" }, "Failed to delete source")).toEqual({ ok: false, status: 500, message: "Failed to delete source" });
  });

  it("a 401 ends the session: the user is forgotten and sent to sign in, the page remembered", async () => {
    const { callBackend } = await import("~/services/backend.server");
    const { getSession, sessionStorage } = await import("~/services/session.server");
    const signedIn = await getSession(browser("/"));
    signedIn.set("user_info", { name: "Grace Hopper", email: "grace@example.com" } as never);
    const cookie = (await sessionStorage().commitSession(signedIn)).split(";")[0]!;
    answer = { status: 401, body: JSON.stringify({ message: "User not authenticated" }) };
    const request = new Request("http://localhost:3000/destinations/details/1?delete=1", { headers: { cookie } });
    const thrown = await callBackend(request, "/destinations/list-by-id/1").catch((e: unknown) => e);
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
      expect(await callBackend(browser("/sources"), "/sources/list-all", {}, "Failed to fetch sources")).toEqual({ ok: false, status: 503, message: "Failed to fetch sources" });
    } finally {
      Object.assign(config, { backendUrl: url });
    }
  });
});
