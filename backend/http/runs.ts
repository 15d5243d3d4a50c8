import { Hono } from "hono";
import { dataVersionOf, requireSession, type ApiEnv } from "./context.js";

export const runsRoutes = new Hono<ApiEnv>();
runsRoutes.use("/runs/*", requireSession);

/**
 * GET /runs/version: the caller's data version, which every write of their runs (a status, the records so far) and
 * records moves (migration 0004). The web server's event stream (app/routes/events.runs.tsx) asks about once a second
 * and tells the browser when it changed: one session lookup, nothing else read.
 */
runsRoutes.get("/runs/version", (c) => c.json({ version: dataVersionOf(c.var.user) }));
