import { afterAll, beforeAll, expect, it } from "vitest";
import { api, createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { seedDatagenConnector, seedTransform } from "../support/seed.js";
import { createApi } from "../../backend/http/app.js";
import { createApiV1 } from "../../backend/api/app.js";
import type { Services } from "../../backend/services/deps.js";
import { createApiKey } from "../../backend/db/api-keys.js";

/**
 * Issue 51: for every route of both edges — walked from their route tables, so a new route is covered without touching
 * this file — a record of another workspace answers 404, and nothing of it changes. A route's path parameters name
 * records (PARAM_RECORDS); a parameter that names no record (an integration, a setup call) is listed with why.
 */
let t: TestBackend;
let ada: { userId: string; cookie: string };
let ben: { userId: string; cookie: string };
let benKey: string;
const ids: Record<string, string> = {};

/** What each path parameter names, by the resource its path is under (`/connectors/:id` → the connector); undefined: none. */
function recordOf(path: string, param: string): string | undefined {
  if (param === "runId") return path.startsWith("/connectors") ? ids.syncRun : ids.transformRun;
  if (param === "source_id") return ids.source;
  if (param === "userId") return ids.member;
  if (param !== "id") return undefined;
  const prefix = Object.keys(RESOURCES).find((p) => path.startsWith(p));
  return prefix ? ids[RESOURCES[prefix]!] : undefined;
}
const RESOURCES: Record<string, string> = { "/sources": "source", "/destinations": "destination", "/connectors": "connector", "/transforms": "transform", "/api-keys": "apiKey", "/workspaces": "workspace", "/workspace/invitations": "invitation" };
/** Path parameters that name no record of a workspace. */
const NOT_RECORDS: Record<string, string> = {
  integration: "a source or destination integration (zoom, gcs, …), the same for everyone",
  integration_id: "a source integration; ?source_id= names the record, checked below",
  call: "a plug-in's setup call",
  platform: "a platform of the source named beside it",
  category: "a category of the template catalogue, the same for everyone",
  chart: "a chart of the transform's template, named beside the transform",
};
const TEMPLATE_ROUTES = /^\/templates\/:id/; // a template of the catalogue, the same for everyone

/** The body a route of the public API checks before it finds the record: valid, so that only the record is wrong. */
const API_BODIES: Record<string, unknown> = {
  "PATCH /sources/{id}": { name: "Taken over", description: "" },
  "PATCH /destinations/{id}": { name: "Taken over" },
  "PATCH /connectors/{id}": { name: "Taken over", source_id: "00000000-0000-4000-8000-000000000000", destination_ids: ["00000000-0000-4000-8000-000000000000"], frequency: "daily" },
  "PATCH /transforms/{id}": { name: "Taken over", description: "" },
  "PUT /connectors/{id}/schedule": { kind: "frequency" },
  "PUT /transforms/{id}/schedule": { kind: "frequency" },
  "POST /connectors/{id}/backfill": { from: "2026-11-01", to: "2026-11-02" },
};

/** Everything of Ada's workspace, to compare before and after. */
async function snapshot(): Promise<string> {
  const tables = ["sources", "destinations", "connectors", "transforms", "sync_runs", "transform_runs", "api_keys"];
  const rows = await Promise.all(tables.map(async (table) => (await t.db.query(`SELECT * FROM ${table} WHERE owner_id = $1 ORDER BY id`, [ada.userId])).rows));
  const team = await Promise.all(
    ["workspace_members", "workspace_invitations"].map(async (table) => (await t.db.query(`SELECT * FROM ${table} WHERE workspace_id = $1 ORDER BY 1, 2`, [ada.userId])).rows),
  );
  return JSON.stringify([rows, team]);
}

beforeAll(async () => {
  t = await startTestBackend({ role: "api" });
  ada = await createUserSession(t, "ada@example.com", "Ada");
  ben = await createUserSession(t, "ben@example.com", "Ben");
  benKey = (await createApiKey(t.handle.db, ben.userId, { name: "ben", scope: "read_write", expiresAt: null })).token;
  const seeded = await seedDatagenConnector(t, ada.cookie, { name: "Ada's" });
  Object.assign(ids, { source: seeded.sourceId, destination: seeded.destinationId, connector: seeded.connectorId });
  ids.transform = await seedTransform(t, ada.userId, seeded.connectorId, "Ada's topics");
  ids.syncRun = (await api(t, ada.cookie, "POST", `/connectors/${ids.connector}/sync`)).body.run.id;
  ids.transformRun = (await api(t, ada.cookie, "POST", `/transforms/${ids.transform}/run`)).body.run.id;
  ids.apiKey = (await createApiKey(t.handle.db, ada.userId, { name: "ada", scope: "read", expiresAt: null })).key.id;
  // Ada's workspace (her personal one), Ada as its member, and an invitation of it.
  ids.workspace = ada.userId;
  ids.member = ada.userId;
  ids.invitation = (await api(t, ada.cookie, "POST", "/workspace/invitations", { email: "carol@example.com" })).body.invitation.id;
  for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/^[0-9a-f-]{36}$/);
}, 60_000);
afterAll(() => t?.stop());

