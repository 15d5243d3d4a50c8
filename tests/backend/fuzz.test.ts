import fc from "fast-check";
import pLimit from "p-limit";
import { Agent, fetch as undiciFetch } from "undici";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APP_URL,
  createUserSession,
  startTestBackend,
  type TestBackend,
} from "../support/backend.js";
import { FakeSnowflake } from "../fakes/snowflake.js";
import { createApi } from "../../backend/http/app.js";
import type { Services } from "../../backend/services/deps.js";
import * as authContract from "../../contract/auth.js";
import * as connectorsContract from "../../contract/connectors.js";
import * as destinationsContract from "../../contract/destinations.js";
import * as sourcesContract from "../../contract/sources.js";
import * as transformsContract from "../../contract/transforms.js";
import { freePort } from "../support/ports.js";

/**
 * Bounded fuzzing of every write the backend offers (issue #24): a few thousand generated requests (bodies shaped
 * like the contract's schemas with hostile values, wrong types, deep nesting, huge strings, garbage bytes, random
 * content types, foreign ids, no session) must never get a 5xx. Routes come from the Hono app itself, so a new
 * route is fuzzed without touching this file. FUZZ_RUNS and FUZZ_SEED replay or widen a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS) || 2000;
const SEED = Number(process.env.FUZZ_SEED) || Date.now() % 2_147_483_647;
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

let t: TestBackend;
const snowflake = new FakeSnowflake();
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };
const ids: Record<string, string[]> = {};
const savedEnv = { ...process.env };

/** The backend's write routes, as registered (middleware entries aside). */
function writeRoutes(): { method: string; path: string }[] {
  const app = createApi({ config: { APP_URL } } as Services);
  const seen = new Map<string, { method: string; path: string }>();
  for (const route of app.routes) {
    if (WRITE_METHODS.has(route.method) && !route.path.includes("*"))
      seen.set(`${route.method} ${route.path}`, {
        method: route.method,
        path: route.path,
      });
  }
  return [...seen.values()];
}

/** Every field name the contract's request and record schemas know. */
function contractKeys(): string[] {
  const keys = new Set<string>();
  const visit = (schema: unknown, depth = 0) => {
    if (!schema || typeof schema !== "object" || depth > 6) return;
    const def = (
      schema as {
        _def?: {
          typeName?: string;
          schema?: unknown;
          innerType?: unknown;
          in?: unknown;
          out?: unknown;
        };
      }
    )._def;
    if (!def) return;
    if (def.typeName === "ZodObject") {
      for (const [key, inner] of Object.entries(
        (schema as z.AnyZodObject).shape
      )) {
        keys.add(key);
        visit(inner, depth + 1);
      }
    }
    for (const inner of [def.schema, def.innerType, def.in, def.out])
      visit(inner, depth + 1);
  };
  for (const module of [
    authContract,
    connectorsContract,
    destinationsContract,
    sourcesContract,
    transformsContract,
  ]) {
    for (const value of Object.values(module)) visit(value);
  }
  return [...keys];
}


