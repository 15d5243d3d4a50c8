import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Request, RequestHandler, Response } from "express";
import { createProxyMiddleware } from "http-proxy-middleware";
import { API_MESSAGES, type ApiErrorBody } from "../contract/api.js";

/**
 * <APP_URL>/api/* (the public API /api/v1 and its reference page /api/docs) forwarded to the backend, with
 * http-proxy-middleware, so that an API client needs only the app's public URL. Mounted at /api (Express strips it:
 * the target keeps it). Only those two reach the backend, checked on the path the backend will route (publicApiPath):
 * `/api/../validate-session` or `/api/%2e%2e/readyz` would otherwise reach the app's own session backend. The cookie is
 * not forwarded: the public API takes bearer keys only. The backend sets these answers' own security headers.
 */
export function apiProxy(backendUrl: string): RequestHandler {
  const proxy = createProxyMiddleware<Request, Response>({
    target: new URL("/api", backendUrl).href,
    xfwd: true,
    on: {
      proxyReq: (proxyReq) => proxyReq.removeHeader("cookie"),
      error: (_error, _req, res) => {
        if (!("writeHead" in res)) return void (res as Socket).destroy();
        const answer = res as ServerResponse;
        if (answer.headersSent) return void answer.destroy();
        answer.writeHead(502, { "content-type": "application/json" });
        answer.end(JSON.stringify({ error: { code: "unavailable", message: "The backend does not answer. Try again in a moment." } }));
      },
    },
  });
  return (req, res, next) => {
    const path = publicApiPath(req.url);
    if (path === null) {
      const asked = req.originalUrl.split("?")[0]!.slice(0, 300);
      const body: ApiErrorBody = { error: { code: "not_found", message: API_MESSAGES.noRoute(req.method, asked) } };
      res.status(404).set({ "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" }).json(body);
      return;
    }
    req.url = path;
    return proxy(req, res, next);
  };
}

/** The paths under /api the backend serves to the public: the API and its reference page. */
const PUBLIC_PATH = /^\/(?:v1|docs)(?:\/|$)/;

/**
 * A request's path under /api (`url`, the mount stripped) as the backend will route it, with its query as sent; null
 * when it is not under /v1 or /docs there. Encoded slashes and backslashes (%2f, %5c, \) are read as slashes, then dot
 * segments are resolved by the WHATWG URL parser, which also reads %2e as a dot, as the backend's own URL parsing does.
 * What is checked is what is forwarded: the resolved path.
 */
export function publicApiPath(url: string): string | null {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? "" : url.slice(queryAt);
  if (!path.startsWith("/")) return null;
  let resolved: string;
  try {
    resolved = new URL(`http://api.invalid${path.replace(/%2f|%5c|\\/gi, "/")}`).pathname;
  } catch {
    return null;
  }
  return PUBLIC_PATH.test(resolved) ? resolved + query : null;
}
