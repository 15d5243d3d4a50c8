import { Hono } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { listHandler } from "./list-route.js";
import { listTransforms } from "../db/lists.js";

export const transformsRoutes = new Hono<ApiEnv>();
transformsRoutes.use("/transforms/*", requireSession);

transformsRoutes.get("/transforms/list", listHandler(listTransforms));