async function call(
  method: string,
  path: string,
  body: unknown,
  cookie = alice.cookie
) {
  const response = await fetch(`${t.url}${path}`, {
    method,
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300)
    throw new Error(
      `${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`
    );
  return answer;
}

beforeAll(async () => {
  // Nothing the backend does for these requests may leave the machine: Snowflake goes to a local fake, every other
  // provider to a closed local port, and the integrations that need credentials stay unconfigured.
  await snowflake.start();
  const closed = `http://127.0.0.1:${await freePort()}`;
  for (const name of Object.keys(process.env)) {
    if (
      /^(ZOOM|TEAMS|GMAIL)_|^GOOGLE_(CLIENT|SERVICE_ACCOUNT)|^TRIBUTARY_LLM_/.test(
        name
      )
    )
      delete process.env[name];
  }
  Object.assign(process.env, {
    SNOWFLAKE_HOST_OVERRIDE: snowflake.url,
    GCS_API_ENDPOINT: closed,
    BIGQUERY_API_ENDPOINT: closed,
    ZOOM_OAUTH_BASE_URL: closed,
    ZOOM_API_BASE_URL: closed,
    MICROSOFT_LOGIN_BASE_URL: closed,
    MICROSOFT_GRAPH_BASE_URL: closed,
    GOOGLE_TOKEN_URL: `${closed}/token`,
    GOOGLE_ADMIN_BASE_URL: closed,
    GMAIL_API_BASE_URL: closed,
    GOOGLE_OAUTH_AUTH_URL: `${closed}/auth`,
    CONNECTION_TEST_TIMEOUT_SECONDS: "3",
  });
  t = await startTestBackend();
  alice = await createUserSession(t, "alice@example.com", "Alice");
  bob = await createUserSession(t, "bob@example.com", "Bob");
  // Real records, so that routes with an id get past "not found".
  const credential = await call("POST", "/externalauth/datagen/callback", {});
  const source = await call("POST", "/sources/create", {
    name: "Fuzz source",
    credentialId: credential.credential_id,
    integration_name: "datagen",
    source_metadata: { format: "zoom" },
  });
  const destination = (
    await call("POST", "/destinations/create", {
      name: "Fuzz disk",
      integration_name: "local",
    })
  ).destination as { id: string };
  const connector = await call("POST", "/connectors/create", { first_sync: false,
    name: "Fuzz connector",
    description: "x",
    source_id: source.id,
    destination_ids: [destination.id],
    frequency: "daily",
    lookback_days: 7,
  });
  const transform = await call("POST", "/transforms/create", {
    template_id: "topic_modeling",
    name: "Fuzz topics",
    connector_id: connector.id,
    permissions_setup: true,
  });
  const bobCredential = await call(
    "POST",
    "/externalauth/datagen/callback",
    {},
    bob.cookie
  );
  const bobSource = await call(
    "POST",
    "/sources/create",
    {
      name: "Bob's",
      credentialId: bobCredential.credential_id,
      integration_name: "datagen",
      source_metadata: { format: "gong" },
    },
    bob.cookie
  );
  Object.assign(ids, {
    source: [source.id as string, bobSource.id as string],
    destination: [destination.id],
    connector: [connector.id as string],
    transform: [transform.transform_id as string],
    template: ["topic_modeling", "keyword_tracker", "nope"],
    credential: [
      credential.credential_id as string,
      bobCredential.credential_id as string,
    ],
  });
}, 120_000);

afterAll(async () => {
  await freshConnections.close();
  await t?.stop();
  await snowflake.stop();
  for (const name of Object.keys(process.env))
    if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
});

/** A valid body per route where one exists, so that mutations reach past the first check. */
function validBodies(): Record<string, () => Record<string, unknown>> {
  const snowflakeBody = {
    account: "org-acct",
    user: "FUZZ",
    password: "secret",
    warehouse: "WH",
    database: "DB",
    schema: "S",
  };
  return {
    "/sources/create": () => ({
      name: "Fuzzed",
      credentialId: ids.credential![0],
      integration_name: "datagen",
      source_metadata: { company: "Acme", format: "zoom" },
    }),
    "/sources/update/:id": () => ({ name: "Renamed", description: "d" }),
    "/destinations/create": () => ({
      name: "Fuzzed",
      integration_name: "local",
    }),
    "/destinations/update/:id": () => ({ name: "Renamed", description: "d" }),
    "/connectors/create": () => ({
      name: "Fuzzed",
      description: "d",
      source_id: ids.source![0],
      destination_ids: [ids.destination![0]],
      frequency: "daily",
      lookback_days: 7,
    }),
    "/connectors/update/:id": () => ({
      name: "Renamed",
      description: "d",
      source_id: ids.source![0],
      destination_id: ids.destination![0],
      frequency: "hourly",
    }),
    "/transforms/validate-draft": () => ({
      name: "Draft",
      connector_id: ids.connector![0],
      frequency: "daily",
      file_type: ".vtt",
      workflow: "template",
    }),
    "/transforms/create": () => ({
      template_id: "topic_modeling",
      name: "Fuzzed",
      connector_id: ids.connector![0],
      permissions_setup: true,
      inputs: { num_topics: 3 },
    }),
    "/templates/:id/preview": () => ({
      template_id: "topic_modeling",
      connector_id: ids.connector![0],
      inputs: {},
      requirement_inputs: {},
    }),
    "/externalauth/snowflake/test_connection": () => snowflakeBody,
    "/externalauth/snowflake_stage/test_connection": () => ({
      ...snowflakeBody,
      stage_name: "STG",
    }),
    "/externalauth/snowflake/get_instructions": () => snowflakeBody,
    "/auth/google/callback": () => ({
      code: "abc",
      code_verifier: "v".repeat(43),
      state: "s",
    }),
  };
}

/** Which record a route's :param means, from the path it is in. */
function idKind(path: string, param: string): string {
  if (param === "integration_id" || param === "platform") return "template";
  if (path.startsWith("/templates/")) return "template";
  for (const kind of ["source", "destination", "connector", "transform"])
    if (path.startsWith(`/${kind}s/`)) return kind;
  return "source";
}

/** Every byte but letters and digits percent-encoded (encodeURIComponent throws on a lone surrogate). */
const percentEncoded = (s: string) =>
  [...Buffer.from(s, "utf8")]
    .map((b) =>
      /[A-Za-z0-9_-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, "0")}`
    )
    .join("");

interface FuzzRequest {
  method: string;
  path: string;
  who: "alice" | "bob" | "nobody";
  contentType: string | undefined;
  extraHeaders: Record<string, string>;
  body: Uint8Array | undefined;
  label: string;
}

function requests(keys: string[]) {
  const routes = writeRoutes();
  const valid = validBodies();
  const realId = fc.constantFrom(...Object.values(ids).flat());
  const text = fc.oneof(
    { weight: 4, arbitrary: fc.string() },
    { weight: 2, arbitrary: fc.string({ unit: "binary" }) },
    {
      weight: 2,
      arbitrary: fc.string({
        unit: fc
          .integer({ min: 0, max: 0xffff })
          .map((n) => String.fromCharCode(n)),
      }),
    },
    { weight: 2, arbitrary: fc.string().map((s) => `${s}\u0000${s}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "",
        " ",
        "\u0000",
        "\ud800",
        "\udfff",
        "__proto__",
        "constructor",
        "' OR 1=1 --",
        "../../etc/passwd",
        "%00",
        "\u202e",
        "NaN",
        "-1",
        "1e999"
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1000, max: 100_000 })
        .map((n) => "x".repeat(n)),
    },
    { weight: 3, arbitrary: realId }
  );
  const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      text,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("v"), { maxLength: 4 }),
      fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string()), tie("v"), {
        maxKeys: 4,
      })
    ),
  })).v;
  const shaped = fc.dictionary(
    fc.constantFrom(...keys, "__proto__", "constructor"),
    value,
    { maxKeys: 8 }
  );
  const deep = fc
    .tuple(fc.integer({ min: 50, max: 30_000 }), fc.boolean())
    .map(([n, array]) =>
      array
        ? `${"[".repeat(n)}${"]".repeat(n)}`
        : `${'{"a":'.repeat(n)}1${"}".repeat(n)}`
    );

  return fc
    .record({
      route: fc.constantFrom(...routes),
      who: fc.constantFrom(
        "alice",
        "alice",
        "alice",
        "alice",
        "alice",
        "alice",
        "bob",
        "nobody"
      ) as fc.Arbitrary<FuzzRequest["who"]>,
      params: fc.array(
        fc.oneof(
          { weight: 6, arbitrary: fc.constant("real") },
          { weight: 1, arbitrary: fc.uuid() },
          {
            weight: 1,
            arbitrary: fc.oneof(
              text.map((s) => percentEncoded(s).slice(0, 300) || "x"),
              fc.constantFrom(
                "%ff%fe",
                "%ed%a0%80",
                "%00",
                "%",
                "..",
                "%2e%2e%2f"
              )
            ),
          }
        ),
        { minLength: 3, maxLength: 3 }
      ),
      pick: fc.nat(),
      contentType: fc.oneof(
        { weight: 30, arbitrary: fc.constant("application/json") },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            "application/json; charset=utf-8",
            "APPLICATION/JSON",
            "application/json; charset=latin1"
          ),
        },
        { weight: 1, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "text/plain",
            "text/plain; charset=application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=--x",
            "application/jsonx",
            "application/json-patch+json",
            ";;;",
            "application/json; charset"
          ),
        },
        {
          weight: 1,
          arbitrary: fc
            .string({ maxLength: 40 })
            .filter((s) => /^[\x20-\x7e]*$/.test(s)),
        }
      ),
      headers: fc.oneof(
        { weight: 30, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            { origin: "http://localhost:9999" },
            { "sec-fetch-site": "cross-site" },
            { origin: APP_URL, "sec-fetch-site": "same-origin" }
          ),
        }
      ),
      body: fc.oneof(
        { weight: 12, arbitrary: shaped },
        { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
        { weight: 1, arbitrary: deep },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 3000 }) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "",
            "{",
            "nul",
            "[1,2",
            '{"name":"\\u0000"}',
            '{"name":"\\ud800"}',
            '"just a string"',
            "1e999999",
            "{}".repeat(1000)
          ),
        }
      ),
      merge: fc.oneof(
        { weight: 3, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) }
      ),
    })
    .map(
      ({
        route,
        who,
        params,
        pick,
        contentType,
        headers,
        body,
        merge,
      }): FuzzRequest => {
        let n = 0;
        const path = route.path.replace(/:(\w+)/g, (_, param: string) => {
          const choice = params[n++ % params.length]!;
          if (choice !== "real") return choice;
          const pool = ids[idKind(route.path, param)]!;
          return percentEncoded(pool[pick % pool.length]!);
        });
        let bytes: Uint8Array | undefined;
        if (body instanceof Uint8Array) bytes = body;
        else if (typeof body === "string") bytes = Buffer.from(body);
        else if (body !== undefined) {
          const base = valid[route.path] as
            | (() => Record<string, unknown>)
            | undefined;
          const merged =
            merge &&
            base !== undefined &&
            body &&
            typeof body === "object" &&
            !Array.isArray(body)
              ? { ...base(), ...(body as object) }
              : body;
          bytes = Buffer.from(JSON.stringify(merged));
        }
        return {
          method: route.method,
          path,
          who,
          contentType,
          extraHeaders: headers as Record<string, string>,
          body: bytes,
          label: `${route.method} ${route.path}`,
        };
      }
    );
}

