import { Readable } from "node:stream";
import { Agent, request as undiciRequest } from "undici";
import { backendErrorSchema } from "@contract/responses";
import { env } from "./env.server";

/**
 * One keep-alive connection pool to the backend for the whole app process.
 * undici's `request` instead of global `fetch`: fetch builds a WHATWG
 * Request/Response and streams for every call, which cost the list pages about
 * a tenth of their render CPU (docs/decisions/2026-11-22-page-performance.md).
 */
let agent: Agent | undefined;
const pool = () => (agent ??= new Agent({ keepAliveTimeout: 30_000, connections: 64 }));

/**
 * Calls the backend on behalf of the browser: the browser's Cookie header goes
 * along (the backend's session cookie is in it); Set-Cookie answers are for the
 * caller to relay (see relaySetCookie). Answers as a standard Response.
 */
export async function backendFetch(request: Request, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const cookie = request.headers.get("cookie");
  if (cookie) headers.cookie = cookie;
  headers.accept = "application/json";
  let body = init.body;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  }
  const encoded = await requestBody(body);
  if (encoded?.contentType && !headers["content-type"]) headers["content-type"] = encoded.contentType;
  const method = (init.method ?? "GET").toUpperCase();
  const answer = await undiciRequest(new URL(path, env().backendUrl), {
    method: method as "GET",
    headers,
    body: encoded?.data,
    dispatcher: pool(),
    signal: init.signal ?? undefined,
  });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one);
  }
  const bytes = await answer.body.arrayBuffer();
  // A Response cannot carry a body with 204/205/304, nor a status outside 200–599.
  const bodyless = answer.statusCode === 204 || answer.statusCode === 205 || answer.statusCode === 304;
  return new Response(bodyless ? null : bytes, { status: answer.statusCode, headers: responseHeaders });
}

/**
 * Opens a stream the backend answers for the browser (its cookie goes along), without reading it: the status, and the
 * body as it comes, until `signal` aborts it. Streams have their own connections (they stay open for minutes; the
 * page calls' pool is not theirs to hold), and no body timeout (the backend sends a keep-alive comment now and then).
 */
let streams: Agent | undefined;
export async function backendStream(request: Request, path: string, signal: AbortSignal): Promise<{ status: number; body: ReadableStream<Uint8Array> }> {
  const cookie = request.headers.get("cookie");
  const answer = await undiciRequest(new URL(path, env().backendUrl), {
    method: "GET",
    headers: { accept: "text/event-stream", ...(cookie ? { cookie } : {}) },
    dispatcher: (streams ??= new Agent({ keepAliveTimeout: 5_000, bodyTimeout: 0 })),
    signal,
  });
  return { status: answer.statusCode, body: Readable.toWeb(answer.body) as ReadableStream<Uint8Array> };
}

/** The request bodies the app sends: JSON text, form data (multipart/url-encoded) or nothing. */
async function requestBody(body: RequestInit["body"]): Promise<{ data: string | Buffer; contentType?: string } | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return { data: body };
  // FormData, URLSearchParams, Blob…: let the platform encode it, with its content type (multipart boundary).
  const encoded = new Response(body);
  return { data: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type") ?? undefined };
}

/** The Set-Cookie headers of a backend answer, to pass on to the browser. */
export function relaySetCookie(from: Response, to: Headers = new Headers()): Headers {
  for (const value of from.headers.getSetCookie()) to.append("set-cookie", value);
  return to;
}

/** The `message` of a backend error answer (contract/responses.ts backendErrorSchema), or a fallback. */
export async function backendMessage(response: Response, fallback: string): Promise<string> {
  try {
    const parsed = backendErrorSchema.safeParse(await response.json());
    return parsed.success && parsed.data.message ? parsed.data.message : fallback;
  } catch {
    return fallback;
  }
}
