import { Hono } from "hono";
import { requireSession, type ApiEnv } from "./context.js";

export const runsRoutes = new Hono<ApiEnv>();
runsRoutes.use("/runs/*", requireSession);

/**
 * GET /runs/version: the caller's data version, which every write of their runs (a status, the records so far) and
 * records moves (backend/db/changes.ts). The web server's event stream (app/routes/events.runs.tsx) asks about once a
 * second and tells the browser when it changed: one session lookup and a catch-up on the change feed (shared by every
 * caller waiting at that moment), nothing else read and nothing written.
 */
runsRoutes.get("/runs/version", async (c) => c.json({ version: await c.var.services.changes.freshVersion(c.var.user.id) }));