/** A connection per request: a reused keep-alive socket that the server closes as idle would be no answer of its own. */
const freshConnections = new Agent({ pipelining: 0 });

async function send(
  request: FuzzRequest
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { ...request.extraHeaders };
  if (request.contentType !== undefined)
    headers["content-type"] = request.contentType;
  if (request.who === "alice") headers.cookie = alice.cookie;
  if (request.who === "bob") headers.cookie = bob.cookie;
  const response = await undiciFetch(`${t.url}${request.path}`, {
    method: request.method,
    headers,
    body: request.body,
    signal: AbortSignal.timeout(20_000),
    dispatcher: freshConnections,
  });
  return { status: response.status, text: await response.text() };
}

describe("fuzzing every write endpoint", () => {
  it(`answers no generated request with a 5xx (${RUNS} requests, seed ${SEED})`, async () => {
    const keys = contractKeys();
    expect(keys).toEqual(
      expect.arrayContaining([
        "name",
        "description",
        "credential_id",
        "source_metadata",
        "inputs",
      ])
    );
    const routes = writeRoutes();
    // Every write route of the app is in the draw: a sanity check that enumeration found them.
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        "POST /sources/create",
        "PUT /connectors/update/:id",
        "DELETE /transforms/delete/:id",
        "POST /connectors/:id/sync",
      ])
    );

    const generating = Date.now();
    const all = fc.sample(requests(keys), { numRuns: RUNS, seed: SEED });
    if (process.env.FUZZ_DEBUG) console.log(`generated in ${Date.now() - generating} ms`);
    // Deletions last, so that the real records serve the other routes first, and signing out after them (it ends the
    // session every other request uses).
    const order = (r: FuzzRequest) =>
      r.path === "/auth/logout" ? 2 : r.method === "DELETE" ? 1 : 0;
    all.sort((a, b) => order(a) - order(b));
    const last = all.filter((r) => order(r) > 0);
    const first = all.filter((r) => order(r) === 0);
    const limit = pLimit(4);
    const failures: string[] = [];
    const statuses = new Map<string, Set<number>>();
    const run = (requests: FuzzRequest[]) =>
      Promise.all(
        requests.map((request) =>
          limit(async () => {
            let outcome: { status: number; text: string };
            try {
              const started = Date.now();
              outcome = await send(request);
              if (process.env.FUZZ_DEBUG && Date.now() - started > 1000) console.log(`slow ${Date.now() - started} ms: ${request.label} ${outcome.status}`);
            } catch (error) {
              failures.push(
                `${request.method} ${request.path} (${request.who}, ${
                  request.contentType
                }): no answer: ${(error as Error).message} ${String(
                  (error as { cause?: unknown }).cause
                )}`
              );
              return;
            }
            const seen = statuses.get(request.label) ?? new Set<number>();
            statuses.set(request.label, seen.add(outcome.status));
            if (outcome.status >= 500) {
              const body = request.body
                ? Buffer.from(request.body).toString("utf8").slice(0, 300)
                : "(none)";
              failures.push(
                `${request.method} ${request.path.slice(0, 120)} (${
                  request.who
                }, ${request.contentType}) → ${
                  outcome.status
                } ${outcome.text.slice(0, 200)}; body: ${JSON.stringify(body)}`
              );
            }
          })
        )
      );
    await run(first);
    for (const request of last.filter((r) => r.method === "DELETE"))
      await run([request]);
    await run(last.filter((r) => r.path === "/auth/logout"));
    expect(
      failures,
      `seed ${SEED}: ${failures.length} failures\n${failures
        .slice(0, 20)
        .join("\n")}`
    ).toEqual([]);
    // The fuzz reached the routes: every route was drawn, and most got past the edge at least once.
    expect([...statuses.keys()].length).toBe(routes.length);
    if (process.env.FUZZ_DEBUG)
      console.log(
        [...statuses]
          .map(([k, v]) => `${k}: ${[...v].sort().join(",")}`)
          .join("\n")
      );
    const passedEdge = [...statuses.values()].filter((s) =>
      [...s].some(
        (status) =>
          status !== 413 && status !== 415 && status !== 403 && status !== 401
      )
    );
    expect(passedEdge.length).toBeGreaterThan(routes.length / 2);
  }, 180_000);
});
