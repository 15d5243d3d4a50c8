import { randomBytes } from "node:crypto";
import http from "node:http";
import { Transform, type TransformCallback } from "node:stream";
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";
import helmet from "helmet";
import { createReadableStreamFromReadable, createRequestHandler as createRemixRequestHandler, writeReadableStreamToWritable } from "@remix-run/node";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";

/**
 * The web server's edge: what every request meets before Remix renders anything (security headers, the body
 * limit, the same-origin check on writes), and the Remix request handler that streams a counted body.
 * Decision record: docs/decisions/2026-11-25-web-edge.md.
 */

/**
 * The largest body the web server takes. Its forms are short fields (names, descriptions, e-mail addresses,
 * keyword lists, a Snowflake password); the largest legitimate one is a few KB, so 256 KB leaves ample room.
 */
export const DEFAULT_BODY_LIMIT_BYTES = 256 * 1024;

export const MESSAGES = {
  tooLarge: "This request is too large for Tributary to accept (at most 256 KB). Please shorten what you entered and try again.",
  crossSite: "This form was sent from another site, so Tributary did not accept it. Please go back to Tributary and try again.",
  badAddress: "This address cannot be read: it holds a broken %-escape. Please check the link and try again.",
} as const;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function tooLargeMessage(limit: number): string {
  return limit === DEFAULT_BODY_LIMIT_BYTES ? MESSAGES.tooLarge : MESSAGES.tooLarge.replace("256 KB", `${Math.floor(limit / 1024)} KB`);
}

/** How long the rest of a refused body is read and dropped before the connection is closed. */
const DRAIN_MS = 2_000;

/**
 * Answers with a short plain sentence. The rest of a refused body is read and dropped (never kept) for a moment:
 * closing a connection the client is still writing to resets it, and a reset can discard the answer before the
 * client reads it. A client still sending after that is cut off.
 */
function refuse(req: Request, res: Response, status: number, message: string) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status);
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(message);
  if (!req.complete) {
    req.resume();
    const socket = req.socket;
    const timer = setTimeout(() => {
      if (!req.complete) socket.destroy();
    }, DRAIN_MS);
    timer.unref();
    req.once("end", () => clearTimeout(timer));
    socket.once("close", () => clearTimeout(timer));
  }
}

/** A declared body over the limit is refused before any of it is read. */
export function declaredBodyLimit(limit: number): RequestHandler {
  return (req, res, next) => {
    // Node's parser has already refused a malformed or repeated Content-Length with 400.
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) > limit) return refuse(req, res, 413, tooLargeMessage(limit));
    next();
  };
}

/**
 * Writes (anything but GET/HEAD/OPTIONS) only from the app's own pages: a request whose Origin is present and is
 * not APP_URL's origin, or that the browser marks as cross-site, is refused here. Remix's own check would throw
 * (a 500). A request without Origin (an old browser, a script) goes on; the session cookie is SameSite=Lax.
 */
export function sameOriginWrites(appOrigin: string): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    const site = req.headers["sec-fetch-site"];
    if ((origin !== undefined && origin !== appOrigin) || site === "cross-site") return refuse(req, res, 403, MESSAGES.crossSite);
    next();
  };
}

/** A fresh nonce per response, for the Content-Security-Policy and the page's own inline scripts. */
export function cspNonce(): RequestHandler {
  return (_req, res, next) => {
    res.locals.cspNonce = randomBytes(18).toString("base64");
    next();
  };
}

/**
 * Security headers on every answer. Scripts: the app's own files and the inline scripts that carry this
 * response's nonce (Remix's hydration data, the layout's two small scripts). Styles allow inline: mermaid puts a
 * <style> into each diagram's SVG and sets style attributes, and styles cannot run code. No form-action: the
 * sign-in and the providers' "Authenticate" forms redirect to the identity providers, whose origins are configured.
 */
