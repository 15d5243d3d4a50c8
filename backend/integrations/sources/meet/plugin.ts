import { meetCallbackBodySchema, meetGroupsBodySchema, meetManifest, meetTestBodySchema } from "../../../../contract/integrations/meet.js";
import { authenticated, credentialCall, parseBody, recordVerification } from "../kit/setup.js";
import { lastVerification } from "../kit/verification.js";
import { updateCredential } from "../../../db/sources.js";
import { emitMeeting } from "../kit/meetings.js";
import type { SourcePlugin } from "../plugin.js";
import type { Meeting } from "../records.js";
import { listGoogleGroups } from "../gmail/auth.js";
import { meetInstructions, testMeetConnection } from "./auth.js";
import { meetConfig } from "./config.js";
import { readMeet } from "./reader.js";

export const meetPlugin: SourcePlugin<Meeting> = {
  manifest: meetManifest,
  emit: emitMeeting,
  reader: { credential: true, read: readMeet },
  // A test covers the admin it acted as, and the scope (and group) it checked.
  verificationCovers: (v, settings) =>
    typeof settings.admin_email === "string" &&
    v.admin_email?.toLowerCase() === settings.admin_email.toLowerCase() &&
    v.scope === settings.meet_extraction_scope &&
    (v.scope !== "GROUP" || (v.group_ids ?? []).includes(String(settings.meet_group_id ?? ""))),
  setup: {
    /**
     * No redirect: the credential records Tributary's service account (Gmail's), and the answer carries the
     * domain-wide-delegation steps for Meet's scopes. The setup is verified by test_connection.
     */
    callback: {
      method: "POST",
      async run(ctx) {
        parseBody(meetCallbackBodySchema, await ctx.body());
        const { instructions, serviceAccountEmail, clientId } = meetInstructions(meetConfig());
        return authenticated(
          ctx,
          { integrationName: "meet", secret: null, metadata: { mode: "service_account", service_account_email: serviceAccountEmail, client_id: clientId } },
          { instructions, setup_verified: false, message: "Follow the instructions, then test the connection." },
        );
      },
    },
    "get-groups": credentialCall(meetGroupsBodySchema, async (_ctx, _credential, { admin_email }) => ({ groups: await listGoogleGroups(meetConfig(), admin_email) })),
    test_connection: credentialCall(meetTestBodySchema, async (ctx, credential, { admin_email, group_ids }) => {
      // A credential that passed a test before and is refused now had its delegation revoked since.
      const wasGranted = lastVerification(credential)?.status === "success" || typeof credential.metadata.delegation_granted_at === "string";
      const scope = group_ids?.length ? "GROUP" : "ORG";
      const verification = await recordVerification(ctx, credential, { scope, admin_email, group_ids }, () => testMeetConnection(meetConfig(), admin_email, group_ids, wasGranted));
      if (verification.status === "success" && !credential.metadata.delegation_granted_at) {
        await updateCredential(ctx.services.db, ctx.userId, credential.id, { metadata: { ...credential.metadata, verification, delegation_granted_at: verification.at } });
      }
      return { status: verification.status, message: verification.message };
    }),
  },
};
