import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Hono } from "hono";
import type { PublicApiEnv } from "./env.js";

/**
 * /api/docs: the API reference, drawn by Swagger UI (swagger-ui-dist from the npm registry) from /api/v1/openapi.json.
 * Its script and stylesheet are served from our own origin, only on this page, whose Content-Security-Policy allows
 * exactly them (no inline script: the start-up is a file of its own).
 */
const dist = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const ASSETS: Record<string, { file: string; type: string }> = {
  "swagger-ui-bundle.js": { file: "swagger-ui-bundle.js", type: "text/javascript; charset=utf-8" },
  "swagger-ui.css": { file: "swagger-ui.css", type: "text/css; charset=utf-8" },
};
const cache = new Map<string, string>();
const asset = (name: string) => {
  let text = cache.get(name);
  if (text === undefined) cache.set(name, (text = readFileSync(path.join(dist, ASSETS[name]!.file), "utf8")));
  return text;
};

const START = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({ url: "/api/v1/openapi.json", dom_id: "#reference", deepLinking: true });
});`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tributary API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<main id="reference"><noscript><p>This reference needs JavaScript. The document itself: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></noscript></main>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/start.js"></script>
</body>
</html>`;

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const docsRoutes = new Hono<PublicApiEnv>();
docsRoutes.use("/docs/*", async (c, next) => {
  await next();
  c.header("Content-Security-Policy", CSP);
  c.header("X-Content-Type-Options", "nosniff");
});
docsRoutes.get("/docs", (c) => c.html(PAGE));
docsRoutes.get("/docs/assets/start.js", (c) => c.body(START, 200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600" }));
docsRoutes.get("/docs/assets/:name{swagger-ui-bundle\\.js|swagger-ui\\.css}", (c) => {
  const name = c.req.param("name");
  return c.body(asset(name), 200, { "content-type": ASSETS[name]!.type, "cache-control": "public, max-age=86400" });
});
