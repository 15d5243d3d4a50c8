import { Hono } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { listHandler } from "./list-route.js";
import { listConnectors } from "../db/lists.js";

export const connectorsRoutes = new Hono<ApiEnv>();
connectorsRoutes.use("/connectors/*", requireSession);

connectorsRoutes.get("/connectors/list", listHandler(listConnectors));
