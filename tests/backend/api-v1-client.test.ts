import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import openapiTS, { astToString } from "openapi-typescript";
import createClient from "openapi-fetch";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { createUserSession, startTestBackend, waitFor, type TestBackend } from "../support/backend.js";
import { createApiKey } from "../../backend/db/api-keys.js";
import { createApiV1 } from "../../backend/api/app.js";
import type { paths } from "../support/api-v1.js";
import { API_MESSAGES } from "../../contract/api.js";
import { SOURCE_MESSAGES } from "../../contract/sources.js";
import { DESTINATION_MESSAGES } from "../../contract/destinations.js";

/**
 * Issue 38 item 5, from outside: the served OpenAPI document is valid 3.1, names every route the API answers, and a
 * client generated from it (openapi-typescript types in tests/support/api-v1.d.ts, checked here to be current —
 * UPDATE_API_TYPES=1 rewrites it) and openapi-fetch runs a whole sync with nothing but the document and a key.
 */
const TYPES = fileURLToPath(new URL("../support/api-v1.d.ts", import.meta.url));
let t: TestBackend;
let doc: Record<string, any>;
let token: string;

beforeAll(async () => {
  t = await startTestBackend({ role: "all" });
  const user = await createUserSession(t, "client@example.com");
  token = (await createApiKey(t.handle.db, user.userId, { name: "client", scope: "read_write", expiresAt: null })).token;
  doc = (await (await fetch(`${t.url}/api/v1/openapi.json`)).json()) as Record<string, any>;
}, 60_000);
afterAll(() => t?.stop());

