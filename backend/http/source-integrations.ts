import { Hono, type Context } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { ApiError, jsonBody } from "../lib/requests.js";
import { SOURCE_INTEGRATIONS } from "../../contract/sources.js";
import { findCredential } from "../db/sources.js";
import { NotConfigured, ProviderError } from "../integrations/sources/kit/index.js";
import { SetupError, type SetupCall, type SetupContext } from "../integrations/sources/plugin.js";
import { SOURCE_PLUGINS, sourcePlugin } from "../integrations/sources/index.js";
import { connectionTestSlot, TooManyConnectionTests } from "../lib/outbound.js";

/**
 * Spec §7 "Sources and integrations": the integration list and the /externalauth/<integration>/<call> calls that
 * authenticate a source and load its setup choices, each answered by the source plug-in (registry.ts). Tokens and
 * keys are sealed (services.secrets) before they are stored and never leave the backend.
 */
export const sourceIntegrationRoutes = new Hono<ApiEnv>();

sourceIntegrationRoutes.get("/integrations/sources", requireSession, (c) => c.json({ data: { sources: SOURCE_INTEGRATIONS } }));

const setupCall = (c: Context<ApiEnv>): SetupCall | undefined => {
  const call = sourcePlugin(c.req.param("integration"))?.setup[c.req.param("call") ?? ""];
  return call && call.method === c.req.method ? call : undefined;
};

/**
 * Turns configuration and provider problems into 4xx answers with a sentence: not configured 409, a provider's
 * refusal 502, a provider that did not answer within CONNECTION_TEST_TIMEOUT_SECONDS 504.
 */
function answerFor(error: unknown): unknown {
  if (error instanceof SetupError) return new ApiError(error.status, error.message);
  if (error instanceof NotConfigured) return new ApiError(409, error.message);
  if (error instanceof ProviderError) return new ApiError(error.timedOut ? 504 : 502, error.message);
  return error;
}

/** Only the sources' names: the destinations' /externalauth/<name>/… calls belong to their own router. */
const SOURCE_NAMES = SOURCE_PLUGINS.map((p) => p.manifest.name).join("|");

sourceIntegrationRoutes.on(
  ["GET", "POST"],
  `/externalauth/:integration{${SOURCE_NAMES}}/:call`,
  // No such call: the usual 404, before the session is asked for.
  async (c, next) => (setupCall(c) ? next() : c.json({ message: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404)),
  requireSession,
  async (c) => {
    const integration = c.req.param("integration");
    const { services, actor } = c.var;
    const context: SetupContext = {
      services,
      userId: actor.ownerId,
      redirectUri: new URL(`/sources/add/${integration}`, services.config.APP_URL).toString(),
      body: () => jsonBody(c),
      async ownedCredential(id) {
        const credential = await findCredential(services.db, actor.ownerId, id, integration);
        if (!credential) throw new ApiError(404, "Credential not found. Please authenticate again.");
        return credential;
      },
      async connectionTest(work) {
        try {
          return await connectionTestSlot(actor.ownerId, work);
        } catch (error) {
          if (error instanceof TooManyConnectionTests) throw new ApiError(429, error.message);
          throw error;
        }
      },
    };
    try {
      return c.json((await setupCall(c)!.run(context)) as object);
    } catch (error) {
      throw answerFor(error);
    }
  },
);
