import { gmailCallbackBodySchema, gmailGroupsBodySchema, gmailTestBodySchema, SOURCE_MESSAGES } from "../../../../contract/sources.js";
import { DEFAULT_GMAIL_AUTH_MODE, GMAIL_AUTH_MODES, gmailManifest } from "../../../../contract/integrations/gmail.js";
import { updateCredential } from "../../../db/sources.js";
import { authenticated, authUrlCall, credentialCall, parseBody, recordVerification } from "../kit/setup.js";
import { SetupError, type SourcePlugin } from "../plugin.js";
import { delegationInstructions, exchangeGmailCode, gmailAuthUrl, listGoogleGroups, testGmailConnection, testIndividualMailbox, type GmailTokens } from "./auth.js";
import { gmailConfig, gmailOAuthConfig } from "./config.js";
import { readGmail } from "./reader.js";
import { emitMessage, type EmailMessage } from "./records.js";

export const gmailPlugin: SourcePlugin<EmailMessage> = {
  manifest: gmailManifest,
  emit: emitMessage,
  // Issue 52: a later sync reads each mailbox's change feed (reader.ts) and fetches no message that landed.
  reader: { credential: true, incremental: true, read: readGmail },
  // An individual mailbox tests itself; otherwise the verified admin is the one the source names.
  verificationCovers: (v, settings) =>
    settings.gmail_extraction_scope === "INDIVIDUAL" ||
    (typeof settings.admin_email === "string" && v.admin_email?.toLowerCase() === settings.admin_email.toLowerCase()),
  setup: {
    get_auth_options: {
      method: "GET",
      run: async () => ({ options: GMAIL_AUTH_MODES.map(({ mode, label }) => ({ mode, label })), default: DEFAULT_GMAIL_AUTH_MODE }),
    },
    /** INDIVIDUAL mode: Google's OAuth consent for one mailbox. */
    auth_url: authUrlCall(() => gmailOAuthConfig(), gmailAuthUrl),
    /**
     * With `code`: the INDIVIDUAL OAuth return; tokens are sealed, verified later by test_connection. With `mode`: a
     * service-account mode, no redirect; the credential records the mode and Tributary's service account, and the
     * answer carries the domain-wide-delegation instructions. The default mode needs no verification.
     */
    callback: {
      method: "POST",
      async run(ctx) {
        const body = parseBody(gmailCallbackBodySchema, await ctx.body());
        if (body.code) {
          const { tokens, email } = await exchangeGmailCode(gmailOAuthConfig(), ctx.redirectUri, body.code);
          return authenticated(
            ctx,
            { integrationName: "gmail", secret: ctx.services.secrets.seal(tokens), metadata: { mode: "individual", email } },
            { instructions: null, setup_verified: false, message: `Signed in as ${email}. Test the connection to finish.` },
          );
        }
        const mode = body.mode!;
        const { instructions, serviceAccountEmail, clientId } = delegationInstructions(gmailConfig());
        const verified = mode === DEFAULT_GMAIL_AUTH_MODE;
        return authenticated(
          ctx,
          { integrationName: "gmail", secret: null, metadata: { mode, service_account_email: serviceAccountEmail, client_id: clientId } },
          { instructions, setup_verified: verified, message: verified ? "Gmail authenticated." : "Follow the instructions, then test the connection." },
        );
      },
    },
    "get-groups": credentialCall(gmailGroupsBodySchema, async (_ctx, _credential, { admin_email }) => ({ groups: await listGoogleGroups(gmailConfig(), admin_email) })),
    test_connection: credentialCall(gmailTestBodySchema, async (ctx, credential, { admin_email, group_ids }) => {
      const { db, secrets } = ctx.services;
      const individual = credential.metadata.mode === "individual";
      if (!individual && !admin_email) throw new SetupError(400, SOURCE_MESSAGES.adminEmailRequired);
      const scope = individual ? "INDIVIDUAL" : group_ids?.length ? "GROUP" : "ORG";
      if (individual && !credential.secret) throw new SetupError(409, "This Gmail credential holds no token. Please authenticate again.");
      const verification = await recordVerification(ctx, credential, { scope, admin_email, group_ids }, () =>
        individual
          ? testIndividualMailbox(gmailOAuthConfig(), secrets.open<GmailTokens>(credential.secret!), (tokens) =>
              updateCredential(db, ctx.userId, credential.id, { secret: secrets.seal(tokens) }),
            )
          : testGmailConnection(gmailConfig(), admin_email!, group_ids),
      );
      return { status: verification.status, message: verification.message };
    }),
  },
};
