import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Request, Response } from "express";
import { createProxyMiddleware } from "http-proxy-middleware";

/**
 * <APP_URL>/api/* (the public API /api/v1 and its reference page /api/docs) forwarded to the backend as it came, with
 * http-proxy-middleware, so that an API client needs only the app's public URL. Mounted at /api (Express strips it:
 * the target keeps it). The cookie is not forwarded: the public API takes bearer keys only. The backend sets these
 * answers' own security headers.
 */
export function apiProxy(backendUrl: string) {
  return createProxyMiddleware<Request, Response>({
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
}
