import { credentialBodySchema } from "../../../../contract/integrations/setup-calls.js";
import { teamsCallbackBodySchema } from "../../../../contract/integrations/teams.js";
import { outlookManifest, outlookTestBodySchema } from "../../../../contract/integrations/outlook.js";
import type { CredentialRow } from "../../../db/sources.js";
import { ProviderError } from "../kit/config.js";
import { authenticated, authUrlCall, credentialCall, parseBody, recordVerification } from "../kit/setup.js";
import { SetupError, type SourcePlugin } from "../plugin.js";
import { emitMessage, type EmailMessage } from "../gmail/records.js";
import { adminConsentUrl } from "../teams/auth.js";
import { listOutlookGroups, setupGraph, testOutlookConnection } from "./auth.js";
import { outlookConfig } from "./config.js";
import { readOutlook } from "./reader.js";

const tenantOf = (credential: CredentialRow) => String(credential.metadata.tenant_id ?? "");

/** A refusal by Microsoft in a setup call that is not a verification: a 409 with its sentence (a 502 stays for an outage). */
async function refusalAs409<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProviderError && error.unauthorized) throw new SetupError(409, error.message);
    throw error;
  }
}

export const outlookPlugin: SourcePlugin<EmailMessage> = {
  manifest: outlookManifest,
  // The rows and files of Gmail's messages: the `email_messages` stream, under outlook/<source id>/.
  emit: emitMessage,
  reader: { credential: true, read: readOutlook },
  // A verification covers the scope it tested: the whole organization, or the very group.
  verificationCovers: (v, settings) =>
    v.scope === settings.outlook_extraction_scope && (v.scope !== "GROUP" || (v.group_ids ?? []).includes(String(settings.outlook_group_id ?? ""))),
  setup: {
    /** Microsoft's admin-consent page for Tributary's app (the app registration of Teams, with Mail.Read). */
    auth_url: authUrlCall(() => outlookConfig(), adminConsentUrl),
    /** The admin-consent return: prove the consent by getting an app token for the tenant. */
    callback: {
      method: "POST",
      async run(ctx) {
        const { tenant, admin_consent } = parseBody(teamsCallbackBodySchema, await ctx.body());
        if (String(admin_consent).toLowerCase() !== "true") {
          throw new SetupError(400, "Admin consent was not granted. An administrator of the Microsoft 365 organization must accept Tributary's permissions, including Mail.Read.");
        }
        try {
          await setupGraph(outlookConfig(), tenant, "consent").authenticate();
        } catch (error) {
          if (error instanceof ProviderError && error.unauthorized) throw new SetupError(400, error.message);
          throw error;
        }
        return authenticated(
          ctx,
          { integrationName: "outlook", secret: null, metadata: { tenant_id: tenant.toLowerCase() } },
          { instructions: null, setup_verified: false, message: "Admin consent granted. Choose the scope, then test the connection." },
        );
      },
    },
    "get-groups": credentialCall(credentialBodySchema, async (_ctx, credential) =>
      refusalAs409(async () => ({ groups: await listOutlookGroups(setupGraph(outlookConfig(), tenantOf(credential))) })),
    ),
    /** A token for the tenant and one message of a mailbox in the scope; recorded as the credential's verification. */
    test_connection: credentialCall(outlookTestBodySchema, async (ctx, credential, { scope, group_id }) => {
      const verification = await recordVerification(ctx, credential, { scope, ...(scope === "GROUP" ? { group_ids: [group_id] } : {}) }, () =>
        testOutlookConnection(setupGraph(outlookConfig(), tenantOf(credential)), scope, group_id, ""),
      );
      return { status: verification.status, message: verification.message };
    }),
  },
};
