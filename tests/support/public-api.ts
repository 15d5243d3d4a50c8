import { expect } from "vitest";
import type { z } from "zod";
import { createApiV1 } from "../../backend/api/app.js";
import { apiErrorSchema } from "../../contract/api.js";

/**
 * The public API (`/api/v1`, bearer keys) as a test calls it: every answer is checked against what its route declares
 * in the OpenAPI definition (@hono/zod-openapi's registry, the zod schemas the served document is made from): its
 * status must be one the route declares, and its body must parse with the schema declared for that status (the one
 * error shape for a 4xx). An answer that does not is a failure of the call, with the status and body in its message.
 */

interface DeclaredRoute {
  /** "GET /connectors/{id}" as the document names it. */
  name: string;
  method: string;
  pattern: RegExp;
  /** Status → the content type and zod schema the route declares for it. */
  responses: Map<number, { type: string; schema: z.ZodTypeAny }>;
}

let declared: DeclaredRoute[] | undefined;

/** The routes of /api/v1 with their declared answers, read from the route definitions (no database: the routes are only listed). */
export function declaredRoutes(): DeclaredRoute[] {
  if (declared) return declared;
  const services = { config: { APP_URL: "http://localhost", API_RATE_LIMIT_POINTS: 1, API_RATE_LIMIT_WINDOW_SECONDS: 1 }, db: { $client: { query: async () => ({ rows: [] }) } } };
  const v1 = createApiV1(services as never);
  declared = v1.openAPIRegistry.definitions.flatMap((definition) => {
    if (definition.type !== "route") return [];
    const { method, path, responses } = definition.route;
    const answers = new Map<number, { type: string; schema: z.ZodTypeAny }>();
    for (const [status, response] of Object.entries(responses as Record<string, { content?: Record<string, { schema: z.ZodTypeAny }> }>)) {
      const [type, content] = Object.entries(response.content ?? {})[0] ?? [];
      if (type && content) answers.set(Number(status), { type, schema: content.schema });
    }
    const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`);
    return [{ name: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), pattern, responses: answers }];
  });
  return declared;
}

/** The declared route a request goes to, or undefined (the API answers 404 for it). */
export function declaredRoute(method: string, path: string): DeclaredRoute | undefined {
  const bare = path.split("?")[0]!;
  return declaredRoutes().find((route) => route.method === method.toUpperCase() && route.pattern.test(bare));
}

export interface PublicApiAnswer<T> {
  status: number;
  /** The body as parsed by the schema (the caller's, else the route's declared one). */
  body: T;
  /** The body as sent (JSON parsed, or the text). */
  raw: any;
  text: string;
  headers: Headers;
  /** "GET /connectors/{id}": the route that answered (undefined: none, a 404). */
  route: string | undefined;
}

export type PublicApiCall = <S extends z.ZodTypeAny>(
  schema: S | null,
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<PublicApiAnswer<S extends z.ZodTypeAny ? z.infer<S> : never>>;

/**
 * One call of /api/v1 on the backend at `t.url` with the bearer `key` (none: no Authorization header). `body` is sent
 * as JSON (a string is sent as it is, still as JSON, to test bad bodies). `schema`, when given, is what a 2xx body
 * must also be (and what the answer's `body` is typed as).
 */
export function publicApi(t: { url: string }): PublicApiCall {
  return async (schema, key, method, path, body, headers = {}) => {
    const h: Record<string, string> = { ...headers };
    if (key) h.authorization = `Bearer ${key}`;
    if (body !== undefined) h["content-type"] ??= "application/json";
    const response = await fetch(`${t.url}/api/v1${path}`, { method, headers: h, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
    const text = await response.text();
    const type = response.headers.get("content-type") ?? "";
    const fail = (why: string) => new Error(`${method} ${path} answered ${response.status} (${type}) ${text.slice(0, 2000)}: ${why}`);
    let raw: unknown = text;
    if (type.includes("application/json")) {
      try {
        raw = JSON.parse(text);
      } catch {
        throw fail("its body is not JSON");
      }
    }
    const route = declaredRoute(method, path);
    // Every answer is what its route declares for the status, or the one error shape for a path no route answers.
    let declaredSchema: z.ZodTypeAny;
    if (route) {
      const declaredAnswer = route.responses.get(response.status);
      if (!declaredAnswer) throw fail(`${route.name} declares only ${[...route.responses.keys()].join(", ")}`);
      if (!type.startsWith(declaredAnswer.type)) throw fail(`${route.name} declares ${declaredAnswer.type} for ${response.status}`);
      declaredSchema = declaredAnswer.schema;
    } else {
      if (response.status !== 404) throw fail("no route of the document answers this path, so it must be a 404");
      declaredSchema = apiErrorSchema;
    }
    const checked = declaredSchema.safeParse(raw);
    if (!checked.success) throw fail(`not the schema ${route?.name ?? "the error shape"} declares: ${checked.error.message}`);
    let parsed: unknown = checked.data;
    if (schema && response.ok) {
      const own = schema.safeParse(raw);
      if (!own.success) throw fail(own.error.message);
      parsed = own.data;
    }
    return { status: response.status, body: parsed as never, raw: raw as any, text, headers: response.headers, route: route?.name };
  };
}

/** A data-generator source's body for POST /api/v1/sources (no credential needed: the API makes it). */
export const datagenSourceBody = (name: string, metadata: Record<string, unknown> = {}) => ({
  name,
  integration: "datagen",
  settings: { company: "Acme", format: "zoom", ...metadata },
});

/**
 * A data-generator source → a local folder destination → a daily connector, made through /api/v1 with `key` (its first
 * sync not queued). `meetingsPerDay` sets the generator's volume; `destinationId`: a destination made before, shared.
 */
export async function seedApiConnector(call: PublicApiCall, key: string, name: string, options: { meetingsPerDay?: number; lookbackDays?: number; destinationId?: string } = {}) {
  const metadata = options.meetingsPerDay === undefined ? {} : { meetings_per_day: options.meetingsPerDay };
  const source = await call(null, key, "POST", "/sources", datagenSourceBody(`${name} source`, metadata));
  if (source.status !== 201) throw new Error(`POST /sources answered ${source.status}: ${source.text}`);
  let destinationId = options.destinationId;
  if (!destinationId) {
    const destination = await call(null, key, "POST", "/destinations", { name: `${name} disk`, integration: "local" });
    if (destination.status !== 201) throw new Error(`POST /destinations answered ${destination.status}: ${destination.text}`);
    destinationId = destination.raw.id as string;
  }
  const connector = await call(null, key, "POST", "/connectors", {
    name,
    source_id: source.raw.id,
    destination_ids: [destinationId],
    frequency: "daily",
    lookback_days: options.lookbackDays ?? 1,
    first_sync: false,
  });
  if (connector.status !== 201) throw new Error(`POST /connectors answered ${connector.status}: ${connector.text}`);
  return { sourceId: source.raw.id as string, destinationId, connectorId: connector.raw.id as string };
}

/** A refusal in the one error shape: its status, its stable code and its message (a string: exactly; a RegExp: matching). */
export function expectApiError(answer: PublicApiAnswer<unknown>, status: number, code: string, message: string | RegExp): void {
  const seen = { status: answer.status, code: answer.raw?.error?.code, message: answer.raw?.error?.message };
  expect(seen, `${answer.route ?? "no route"} answered ${answer.text}`).toEqual({ status, code, message: typeof message === "string" ? message : expect.stringMatching(message) });
}

export const MISSING_ID = "00000000-0000-4000-8000-000000000000";
export const READ_ONLY = "This API key is read-only: it cannot create, change or delete anything.";
export const JSON_ONLY = "Send the body as JSON (Content-Type: application/json).";
/** A JSON body sent the way `curl -d` sends one (form-encoded): to be refused as not JSON, whatever the route's schema. */
export const CURL_FORM = { "content-type": "application/x-www-form-urlencoded" };

/** What a refusal says, to compare lists of them at once (every case's answer seen, not only the first wrong one). */
export const said = (answer: PublicApiAnswer<unknown>) => ({ status: answer.status, code: answer.raw?.error?.code, message: answer.raw?.error?.message });
export const refusal = (status: number, code: string, message: string | RegExp) => ({ status, code, message: typeof message === "string" ? message : expect.stringMatching(message) });

export type RecordChecks = ReturnType<typeof recordChecks>;

function withoutNextRun(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNextRun);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== "next_run_at").map(([key, v]) => [key, withoutNextRun(v)]));
}

/** Checks of one user's records through /api/v1: `write` and `read` are that user's keys, `theirs` another user's. */
export function recordChecks(call: PublicApiCall, keys: { write: string; read: string; theirs: string }) {
  /** What `path` reads, without the next run times (they move on with the clock: a comparison must not race it). */
  const readBack = async (path: string): Promise<any> => withoutNextRun((await call(null, keys.write, "GET", path)).raw);
  /** `said` of a call with the write key, or why the call failed (an answer its route does not declare), so that a list shows every case. */
  const tryCall = (method: string, route: string, body?: unknown, headers?: Record<string, string>) =>
    call(null, keys.write, method, route, body, headers).then(said, (error: Error) => ({ thrown: error.message }));
  return {
    readBack,
    tryCall,
    /** Bad bodies of one write: each refused as expected, and what `path` reads the same afterwards. */
    async refusesEach(method: string, route: string, path: string, cases: [unknown, ReturnType<typeof refusal>][]) {
      const before = await readBack(path);
      const seen = [];
      for (const [body] of cases) seen.push({ body, ...(await tryCall(method, route, body)) });
      expect(seen).toEqual(cases.map(([body, expected]) => ({ body, ...expected })));
      expect(await readBack(path)).toEqual(before);
    },
    /**
     * `method route` with another user's key (404), a read-only key (403 for a write), a missing id and a malformed
     * one (404): each in the one error shape with `notFound` (the spec's message), and what `path` reads unchanged.
     */
    async guarded(method: string, route: string, path: string, notFound: string, body?: unknown) {
      const before = await readBack(path);
      expectApiError(await call(null, keys.theirs, method, route, body), 404, "not_found", notFound);
      if (method !== "GET") expectApiError(await call(null, keys.read, method, route, body), 403, "read_only_key", READ_ONLY);
      for (const id of [MISSING_ID, "not-an-id"]) expectApiError(await call(null, keys.write, method, route.replace(/^\/(\w+)\/[^/]+/, `/$1/${id}`), body), 404, "not_found", notFound);
      expect(await readBack(path)).toEqual(before);
    },
  };
}
