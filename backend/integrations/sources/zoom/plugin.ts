import { credentialBodySchema, oauthCallbackBodySchema } from "../../../../contract/sources.js";
import { zoomManifest } from "../../../../contract/integrations/zoom.js";
import { setStatusByCredential, type CredentialRow } from "../../../db/sources.js";
import { ProviderError } from "../kit/index.js";
import { authenticated, authUrlCall, credentialCall, parseBody } from "../kit/setup.js";
import { SetupError, type SetupContext, type SourcePlugin } from "../plugin.js";
import { exchangeZoomCode, refreshStoredZoomTokens, usableZoomTokens, zoomAuthUrl, zoomGroups, zoomMe, type ZoomTokens } from "./auth.js";
import { zoomConfig } from "./config.js";
import { readZoom } from "./reader.js";
import { emitMeeting } from "../kit/meetings.js";
import type { Meeting } from "../records.js";

/** A live Zoom access token for a credential, refreshed (and re-sealed) when it is about to expire. */
async function zoomAccessToken(ctx: SetupContext, credential: CredentialRow): Promise<string> {
  if (!credential.secret) throw new SetupError(409, "This Zoom credential holds no token. Please authenticate again.");
  const tokens = ctx.services.secrets.open<ZoomTokens>(credential.secret);
  // A sync may be refreshing the same tokens: one at a time, under the credential's lock.
  return usableZoomTokens(tokens) ? tokens.access_token : (await refreshStoredZoomTokens(ctx.services, ctx.userId, credential.id, zoomConfig())).access_token;
}

export const zoomPlugin: SourcePlugin<Meeting> = {
  manifest: zoomManifest,
  emit: emitMeeting,
  reader: { credential: true, incremental: true, read: readZoom },
  setup: {
    auth_url: authUrlCall(() => zoomConfig(), zoomAuthUrl),
    callback: {
      method: "POST",
      async run(ctx) {
        const { code } = parseBody(oauthCallbackBodySchema, await ctx.body());
        const config = zoomConfig();
        const tokens = await exchangeZoomCode(config, ctx.redirectUri, code);
        const me = await zoomMe(config, tokens.access_token);
        return authenticated(
          ctx,
          { integrationName: "zoom", secret: ctx.services.secrets.seal(tokens), metadata: { ...me, scope: tokens.scope } },
          { instructions: null, setup_verified: true, message: "Zoom authenticated." },
        );
      },
    },
    "get-groups": credentialCall(credentialBodySchema, async (ctx, credential) => {
      const { db } = ctx.services;
      try {
        const groups = await zoomGroups(zoomConfig(), await zoomAccessToken(ctx, credential));
        await setStatusByCredential(db, ctx.userId, credential.id, "active");
        return { groups };
      } catch (error) {
        // Zoom refused or failed (not a silence): the credential is in error until it works again.
        if (error instanceof ProviderError && !error.timedOut) await setStatusByCredential(db, ctx.userId, credential.id, "error");
        throw error;
      }
    }),
  },
};