export function securityHeaders(appUrl: string): RequestHandler {
  const https = new URL(appUrl).protocol === "https:";
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce as string}'`],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Sent only over https: on http://localhost it would make the browser refuse every other local http port.
    strictTransportSecurity: https ? { maxAge: 180 * 24 * 60 * 60, includeSubDomains: false } : false,
    xFrameOptions: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xContentTypeOptions: true,
    // Would require every embedded resource to opt in; the app embeds nothing from elsewhere, so it protects nothing.
    crossOriginEmbedderPolicy: false,
    // The app opens no windows; helmet's default COOP/CORP/Origin-Agent-Cluster left the browser tests' pages
    // unresponsive after an accessibility check, for no protection this app needs.
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
  });
}

class BodyTooLarge extends Error {}

/** Passes a body through while counting it, and fails as soon as it passes the limit. */
class CountedBody extends Transform {
  private seen = 0;
  constructor(
    private readonly limit: number,
    private readonly onTooLarge: () => void,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.seen += chunk.length;
    if (this.seen > this.limit) {
      this.onTooLarge();
      callback(new BodyTooLarge("request body too large"));
      return;
    }
    callback(null, chunk);
  }
}

export interface RemixHandlerOptions {
  build: ServerBuild;
  bodyLimit: number;
  getLoadContext: (req: Request, res: Response) => AppLoadContext;
}

/**
 * @remix-run/express's handler, except that the request body Remix reads is counted as it streams: past the
 * limit the client gets 413 at once, the action's request is aborted, and nothing more of the body is read.
 * (A body with an unknown length, chunked, is never buffered whole.)
 */
export function remixHandler({ build, bodyLimit, getLoadContext }: RemixHandlerOptions): RequestHandler {
  const handleRequest = createRemixRequestHandler(build, "production");
  return async (req: Request, res: Response, next: NextFunction) => {
    const controller = new AbortController();
    let refused = false;
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    try {
      const init: RequestInit & { duplex?: "half" } = { method: req.method, headers: requestHeaders(req), signal: controller.signal };
      if (req.method !== "GET" && req.method !== "HEAD") {
        const counted = new CountedBody(bodyLimit, () => {
          refused = true;
          req.unpipe(counted);
          refuse(req, res, 413, tooLargeMessage(bodyLimit));
          controller.abort();
        });
        req.pipe(counted);
        init.body = createReadableStreamFromReadable(counted);
        init.duplex = "half";
      }
      const request = new Request(requestUrl(req), init);
      // The connection's own signal, held by this handler: the Request's copy in a loader follows it only weakly.
      const response = await handleRequest(request, { ...getLoadContext(req, res), connectionClosed: controller.signal });
      if (refused || res.headersSent) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      await send(res, response);
    } catch (error) {
      // The body was refused: the 413 is the answer, whatever the aborted action threw.
      if (refused) return;
      next(error);
    }
  };
}

/** The URL as @remix-run/express builds it (host and port from X-Forwarded-Host or Host). */
function requestUrl(req: Request): string {
  const forwardedPort = req.get("X-Forwarded-Host")?.split(":")[1];
  const hostPort = req.get("host")?.split(":")[1];
  const port = [forwardedPort, hostPort].map((p) => Number.parseInt(p ?? "", 10)).find((p) => Number.isSafeInteger(p));
  return new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`).href;
}

function requestHeaders(req: Request): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value) headers.set(name, value);
  }
  return headers;
}

/** As @remix-run/express sends an answer (its helpers are not in its type declarations). */
async function send(res: Response, response: globalThis.Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/**
 * The last error handler: a request the server could not even route (an address with a broken %-escape, which Express
 * fails to decode with a 400) is answered with a sentence and logged in one line, without a stack trace; anything
 * else goes to Express's own handler (a 500 without details, the stack in the log).
 */
export function requestErrors(): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    const status = (error as { status?: unknown }).status;
    if (typeof status !== "number" || status < 400 || status > 499) return next(error);
    const path = req.originalUrl.split("?")[0]!.slice(0, 200);
    console.warn(`web: ${status} for ${req.method} ${JSON.stringify(path)}: ${error instanceof Error ? error.message.split("\n")[0]!.slice(0, 200) : "refused"}`);
    refuse(req, res, status, error instanceof URIError ? MESSAGES.badAddress : (http.STATUS_CODES[status] ?? "Bad request"));
  };
}
