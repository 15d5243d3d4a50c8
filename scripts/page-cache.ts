import { createHash } from "node:crypto";
import zlib from "node:zlib";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { Agent, request as undiciRequest } from "undici";
import { DATA_VERSION_HEADER } from "../contract/auth.js";
// What a page's loaders tell the cache through Remix's load context: left null (an error block), the page is not kept.
import type { PageCacheSlot } from "../app/services/page-cache.server.js";


interface Entry {
  version: string;
  /**
   * The answer's headers as Remix set them, without the ones that depend on the encoding. They include the
   * Content-Security-Policy, whose script nonce is the one in `body`: a kept page goes out with its own policy,
   * never with the nonce made for the request that asks for it (scripts/web-edge.ts).
   */
  headers: [string, string | string[] | number][];
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export interface PageCacheOptions {
  backendUrl: string;
  /** Exact paths whose documents may be kept (the list pages). */
  paths: Iterable<string>;
  /** Memory for kept pages in this process; 0 turns the cache off. */
  maxBytes: number;
  /** A page not asked for in this long is dropped. */
  ttlMs?: number;
}

/** Headers that describe the bytes on the wire, set again for each answer. */
const WIRE_HEADERS = new Set(["content-length", "content-encoding", "vary", "transfer-encoding", "etag", "set-cookie"]);
const BROTLI = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 },
};

/**
 * Keeps the rendered documents of the list pages, per URL and Cookie header, with the data version they were
 * rendered from. A kept page is sent again only after the backend has checked the same cookie's session
 * (`GET /validate-session`) and answered the same data version: every write to what the lists show changes it
 * (migration 0010's triggers notify the backend processes on commit; the session check first catches up with every
 * change committed before it: backend/db/changes.ts), and the loaders read it before their data, so a page is never
 * older than the version it is kept under. A version is one backend process's: behind several, a page is sent again
 * only when the process that rendered it answers the check (else it renders again). Anything else renders as before: another answer than 200, a
 * Set-Cookie, a page whose loaders did not vouch for it, a request with `Cache-Control: no-cache` (a hard reload).
 * Decision record: docs/decisions/2026-11-22-page-performance.md (session 10).
 */
export function pageCache(options: PageCacheOptions): RequestHandler {
  const paths = new Set(options.paths);
  if (options.maxBytes <= 0) return (_req, res, next) => next();
  const pages = new LRUCache<string, Entry>({
    maxSize: options.maxBytes,
    // The raw page and, once asked for, its compressed forms (about a fifth of it together).
    sizeCalculation: (entry) => Math.ceil(entry.body.length * 1.25) + 256,
    ttl: options.ttlMs ?? 10 * 60_000,
  });
  const backend = new Agent({ keepAliveTimeout: 30_000, connections: 16 });
  const versionUrl = new URL("/validate-session", options.backendUrl);

  /** The data version the backend answers for this cookie's session; null when it is not a valid session. */
  async function currentVersion(cookie: string): Promise<string | null> {
    const answer = await undiciRequest(versionUrl, { headers: { cookie, accept: "application/json" }, dispatcher: backend });
    await answer.body.dump();
    const version = answer.headers[DATA_VERSION_HEADER.toLowerCase()];
    return answer.statusCode === 200 && typeof version === "string" ? version : null;
  }

  // Express 4 does not catch a rejected promise from a middleware: any error goes to `next`.
  return (req, res, next) => void lookUp(req, res, next).catch(next);

  async function lookUp(req: Request, res: Response, next: NextFunction) {
    const cookie = req.headers.cookie;
    if (req.method !== "GET" || !cookie || !paths.has(req.path)) return next();
    const slot: PageCacheSlot = { version: null };
    res.locals.pageCache = slot;
    const key = createHash("sha256").update(req.originalUrl).update("\n").update(cookie).digest("base64url");
    const fresh = /no-cache/i.test(String(req.headers["cache-control"] ?? "")) || /no-cache/i.test(String(req.headers.pragma ?? ""));
    const kept = fresh ? undefined : pages.get(key);
    if (kept) {
      let current: string | null = null;
      try {
        current = await currentVersion(cookie);
      } catch {
        // The backend cannot be asked: the page renders, and shows what that render can.
      }
      if (current === kept.version) return send(req, res, kept);
      pages.delete(key);
    }
    keep(res, (body) => {
      if (res.statusCode !== 200 || !slot.version || res.getHeader("set-cookie") !== undefined) return;
      const headers = Object.entries(res.getHeaders())
        .filter(([name, value]) => value !== undefined && !WIRE_HEADERS.has(name))
        .map(([name, value]) => [name, value] as Entry["headers"][number]);
      pages.set(key, { version: slot.version, headers, body });
    });
    next();
  }
}

/** Sends a kept page in the encoding the browser prefers (compressed once per page and encoding). */
function send(req: Request, res: Response, entry: Entry) {
  const encoding = req.acceptsEncodings("br", "gzip", "identity");
  let body = entry.body;
  if (encoding === "br") body = entry.br ??= zlib.brotliCompressSync(entry.body, BROTLI);
  else if (encoding === "gzip") body = entry.gzip ??= zlib.gzipSync(entry.body, { level: 6 });
  res.status(200);
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding");
  if (encoding === "br" || encoding === "gzip") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.setHeader("X-Page-Cache", "hit");
  res.end(body);
}

/** Calls `done` with the whole body as written (before compression) when the answer ends. */
function keep(res: Response, done: (body: Buffer) => void) {
  const chunks: Buffer[] = [];
  const write = res.write;
  const end = res.end;
  const collect = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === "string") chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk)); // a copy: the writer may reuse its buffer
  };
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response["write"];
  res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
    if (chunk !== undefined && typeof chunk !== "function") collect(chunk, rest[0]);
    try {
      done(Buffer.concat(chunks));
    } catch {
      // Not kept: the answer itself goes out as it is.
    }
    return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
  } as Response["end"];
}
