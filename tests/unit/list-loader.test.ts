import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** The app's list loader against a real HTTP server standing in for a failing or working backend. */
const AT = "2026-01-02T03:04:05.000Z";
/** Rows as the backend's list calls answer them (contract/responses.ts checks them). */
const SOURCE = {
  id: "1",
  name: "x",
  description: "",
  type: "datagen",
  integration_id: "datagen",
  integration_name: "datagen",
  integration_label: "Data generator",
  credentialId: null,
  status: "active",
  created_at: AT,
  updated_at: null,
  connector_count: 0,
  required_integration_categories: [],
  source_metadata: {},
};
const CONNECTOR = {
  id: "1",
  name: "x",
  description: "",
  source_id: "2",
  source_name: "y",
  destination_ids: [],
  destinations: [],
  frequency: "daily",
  lookback_days: 1,
  last_synced_at: null,
  created_at: AT,
  updated_at: null,
};
let server: http.Server;
let mode: "ok" | "wrong" | "fail" | "unauthorized" = "ok";
let seenCookie: string | undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seenCookie = req.headers.cookie;
    if (mode === "fail") return void res.writeHead(500, { "content-type": "application/json" }).end('{"message":"boom"}');
    if (mode === "unauthorized") return void res.writeHead(401, { "content-type": "application/json" }).end('{"message":"User not authenticated"}');
    const row = mode === "wrong" ? { id: "1", name: "x" } : req.url?.startsWith("/connectors/") ? CONNECTOR : SOURCE;
    res.writeHead(200, { "content-type": "application/json", "x-total-count": "120", "x-data-version": "boot.7" }).end(JSON.stringify([row]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.BACKEND_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.TRIBUTARY_SECRET_KEY ??= "t".repeat(43);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = (path: string) => ({
  request: new Request(`http://localhost:3000${path}`, { headers: { cookie: "tributary_session=abc" } }),
  context: { pageCache: { version: null as string | null } },
});

describe("loadListPage", () => {
  it("returns the page, the total, and forwards the browser's cookie", async () => {
    const { loadListPage } = await import("~/services/lists.server");
    mode = "ok";
    const args = request("/connectors?page=2");
    const page = await loadListPage(args, "connectors", "Failed to fetch connectors");
    expect(page).toMatchObject({ page: 2, total: 120, pageSize: 50, error: null });
    expect(seenCookie).toBe("tributary_session=abc");
    // The page may be kept by the web server's cache, under the data version its data was read with.
    expect(args.context.pageCache.version).toBe("boot.7");
  });
  it("turns an answer that does not match contract/responses.ts into the spec's message", async () => {
    const { loadListPage } = await import("~/services/lists.server");
    mode = "wrong";
    const args = request("/connectors");
    const page = await loadListPage(args, "connectors", "Failed to fetch connectors");
    expect(page).toMatchObject({ rows: [], error: "Failed to fetch connectors" });
    expect(args.context.pageCache.version).toBeNull();
  });
  it("turns a backend failure into the spec's message", async () => {
    const { loadListPage } = await import("~/services/lists.server");
    mode = "fail";
    const args = request("/connectors");
    const page = await loadListPage(args, "connectors", "Failed to fetch connectors");
    expect(page.error).toBe("Failed to fetch connectors");
    // An error block is never kept.
    expect(args.context.pageCache.version).toBeNull();
  });
  it("sends a user whose session ended to sign-in, remembering the page", async () => {
    const { loadListPage } = await import("~/services/lists.server");
    mode = "unauthorized";
    const thrown = await loadListPage(request("/sources?page=2"), "sources", "Failed to fetch sources").catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect(thrown.headers.get("location")).toBe("/?redirectTo=%2Fsources%3Fpage%3D2");
  });
  it("normalises a bad page number with a redirect", async () => {
    const { loadListPage } = await import("~/services/lists.server");
    mode = "ok";
    const thrown = await loadListPage(request("/sources?page=-3"), "sources", "Failed to fetch sources").catch((e) => e);
    expect(thrown.headers.get("location")).toBe("/sources");
    const beyond = await loadListPage(request("/sources?page=9"), "sources", "Failed to fetch sources").catch((e) => e);
    expect(beyond.headers.get("location")).toBe("/sources?page=3");
  });
});
