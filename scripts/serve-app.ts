import cluster from "node:cluster";
import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import type { ServerBuild } from "@remix-run/node";
import { env } from "../app/services/env.server.js";
import { pageCache } from "./page-cache.js";
import { apiProxy } from "./api-proxy.js";
import { cspNonce, DEFAULT_BODY_LIMIT_BYTES, declaredBodyLimit, remixHandler, requestErrors, sameOriginWrites, securityHeaders } from "./web-edge.js";

/**
 * The Remix server: built assets with long caching, everything else rendered
 * by the routes. Started by scripts/start.ts (or alone, with the same env).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * WEB_CONCURRENCY web server processes (default: one per CPU, at most 4) share the port through node:cluster.
 * Rendering a page is JavaScript on one thread: with a single process the web server saturates one core while the
 * backend and Postgres leave the other half idle (docs/decisions/2026-11-22-page-performance.md).
 */
function webConcurrency(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return Math.min(4, Math.max(1, os.availableParallelism()));
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`WEB_CONCURRENCY must be a whole number from 1 to 64 (got "${value}")`);
  return n;
}
function pageCacheBytes(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return 32 * 1024 * 1024;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 65_536) throw new Error(`PAGE_CACHE_MB must be a number of megabytes from 0 (off) to 65536 (got "${value}")`);
  return Math.round(n * 1024 * 1024);
}
function shutdownGraceMs(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return 30_000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`SHUTDOWN_GRACE_SECONDS must be a whole number of seconds, at least 1 (got "${value}")`);
  return n * 1000;
}
const processes = webConcurrency(process.env.WEB_CONCURRENCY);
const graceMs = shutdownGraceMs(process.env.SHUTDOWN_GRACE_SECONDS);
if (cluster.isPrimary && processes > 1) {
  await runPrimary(processes);
} else {
  await runServer();
}

