import { Hono } from "hono";
import { ApiError, jsonBody, parse, requireSession, type ApiEnv } from "./context.js";
import { listHandler } from "./list-route.js";
import { listSources } from "../db/lists.js";
import { deleteSource, findCredential, findSource, insertSource, listAllSources, settingInUse, updateSource, type SourceRecord } from "../db/sources.js";
import { createSourceBodySchema, SOURCE_MESSAGES, updateSourceBodySchema } from "../../contract/sources.js";
import { needsVerification } from "../../contract/integrations/sources.js";
import { credentialVerified, sourcePlugin } from "../integrations/sources/index.js";
import { presentSource } from "./present/sources.js";

export const sourcesRoutes = new Hono<ApiEnv>();
sourcesRoutes.use("/sources/*", requireSession);

sourcesRoutes.get("/sources/list", listHandler("sources", listSources, presentSource));

sourcesRoutes.get("/sources/list-all", async (c) => c.json((await listAllSources(c.var.services.db, c.var.user.id)).map((s) => presentSource(s))));

sourcesRoutes.get("/sources/list-by-id/:id", async (c) => {
  const source = await findSource(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (!source) throw new ApiError(404, SOURCE_MESSAGES.notFound);
  return c.json(presentSource(source));
});

/**
 * POST /sources/create: the credential must be the caller's, of the chosen
 * integration, and verified where its manifest requires it, for the very setup
 * the source names. A source starts "active": it exists only once its
 * setup is complete (docs/decisions/2026-11-22-source-status.md).
 */
sourcesRoutes.post("/sources/create", async (c) => c.json({ ...presentSource(await createSourceFor(c, await jsonBody(c))), message: "Source created" }, 201));

/** The rules of POST /sources/create (and of the public API's POST /api/v1/sources): the caller's source, made. */
export async function createSourceFor(c: { var: ApiEnv["Variables"] }, raw: unknown): Promise<SourceRecord> {
  const body = parse(createSourceBodySchema, raw);
  const { db } = c.var.services;
  const ownerId = c.var.user.id;
  const credential = await findCredential(db, ownerId, body.credentialId, body.integration_name);
  if (!credential) throw new ApiError(400, SOURCE_MESSAGES.mustAuthenticate);
  const metadata = body.source_metadata;
  const plugin = sourcePlugin(body.integration_name)!;
  if (needsVerification(body.integration_name, metadata) && !credentialVerified(plugin, credential, metadata)) throw new ApiError(400, SOURCE_MESSAGES.mustVerify);
  const unique = plugin.uniqueSetting;
  if (unique && metadata[unique.key] && (await settingInUse(db, ownerId, body.integration_name, unique.key, String(metadata[unique.key])))) {
    throw new ApiError(409, unique.message);
  }
  return insertSource(db, ownerId, {
    name: body.name,
    description: body.description,
    integrationName: body.integration_name,
    integrationLabel: body.integration_label,
    credentialId: credential.id,
    status: "active",
    metadata,
  });
}

sourcesRoutes.put("/sources/update/:id", async (c) => {
  const body = parse(updateSourceBodySchema, await jsonBody(c));
  const source = await updateSource(c.var.services.db, c.var.user.id, c.req.param("id"), body);
  if (!source) throw new ApiError(404, SOURCE_MESSAGES.notFound);
  return c.json({ ...presentSource(source), message: "Source updated" });
});

sourcesRoutes.delete("/sources/delete/:id", async (c) => {
  await deleteSourceFor(c, c.req.param("id"));
  return c.json({ message: "Source deleted" });
});

/** The rules of DELETE /sources/delete/{id} (and the public API's): 404 when not the caller's, 409 while connectors use it. */
export async function deleteSourceFor(c: { var: ApiEnv["Variables"] }, id: string): Promise<void> {
  const result = await deleteSource(c.var.services.db, c.var.user.id, id);
  if (result.deleted) return;
  if (result.reason === "not_found") throw new ApiError(404, SOURCE_MESSAGES.notFound);
  const names = result.connectors.map((x) => `"${x.name}"`).join(", ");
  const noun = result.connectors.length === 1 ? "connector uses" : "connectors use";
  throw new ApiError(409, `This source cannot be deleted because ${result.connectors.length} ${noun} it: ${names}. Delete those connectors or move them to another source first.`);
}
