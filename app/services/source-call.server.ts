import { redirect } from "@remix-run/node";
import { backendFetch, backendMessage } from "./backend.server";

/** A backend call's answer for the source pages: its body, or the message to show (the backend's, else the fallback). */
export type Result<T> = { ok: true; value: T } | { ok: false; message: string; status: number };

/** Calls the backend for the source pages and source plug-ins; a 401 sends the browser to sign in again. */
export async function call<T>(request: Request, path: string, init: RequestInit & { json?: unknown }, fallback: string): Promise<Result<T>> {
  let response: Response;
  try {
    response = await backendFetch(request, path, init);
  } catch {
    return { ok: false, message: fallback, status: 502 };
  }
  if (response.status === 401) {
    const url = new URL(request.url);
    throw redirect(`/?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  if (!response.ok) return { ok: false, message: await backendMessage(response, fallback), status: response.status };
  return { ok: true, value: (await response.json()) as T };
}
