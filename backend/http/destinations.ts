import { Hono } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { jsonBody } from "../lib/requests.js";
import { listHandler } from "./list-route.js";
import { listDestinations } from "../db/lists.js";
import { createDestination, deleteDestination, getDestination, listDestinations as listAllDestinations, updateDestination } from "../services/destinations.js";
import { presentDestination } from "../present/destinations.js";

export const destinationsRoutes = new Hono<ApiEnv>();
destinationsRoutes.use("/destinations/*", requireSession);

destinationsRoutes.get("/destinations/list", listHandler("destinations", listDestinations, presentDestination));

destinationsRoutes.get("/destinations/list-all", async (c) => c.json((await listAllDestinations(c.var.services, c.var.actor)).map((d) => presentDestination(d))));

destinationsRoutes.get("/destinations/list-by-id/:id", async (c) => c.json(presentDestination(await getDestination(c.var.services, c.var.actor, c.req.param("id")))));

/** POST /destinations/create: the rules are createDestination's (backend/services/destinations.ts). */
destinationsRoutes.post("/destinations/create", async (c) => {
  const created = await createDestination(c.var.services, c.var.actor, await jsonBody(c));
  return c.json({ status: "success", message: "Destination created", destination_id: created.id, destination: presentDestination(created) }, 201);
});

destinationsRoutes.put("/destinations/update/:id", async (c) => {
  const updated = await updateDestination(c.var.services, c.var.actor, c.req.param("id"), await jsonBody(c));
  return c.json({ status: "success", message: "Destination updated", destination: presentDestination(updated) });
});

destinationsRoutes.delete("/destinations/delete/:id", async (c) => {
  await deleteDestination(c.var.services, c.var.actor, c.req.param("id"));
  return c.json({ status: "success", message: "Destination deleted" });
});
