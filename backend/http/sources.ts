import { Hono } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { listHandler } from "./list-route.js";
import { listSources } from "../db/lists.js";

export const sourcesRoutes = new Hono<ApiEnv>();
sourcesRoutes.use("/sources/*", requireSession);

sourcesRoutes.get("/sources/list", listHandler(listSources));
