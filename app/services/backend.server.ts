import { env } from "./env.server";

/**
 * Calls the backend on behalf of the browser: the browser's Cookie header goes
 * along (the backend's session cookie is in it); Set-Cookie answers are for the
 * caller to relay (see relaySetCookie).
 */
export async function backendFetch(request: Request, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);
  headers.set("accept", "application/json");
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return fetch(new URL(path, env().backendUrl), { ...init, headers, body, redirect: "manual" });
}

/** The Set-Cookie headers of a backend answer, to pass on to the browser. */
export function relaySetCookie(from: Response, to: Headers = new Headers()): Headers {
  for (const value of from.headers.getSetCookie()) to.append("set-cookie", value);
  return to;
}

/** The `message` of a backend error answer, or a fallback. */
export async function backendMessage(response: Response, fallback: string): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === "string" && body.message ? body.message : fallback;
  } catch {
    return fallback;
  }
}
