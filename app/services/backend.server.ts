import type { BackendAnswer, BackendRoute, BackendStream } from "@contract/responses";
import { answerBody, backendAddress, checkAnswer, type Address, type LooseAddress, type ParamNames } from "./backend-routes.server";
import { backendFetch, backendMessage } from "./http.server";
import { sessionEnded } from "./session.server";

/**
 * The app's one client of the backend (spec §7): every call a page makes goes through callBackend, with the
 * browser's cookies. A call names its route as contract/responses.ts does ("PUT /sources/update/:id"): the method,
 * the path and the schema of the answer all come from that table, and the answer is what the schema read. The
 * resource modules (sources, destinations, connectors, transforms .server.ts) name the calls; routes never build a
 * backend path. One rule for a 401: the session is over, so the user is forgotten and sent to sign in, the page they
 * were on remembered.
 */

export { knownRoute } from "./backend-routes.server";

/** The outcome of a backend call: its JSON body, or the message to show (the backend's, else the call's own). */
export type Outcome<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

export type CallInit<K extends BackendRoute> = Address<K> & { json?: unknown };

/** The arguments after the route: its address can be left out only when it has no `:name` segment. */
type Rest<K extends string, I> = [ParamNames<K>] extends [never] ? [init?: I, fallback?: string] : [init: I, fallback?: string];

const DEFAULT_FAILURE = "Something went wrong. Please try again.";

/** callBackend, with the answer's headers beside its body (a list's X-Total-Count, its data version). */
export async function callBackendWithHeaders<K extends BackendRoute>(
  request: Request,
  route: K,
  ...[init, fallback = DEFAULT_FAILURE]: Rest<K, CallInit<K>>
): Promise<{ ok: true; data: BackendAnswer<K>; headers: Headers } | { ok: false; status: number; message: string }> {
  const { json, ...address } = (init ?? {}) as LooseAddress & { json?: unknown };
  const { method, path } = backendAddress(route, address);
  let response: Response;
  try {
    response = await backendFetch(request, path, { method, ...(json !== undefined ? { json } : {}) });
  } catch {
    return { ok: false, status: 503, message: fallback };
  }
  if (response.status === 401) {
    await response.body?.cancel();
    throw await sessionEnded(request);
  }
  if (!response.ok) return { ok: false, status: response.status, message: await backendMessage(response, fallback) };
  const checked = checkAnswer(route, await answerBody(response));
  return checked.ok ? { ok: true, data: checked.data, headers: response.headers } : { ok: false, status: 502, message: fallback };
}

/**
 * Calls a route of the backend: its answer checked against the route's schema (contract/responses.ts). One that does
 * not match is a failure (502) with the call's message, `fallback`, as is a backend that does not answer (503); an
 * error answer gives the backend's message, else `fallback`.
 */
export async function callBackend<K extends BackendRoute>(request: Request, route: K, ...rest: Rest<K, CallInit<K>>): Promise<Outcome<BackendAnswer<K>>> {
  const outcome = await callBackendWithHeaders(request, route, ...rest);
  return outcome.ok ? { ok: true, data: outcome.data } : outcome;
}

/**
 * A file the backend answers (a CSV download), passed on to the browser as it streams: its type and attachment name
 * kept, never cached. A failure is the backend's message (else `fallback`) as plain text, with its status.
 */
export async function relayDownload<K extends BackendStream>(request: Request, route: K, address: Address<K>, fallback: string): Promise<Response> {
  const text = { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" };
  const { method, path } = backendAddress(route, address as LooseAddress);
  let response: Response;
  try {
    response = await backendFetch(request, path, { method });
  } catch {
    return new Response(`${fallback}\n`, { status: 503, headers: text });
  }
  if (response.status === 401) {
    await response.body?.cancel();
    throw await sessionEnded(request);
  }
  if (!response.ok) return new Response(`${await backendMessage(response, fallback)}\n`, { status: response.status, headers: text });
  const headers = new Headers({ "cache-control": "private, no-store" });
  for (const name of ["content-type", "content-disposition"]) {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(response.body, { status: 200, headers });
}