it("serves a valid OpenAPI 3.1 document that names every route the API answers, and the checked-in types are current", async () => {
  expect(doc.openapi).toBe("3.1.0");
  const result = await new Validator().validate(doc as never);
  expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
  expect(result.valid).toBe(true);
  const v1 = createApiV1({ config: { APP_URL: "http://localhost", API_RATE_LIMIT_POINTS: 1, API_RATE_LIMIT_WINDOW_SECONDS: 1 }, db: { $client: { query: async () => ({ rows: [] }) } } } as never);
  const documented = new Set(Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
  const answered = v1.routes.filter((r) => r.method !== "ALL" && r.path !== "/openapi.json").map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
  expect(answered.length).toBeGreaterThan(20);
  for (const route of answered) expect(documented, route).toContain(route);
  expect(new Set(answered).size).toBe(documented.size);
  const types = astToString(await openapiTS(doc as never));
  if (process.env.UPDATE_API_TYPES === "1" || !existsSync(TYPES)) writeFileSync(TYPES, types);
  expect(readFileSync(TYPES, "utf8")).toBe(types);
});

it("names every operation once, for a generated client's calls, and Redocly's recommended rules find no error in the document", async () => {
  const operations = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((ops) => Object.values(ops));
  const ids = operations.map((operation) => operation.operationId);
  for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
  expect(new Set(ids).size).toBe(operations.length);
  expect(ids).toEqual(expect.arrayContaining(["listConnectors", "triggerSync", "cancelConnectorRun", "getTransformRunLog", "setConnectorSchedule"]));
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "openapi.json", config: await createConfig({ extends: ["recommended"] }) });
  const errors = problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`);
  expect(errors).toEqual([]);
  // Two warnings stay: a test server's address is localhost, and the document names no licence.
  const warnings = problems.filter((p) => p.severity === "warn").map((p) => p.ruleId);
  expect(warnings.filter((rule) => rule !== "no-server-example.com" && rule !== "info-license")).toEqual([]);
});

it("creates a data-generator source, a local destination and a connector, syncs, and reads the run and its log", async () => {
  const client = createClient<paths>({ baseUrl: (doc.servers[0].url as string).replace("http://localhost:3999", t.url), headers: { authorization: `Bearer ${token}` } });
  const source = await client.POST("/sources", { body: { name: "Generated", integration: "datagen", settings: { company: "Acme", format: "zoom", meetings_per_day: 2 } } });
  expect(source.response.status).toBe(201);
  const destination = await client.POST("/destinations", { body: { name: "Disk", integration: "local" } });
  expect(destination.response.status).toBe(201);
  const connector = await client.POST("/connectors", {
    body: { name: "Nightly", source_id: source.data!.id, destination_ids: [destination.data!.id], frequency: "daily", lookback_days: 1, first_sync: false },
  });
  expect(connector.response.status).toBe(201);
  const id = connector.data!.id;
  const sync = await client.POST("/connectors/{id}/sync", { params: { path: { id } } });
  expect(sync.response.status).toBe(202);
  const runId = sync.data!.run.id;
  const done = await waitFor("the sync to finish", async () => {
    const run = await client.GET("/connectors/{id}/runs/{runId}", { params: { path: { id, runId } } });
    return ["succeeded", "failed", "cancelled"].includes(run.data!.status) ? run.data! : undefined;
  });
  expect(done.status, JSON.stringify(done.error)).toBe("succeeded");
  expect(done.attempts.length).toBeGreaterThan(0);
  const runs = await client.GET("/connectors/{id}/runs", { params: { path: { id }, query: { limit: 10 } } });
  expect(runs.data!.data.map((r) => r.id)).toContain(runId);
  const log = await client.GET("/connectors/{id}/runs/{runId}/log", { params: { path: { id, runId } }, parseAs: "text" });
  expect(log.response.status).toBe(200);
  expect(String(log.data)).toMatch(/\S/);
});

it("declares a source's and a destination's body per integration (a discriminated union), and its own records: one name per value", () => {
  const schemas = doc.components.schemas as Record<string, any>;
  const variants = (union: any) => (union.oneOf as { $ref: string }[]).map((r) => r.$ref.replace("#/components/schemas/", ""));
  expect(schemas.SourceCreate.discriminator.propertyName).toBe("integration");
  expect(variants(schemas.SourceCreate)).toEqual(["ZoomSourceCreate", "TeamsSourceCreate", "GmailSourceCreate", "MeetSourceCreate", "OutlookSourceCreate", "DatagenSourceCreate"]);
  expect(schemas.ZoomSourceCreate.properties.integration.enum).toEqual(["zoom"]);
  expect(Object.keys(schemas.ZoomSourceCreate.properties.settings.properties)).toContain("zoom_extraction_scope");
  expect(Object.keys(schemas.DatagenSourceCreate.properties.settings.properties)).toEqual(expect.arrayContaining(["company", "format", "meetings_per_day"]));
  expect(schemas.DestinationCreate.discriminator.propertyName).toBe("integration");
  expect(variants(schemas.DestinationCreate)).toEqual(expect.arrayContaining(["StorageDestinationCreate", "BigqueryDestinationCreate", "LocalDestinationCreate", "PostgresDestinationCreate"]));
  // A cloud destination's variant needs the connection test's credential and token; a local folder's does not.
  expect(schemas.BigqueryDestinationCreate.required).toEqual(expect.arrayContaining(["integration", "name", "credential_id", "validation_token"]));
  expect(Object.keys(schemas.BigqueryDestinationCreate.properties.settings.properties)).toContain("dataset_name");
  expect(Object.keys(schemas.LocalDestinationCreate.properties)).not.toContain("validation_token");
  for (const record of ["Source", "Destination"]) {
    const fields = Object.keys(schemas[record].properties);
    expect(fields).toEqual(expect.arrayContaining(["integration", "credential_id", "settings"]));
    for (const repeated of ["type", "integration_id", "integration_name", "credentialId", "source_metadata", "config"]) expect(fields, `${record}.${repeated}`).not.toContain(repeated);
  }
  expect(doc.paths["/sources"].post.requestBody.content["application/json"].schema.$ref).toBe("#/components/schemas/SourceCreate");
});

it("refuses a body of no integration, of an unknown one, or missing what its integration needs, with a sentence and its field, and creates nothing", async () => {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${t.url}/api/v1${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, error: ((await response.json()) as { error: { code: string; message: string; field?: string } }).error };
  };
  const count = async (path: string) => ((await (await fetch(`${t.url}/api/v1${path}?limit=200`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: unknown[] }).data.length;
  const [sources, destinations] = [await count("/sources"), await count("/destinations")];
  expect(await post("/sources", { name: "No integration" })).toEqual({ status: 400, error: { code: "invalid_request", message: SOURCE_MESSAGES.integrationRequired, field: "integration" } });
  expect(await post("/sources", { name: "Unknown", integration: "skype" })).toMatchObject({ status: 400, error: { message: SOURCE_MESSAGES.integrationRequired, field: "integration" } });
  expect(await post("/sources", { name: "Zoom", integration: "zoom" })).toEqual({ status: 400, error: { code: "invalid_request", message: API_MESSAGES.credentialRequired, field: "credential_id" } });
  expect(await post("/sources", { name: "", integration: "datagen", settings: { company: "Acme", format: "zoom" } })).toMatchObject({ status: 400, error: { message: SOURCE_MESSAGES.nameRequired, field: "name" } });
  expect(await post("/destinations", { name: "Nowhere", integration: "ftp" })).toMatchObject({ status: 400, error: { message: DESTINATION_MESSAGES.integration, field: "integration" } });
  expect(await post("/destinations", { name: "Untested", integration: "bigquery", settings: { project_id: "p", dataset_name: "d", permission_type: "DATASET" } })).toMatchObject({
    status: 400,
    error: { code: "invalid_request", field: "credential_id" },
  });
  expect([await count("/sources"), await count("/destinations")]).toEqual([sources, destinations]);
});