/** The routes of an app whose path has a parameter, with the path filled with Ada's records (null: names no record). */
function walk(routes: { method: string; path: string }[], param: RegExp) {
  const seen = new Map<string, { method: string; template: string; path: string }>();
  for (const route of routes) {
    if (route.method === "ALL" || !param.test(route.path) || TEMPLATE_ROUTES.test(route.path)) continue;
    let filled = route.path;
    let names = false;
    for (const [, name] of route.path.matchAll(new RegExp(param.source, "g"))) {
      const id = recordOf(route.path.replace(/\{(\w+)\}/g, ":$1"), name!);
      if (id) {
        names = true;
        filled = filled.replace(new RegExp(`[:{]${name}\\}?`), id);
      } else if (!NOT_RECORDS[name!]) throw new Error(`${route.method} ${route.path}: the parameter ${name} names nothing this test knows: add it to recordOf or NOT_RECORDS`);
    }
    if (names) seen.set(`${route.method} ${route.path}`, { method: route.method, template: route.path, path: filled });
  }
  return [...seen.values()];
}

it("the session backend: every route of a record answers another workspace's member 404, and changes nothing", async () => {
  const before = await snapshot();
  const routes = walk(createApi({ config: { APP_URL: "http://localhost:3999" } } as Services).routes, /:(\w+)/);
  expect(routes.length).toBeGreaterThan(25);
  const answers: string[] = [];
  for (const route of routes) {
    const answer = await api(t, ben.cookie, route.method, route.path, route.method === "GET" || route.method === "DELETE" ? undefined : {});
    answers.push(`${route.method} ${route.template} → ${answer.status}`);
  }
  expect(answers.filter((a) => !a.endsWith("→ 404"))).toEqual([]);
  // ?source_id= of another workspace's source, too.
  expect((await api(t, ben.cookie, "GET", `/integrations/datagen/compatible-platforms?source_id=${ids.source}`)).status).toBe(404);
  expect(await snapshot()).toBe(before);
});

it("the public API: every route of a record answers a key of another workspace 404, and changes nothing", async () => {
  const before = await snapshot();
  const v1 = createApiV1({ config: { APP_URL: "http://localhost", API_RATE_LIMIT_POINTS: 1, API_RATE_LIMIT_WINDOW_SECONDS: 1 }, db: { $client: { query: async () => ({ rows: [] }) } } } as never);
  const routes = walk(v1.routes.map((r) => ({ method: r.method, path: r.path.replace(/:(\w+)/g, "{$1}") })), /\{(\w+)\}/);
  expect(routes.length).toBeGreaterThan(20);
  const answers: string[] = [];
  for (const route of routes) {
    const key = `${route.method} ${route.template}`;
    const body = route.method === "GET" || route.method === "DELETE" ? undefined : (API_BODIES[key] ?? {});
    const response = await fetch(`${t.url}/api/v1${route.path}`, {
      method: route.method,
      headers: { authorization: `Bearer ${benKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    answers.push(`${key} → ${response.status}`);
  }
  expect(answers.filter((a) => !a.endsWith("→ 404"))).toEqual([]);
  expect(await snapshot()).toBe(before);
});
