import { Hono } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { listHandler } from "./list-route.js";
import { listDestinations } from "../db/lists.js";

export const destinationsRoutes = new Hono<ApiEnv>();
destinationsRoutes.use("/destinations/*", requireSession);

destinationsRoutes.get("/destinations/list", listHandler(listDestinations));
