import { Hono } from "hono";
import { ApiError, requireSession, type ApiEnv } from "./context.js";
import { listHandler } from "./list-route.js";
import { listTransforms } from "../db/lists.js";
import { deleteTransform, findTransform } from "../db/transforms.js";

export const transformsRoutes = new Hono<ApiEnv>();
transformsRoutes.use("/transforms/*", requireSession);

transformsRoutes.get("/transforms/list", listHandler(listTransforms));

transformsRoutes.delete("/transforms/delete/:id", async (c) => {
  if (!(await deleteTransform(c.var.services.db, c.var.user.id, c.req.param("id")))) throw new ApiError(404, "Transform not found");
  return c.json({ message: "Transform deleted" });
});

// Registered last: "/transforms/:id" would otherwise shadow "/transforms/list".
transformsRoutes.get("/transforms/:id", async (c) => {
  const transform = await findTransform(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (!transform) throw new ApiError(404, "Transform not found");
  return c.json(transform);
});
