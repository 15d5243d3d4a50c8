import { Hono } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { jsonBody } from "../lib/requests.js";
import { listHandler } from "./list-route.js";
import { listSources } from "../db/lists.js";
import { createSource, deleteSource, getSource, listSources as listAllSources, updateSource } from "../services/sources.js";
import { presentSource } from "../present/sources.js";

export const sourcesRoutes = new Hono<ApiEnv>();
sourcesRoutes.use("/sources/*", requireSession);

sourcesRoutes.get("/sources/list", listHandler("sources", listSources, presentSource));

sourcesRoutes.get("/sources/list-all", async (c) => c.json((await listAllSources(c.var.services, c.var.actor)).map((s) => presentSource(s))));

sourcesRoutes.get("/sources/list-by-id/:id", async (c) => c.json(presentSource(await getSource(c.var.services, c.var.actor, c.req.param("id")))));

/** POST /sources/create: the rules are createSource's (backend/services/sources.ts). */
sourcesRoutes.post("/sources/create", async (c) => c.json({ ...presentSource(await createSource(c.var.services, c.var.actor, await jsonBody(c))), message: "Source created" }, 201));

sourcesRoutes.put("/sources/update/:id", async (c) => {
  const source = await updateSource(c.var.services, c.var.actor, c.req.param("id"), await jsonBody(c));
  return c.json({ ...presentSource(source), message: "Source updated" });
});

sourcesRoutes.delete("/sources/delete/:id", async (c) => {
  await deleteSource(c.var.services, c.var.actor, c.req.param("id"));
  return c.json({ message: "Source deleted" });
});
