import { Hono, type Context } from "hono";
import { z } from "zod";
import { requireSession, type ApiEnv } from "./context.js";
import { ApiError, jsonBody } from "../lib/requests.js";
import { parse } from "../services/errors.js";
import type { IntegrationOption, TestConnectionResult } from "../../contract/destinations.js";
import { checkDestinationSettings } from "../../contract/integrations/destinations.js";
import { authPaths, destinationPlugin, DESTINATION_PLUGINS } from "../integrations/destinations/registry.js";
import type { DestinationCall, DestinationPlugin } from "../integrations/destinations/plugin.js";
import { validationTokens } from "../integrations/destinations/tokens.js";
import { connectionTestSlot, TooManyConnectionTests } from "../lib/outbound.js";
import { noteSecrets } from "../lib/redact.js";

/**
 * Spec §7 "Destinations": the integration list and the /externalauth calls of every destination plug-in that has
 * them (Cloud Storage also as "gcs"). Paths are registered one by one so that the sources' own
 * /externalauth/{integration}/… calls (e.g. gmail/test_connection) are untouched.
 */
export const destinationIntegrationsRoutes = new Hono<ApiEnv>();

const PATHS = authPaths();

destinationIntegrationsRoutes.use("/integrations/destinations", requireSession);
for (const [path] of PATHS) destinationIntegrationsRoutes.use(`/externalauth/${path}/*`, requireSession);

destinationIntegrationsRoutes.get("/integrations/destinations", (c) => {
  const destinations: IntegrationOption[] = DESTINATION_PLUGINS.filter((p) => !p.hidden?.()).map((p) => {
    const unavailable = p.unavailable?.()?.reason;
    return { name: p.manifest.name, label: p.manifest.label, ...(unavailable ? { unavailable } : {}) };
  });
  return c.json({ status: "success", data: { destinations } });
});

async function body(c: Context<ApiEnv>): Promise<unknown> {
  // These calls may come with an empty body (everything optional); anything sent must be JSON.
  if (!c.req.header("content-type") && !(await c.req.text()).trim()) return {};
  return jsonBody(c);
}

const call = (c: Context<ApiEnv>): DestinationCall => ({ ownerId: c.var.actor.ownerId, services: c.var.services });

const envelope = z.object({ integration_name: z.string().optional(), category: z.string().optional(), credential_id: z.string().optional() }).passthrough();

/** The plug-in a body sent to a path means (Snowflake's path serves the stage variant too); its integration_name must agree. */
function pluginFor(pathPlugin: DestinationPlugin, raw: unknown): DestinationPlugin {
  const v = parse(envelope, raw ?? {});
  const plugin = destinationPlugin(pathPlugin.pathVariant?.({ category: v.category }) ?? pathPlugin.manifest.name) ?? pathPlugin;
  const named = v.integration_name ? PATHS.find(([path]) => path === v.integration_name)?.[1] : plugin;
  if (named !== plugin) throw new ApiError(400, "integration_name does not match the integration in the URL");
  return plugin;
}

/** The plug-in's settings of a body: its manifest's fields, checked with its rules for `when`. */
function settingsOf(plugin: DestinationPlugin, raw: unknown, when: "test" | "instructions"): Record<string, unknown> {
  const schema = when === "test" ? plugin.manifest.settings.superRefine((x, ctx) => checkDestinationSettings(plugin.manifest.name, x, ctx, "test")) : plugin.manifest.settings.partial();
  const settings = parse(schema, raw) as Record<string, unknown>;
  // The password typed for a test is in play: a server's error quoting it never reaches the answer or the log.
  for (const field of plugin.manifest.secretFields) noteSecrets(settings[field]);
  return settings;
}

/** A connection test of the signed-in user, within their cap of tests at once (429 beyond it). */
async function withinTestSlot<T>(c: Context<ApiEnv>, work: () => Promise<T>): Promise<T> {
  try {
    return await connectionTestSlot(c.var.actor.ownerId, work);
  } catch (error) {
    if (error instanceof TooManyConnectionTests) throw new ApiError(429, error.message);
    throw error;
  }
}

for (const [path, pathPlugin] of PATHS) {
  if (pathPlugin.serviceAccount) {
    destinationIntegrationsRoutes.post(`/externalauth/${path}/service_account`, async (c) => {
      const plugin = pluginFor(pathPlugin, await body(c));
      return c.json(await plugin.serviceAccount!(call(c)));
    });
  }

  if (pathPlugin.instructions) {
    destinationIntegrationsRoutes.post(`/externalauth/${path}/get_instructions`, async (c) => {
      const raw = await body(c);
      const plugin = pluginFor(pathPlugin, raw);
      const settings = settingsOf(plugin, raw, "instructions");
      return c.json(await plugin.instructions!(settings, call(c)));
    });
  }

  if (pathPlugin.test) {
    destinationIntegrationsRoutes.post(`/externalauth/${path}/test_connection`, async (c) => {
      const raw = await jsonBody(c);
      const plugin = pluginFor(pathPlugin, raw);
      const settings = settingsOf(plugin, raw, "test");
      const credentialId = (raw as { credential_id?: string }).credential_id;
      const tested = await withinTestSlot(c, () => plugin.test!(settings, call(c), { credentialId }));
      const name = plugin.manifest.name;
      const result: TestConnectionResult = {
        status: "success",
        message: tested.message,
        credential_id: tested.credentialId,
        validation_token: validationTokens(c.var.services.config.TRIBUTARY_SECRET_KEY).sign(c.var.actor.ownerId, name, tested.credentialId, plugin.boundValues(settings)),
      };
      return c.json(result);
    });
  }
}