/** Forks the web servers, replaces one that dies (unless it keeps dying), and stops them all on SIGINT/SIGTERM. */
async function runPrimary(count: number) {
  let stopping = false;
  const deaths: number[] = [];
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const now = Date.now();
    deaths.push(now);
    while (deaths.length && now - deaths[0]! > 60_000) deaths.shift();
    console.error(`web server process ${worker.process.pid} exited (${signal ?? `code ${code}`})`);
    // Crashing again and again (a broken build, a port in use): stop, so that the launcher reports it.
    if (deaths.length > 5) process.exit(1);
    cluster.fork();
  });
  let listening = 0;
  cluster.on("listening", () => {
    if (++listening === count) console.log(`app listening on port ${process.env.PORT ?? 3000} (${count} processes)`);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill("SIGTERM");
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  for (let i = 0; i < count; i++) cluster.fork();
}

async function runServer() {
  // The operator's NODE_ENV decides the production rules (app/services/env.server.ts); the launcher passes it too.
  process.env.TRIBUTARY_NODE_ENV ??= process.env.NODE_ENV;
  // The build is a production build: React must run in production mode too (development mode costs ~10x CPU per render).
  process.env.NODE_ENV = "production";
  const buildDir = path.resolve(root, process.env.TRIBUTARY_BUILD_DIR || "build");
  const build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as ServerBuild;

  const app = express();
  app.disable("x-powered-by");
  const appUrl = env().appUrl;
  /** Aborted on SIGTERM: /readyz answers 503, and the run event streams end (their browsers reconnect elsewhere). */
  const stopping = new AbortController();
  // For a load balancer: /healthz says this process answers (nothing else is asked); /readyz that it should get
  // traffic: it is not stopping, and the backend says it is ready (its database answers).
  app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
  app.get("/readyz", (_req, res, next) => void ready(stopping.signal, env().backendUrl).then(({ status, body }) => res.status(status).json(body), next));
  // The public API and its reference page go to the backend as they came (scripts/api-proxy.ts): bearer keys, not the
  // app's cookies or same-origin rules; the backend sets those answers' own headers (CSP included).
  app.use("/api", apiProxy(env().backendUrl));
  // The edge first, so that every answer (assets, refusals, redirects) carries the security headers, and a refused
  // body or a cross-site write is answered before anything reads it (scripts/web-edge.ts).
  app.use(cspNonce());
  app.use(securityHeaders(appUrl));
  app.use(declaredBodyLimit(DEFAULT_BODY_LIMIT_BYTES));
  app.use(sameOriginWrites(new URL(appUrl).origin));
  // Brotli's default 4 MB window costs far more CPU than these ~80 KB pages gain from it; 256 KB compresses
  // them to the same size at under half the CPU. Quality 3 instead of compression's 4: half the CPU again
  // (0.28 instead of 0.60 ms for a 73 KB list page) for an answer 8% larger (11.5 instead of 10.6 KB).
  app.use(
    compression({
      brotli: {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 3,
          [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
        },
      },
    })
  );
  // Remix's adapter flushes after every chunk of a body, which makes the compressor close a block each time
  // (twice the bytes, more CPU). Documents are one chunk now (app/entry.server.tsx), but client navigations'
  // `.data` answers still come in many; nothing is streamed late, so one compressed stream per response is right.
  app.use((_req, res, next) => {
    (res as unknown as { flush?: () => void }).flush = () => {};
    next();
  });
  // Scripts and stylesheets as compressed at build time (vite.config.ts): no compression per request.
  app.use(
    "/assets",
    expressStaticGzip(path.join(buildDir, "client/assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      index: false,
      serveStatic: { immutable: true, maxAge: "1y", index: false },
    })
  );
  // The few top-level public files (favicon…), looked up in a set: a static middleware on "/" would stat the
  // disk for every page request.
  const publicDir = path.join(buildDir, "client");
  const publicFiles = new Set(
    readdirSync(publicDir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => `/${e.name}`)
  );
  const publicStatic = express.static(publicDir, {
    maxAge: "1h",
    index: false,
  });
  app.use((req, res, next) => (publicFiles.has(req.path) ? publicStatic(req, res, next) : next()));
  // The list pages, kept while the user's data is unchanged (scripts/page-cache.ts): PAGE_CACHE_MB per process.
  app.use(
    pageCache({
      backendUrl: env().backendUrl,
      paths: ["/connectors", "/sources", "/destinations", "/transforms"],
      maxBytes: pageCacheBytes(process.env.PAGE_CACHE_MB),
    })
  );
  // Always "production": never send stack traces to browsers. A body without a declared length is counted as it streams.
  app.all(
    "*",
    remixHandler({
      build,
      bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
      getLoadContext: (_req, res) => ({ pageCache: res.locals.pageCache, cspNonce: res.locals.cspNonce, serverStopping: stopping.signal }),
    }),
  );
  // An address Express cannot decode (/%E0%A4%A): a 400 with a sentence and one log line, not a stack trace.
  app.use(requestErrors());

  const port = Number(process.env.PORT ?? 3000);
  const onListening = () => {
    if (!cluster.isWorker) console.log(`app listening on port ${port}`);
  };
  const server = process.env.HOST ? app.listen(port, process.env.HOST, onListening) : app.listen(port, onListening);
  server.keepAliveTimeout = 65_000;
  // No new connections; requests in flight get SHUTDOWN_GRACE_SECONDS to finish (close() ends idle keep-alive
  // connections, and each busy one once its answer is sent).
  const stop = () => {
    if (stopping.signal.aborted) return;
    stopping.abort();
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), graceMs).unref();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // A worker whose primary is gone (killed) must not live on, holding the port.
  if (cluster.isWorker) process.on("disconnect", () => process.exit(0));
}

/** /readyz of the web server: 503 while it stops, else the backend's own /readyz answer (503 when it cannot be asked). */
async function ready(stopping: AbortSignal, backendUrl: string): Promise<{ status: number; body: { status: string; message?: string } }> {
  if (stopping.aborted) return { status: 503, body: { status: "unavailable", message: "This web server process is shutting down." } };
  try {
    const answer = await fetch(new URL("/readyz", backendUrl), { signal: AbortSignal.timeout(2_000) });
    const body = (await answer.json().catch(() => null)) as { message?: unknown } | null;
    if (answer.ok) return { status: 200, body: { status: "ready" } };
    return { status: 503, body: { status: "unavailable", message: `The backend is not ready: ${typeof body?.message === "string" ? body.message : `it answered ${answer.status}`}` } };
  } catch {
    return { status: 503, body: { status: "unavailable", message: "The backend does not answer." } };
  }
}
