import type { z } from "zod";
import { BACKEND_RESPONSES, type BackendAnswer, type BackendRoute, type BackendStream } from "@contract/responses";

/**
 * The backend's routes as contract/responses.ts names them ("PUT /sources/update/:id"): the address a route's key and
 * values make, and its answer read by the route's schema. callBackend (backend.server.ts) is built on these; the
 * session's own calls (session.server.ts, auth.server.ts), which relay cookies, use them directly.
 */

type PathOf<K extends string> = K extends `${string} ${infer P}` ? P : never;
/** The names of a path's `:name` segments. */
export type ParamNames<K extends string> = Names<PathOf<K>>;
type Names<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | Names<Rest> : P extends `${string}:${infer Name}` ? Name : never;
/** The values of a route's `:name` segments. */
export type RouteParams<K extends string> = Record<ParamNames<K>, string>;

export type Query = URLSearchParams | Record<string, string | number | null | undefined>;

/** A route's address: its `:name` segments (required when it has any) and the query string (?page=, ?connector_id=…). */
export type Address<K extends string> = { query?: Query } & ([ParamNames<K>] extends [never] ? { params?: undefined } : { params: RouteParams<K> });

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type LooseAddress = { params?: Record<string, string>; query?: Query };

/** The method and path (each `:name` encoded, the query appended) of a route of contract/responses.ts. */
export function backendAddress(route: BackendRoute | BackendStream, address: LooseAddress = {}): { method: Method; path: string } {
  const space = route.indexOf(" ");
  const path = route.slice(space + 1).replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = address.params?.[name];
    if (value === undefined) throw new Error(`${route}: no value for :${name}`);
    return encodeURIComponent(value);
  });
  const query = address.query;
  const search =
    query instanceof URLSearchParams
      ? query
      : new URLSearchParams(Object.entries(query ?? {}).flatMap(([key, value]) => (value === undefined || value === null ? [] : [[key, String(value)]])));
  return { method: route.slice(0, space) as Method, path: search.size ? `${path}?${search}` : path };
}

/**
 * A route named at run time (an integration's call, `POST /externalauth/${name}/test_connection`): the table's key, or
 * null when the backend has no such route. Its type is the table's keys of that pattern.
 */
export function knownRoute<K extends string>(key: K): Extract<BackendRoute, K> | null {
  return Object.hasOwn(BACKEND_RESPONSES, key) ? (key as unknown as Extract<BackendRoute, K>) : null;
}

/**
 * The body a route answered, read by its schema. A body that does not match is no answer: one line on the web
 * server's log names the route and where the body differs (paths and kinds only, never a value: answers hold names,
 * tokens and secrets).
 */
export function checkAnswer<K extends BackendRoute>(route: K, body: unknown): { ok: true; data: BackendAnswer<K> } | { ok: false } {
  const parsed = (BACKEND_RESPONSES[route] as z.ZodTypeAny).safeParse(body);
  if (parsed.success) return { ok: true, data: parsed.data as BackendAnswer<K> };
  const where = parsed.error.issues.slice(0, 10).map((issue) => `${issue.path.join(".") || "(body)"} (${issue.code})`);
  console.warn(`[web] the backend's answer to ${route} does not match contract/responses.ts: ${where.join(", ")}`);
  return { ok: false };
}

/** The JSON of an answer: null for an empty body (NO_CONTENT), undefined when it is not JSON. */
export async function answerBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => undefined);
  if (text === undefined) return undefined;
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
