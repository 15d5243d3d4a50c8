import type { z } from "zod";
import { backendFetch, backendMessage } from "./http.server";
import { sessionEnded } from "./session.server";

/**
 * The app's one client of the backend (spec §7): every call a page makes goes through callBackend, with the
 * browser's cookies. The resource modules (sources, destinations, connectors, transforms .server.ts) name the
 * calls; routes never build a backend path. One rule for a 401: the session is over, so the user is forgotten and
 * sent to sign in, the page they were on remembered.
 */

/** The outcome of a backend call: its JSON body, or the message to show (the backend's, else the call's own). */
export type Outcome<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

export interface CallInit<T> {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  json?: unknown;
  /** The contract schema the answer must match: one that does not is a failure (502) with the call's message. */
  schema?: z.ZodType<T, z.ZodTypeDef, unknown>;
}

export async function callBackend<T>(request: Request, path: string, init: CallInit<T> = {}, fallback = "Something went wrong. Please try again."): Promise<Outcome<T>> {
  let response: Response;
  try {
    response = await backendFetch(request, path, { method: init.method ?? "GET", ...(init.json !== undefined ? { json: init.json } : {}) });
  } catch {
    return { ok: false, status: 503, message: fallback };
  }
  if (response.status === 401) {
    await response.body?.cancel();
    throw await sessionEnded(request);
  }
  if (!response.ok) return { ok: false, status: response.status, message: await backendMessage(response, fallback) };
  const body: unknown = response.status === 204 ? null : await response.json().catch(() => undefined);
  if (!init.schema) return { ok: true, data: body as T };
  const parsed = init.schema.safeParse(body);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, status: 502, message: fallback };
}

/**
 * A file the backend answers (a CSV download), passed on to the browser as it streams: its type and attachment name
 * kept, never cached. A failure is the backend's message (else `fallback`) as plain text, with its status.
 */
export async function relayDownload(request: Request, path: string, fallback: string): Promise<Response> {
  const text = { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" };
  let response: Response;
  try {
    response = await backendFetch(request, path, { method: "GET" });
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
