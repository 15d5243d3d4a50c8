import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";

/**
 * The Remix server: built assets with long caching, everything else rendered
 * by the routes. Started by scripts/start.ts (or alone, with the same env).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The build is a production build: React must run in production mode too (development mode costs ~10x CPU per render).
process.env.NODE_ENV = "production";
const buildDir = path.resolve(root, process.env.TRIBUTARY_BUILD_DIR || "build");
const build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as ServerBuild;

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/assets", express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }));
app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));
// Always "production": never send stack traces to browsers.
app.all("*", createRequestHandler({ build, mode: "production" }));

const port = Number(process.env.PORT ?? 3000);
const onListening = () => console.log(`app listening on port ${port}`);
const server = process.env.HOST ? app.listen(port, process.env.HOST, onListening) : app.listen(port, onListening);
server.keepAliveTimeout = 65_000;
const stop = () => server.close(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
