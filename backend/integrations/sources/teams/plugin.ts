import { credentialBodySchema, teamSetupBodySchema, teamsCallbackBodySchema, verifySetupBodySchema, SOURCE_MESSAGES } from "../../../../contract/sources.js";
import { teamsManifest } from "../../../../contract/integrations/teams.js";
import { settingValuesInUse, type CredentialRow } from "../../../db/sources.js";
import { authenticated, authUrlCall, credentialCall, parseBody, recordVerification } from "../kit/setup.js";
import { SetupError, type SourcePlugin } from "../plugin.js";
import { adminConsentUrl, graphToken, listTeams, teamSetupInstructions, verifyTeamsSetup } from "./auth.js";
import { teamsConfig } from "./config.js";
import { readTeams } from "./reader.js";
import { emitMeeting } from "../kit/meetings.js";
import type { Meeting } from "../records.js";

const tenantOf = (credential: CredentialRow) => String(credential.metadata.tenant_id ?? "");

export const teamsPlugin: SourcePlugin<Meeting> = {
  manifest: teamsManifest,
  emit: emitMeeting,
  reader: { credential: true, incremental: true, read: readTeams },
  // One source per team: a verified setup is of the very scope (and team) the source names.
  uniqueSetting: { key: "team_id", message: SOURCE_MESSAGES.teamAlreadyConnected },
  verificationCovers: (v, settings) => v.scope === settings.teams_extraction_scope && (v.scope !== "TEAM" || v.team_id === settings.team_id),
  setup: {
    auth_url: authUrlCall(() => teamsConfig(), adminConsentUrl),
    /** The admin-consent return: the tenant consented; prove it by getting an app token for it. */
    callback: {
      method: "POST",
      async run(ctx) {
        const { tenant, admin_consent } = parseBody(teamsCallbackBodySchema, await ctx.body());
        if (String(admin_consent).toLowerCase() !== "true") {
          throw new SetupError(400, "Admin consent was not granted. An administrator of the Microsoft 365 organization must accept Tributary's permissions.");
        }
        await graphToken(teamsConfig(), tenant);
        return authenticated(
          ctx,
          { integrationName: "teams", secret: null, metadata: { tenant_id: tenant.toLowerCase() } },
          { instructions: null, setup_verified: false, message: "Admin consent granted. Choose the scope, follow the setup instructions, then verify." },
        );
      },
    },
    "get-teams": credentialCall(credentialBodySchema, async (ctx, credential) => {
      const config = teamsConfig();
      const teams = await listTeams(config, await graphToken(config, tenantOf(credential)));
      const configured = await settingValuesInUse(ctx.services.db, ctx.userId, "teams", "team_id");
      return { teams: teams.map((t) => ({ ...t, already_configured: configured.has(t.team_id) })) };
    }),
    "get-team-setup-instructions": credentialCall(teamSetupBodySchema, async (_ctx, credential, { scope, team_id }) => {
      if (scope === "TEAM" && !team_id) throw new SetupError(400, SOURCE_MESSAGES.teamRequired);
      const config = teamsConfig();
      let team: { team_id: string; team_name: string } | null = null;
      if (scope === "TEAM") {
        team = (await listTeams(config, await graphToken(config, tenantOf(credential)))).find((t) => t.team_id === team_id) ?? null;
        if (!team) throw new SetupError(404, "This team does not exist in the organization any more. Please choose another team.");
      }
      return teamSetupInstructions(config, scope, team);
    }),
    "verify-setup": {
      method: "POST",
      async run(ctx) {
        const { credential_id, scope, team_id } = parseBody(verifySetupBodySchema, await ctx.body());
        if (scope !== "ORG" && scope !== "TEAM") throw new SetupError(400, "scope must be ORG or TEAM");
        if (scope === "TEAM" && !team_id) throw new SetupError(400, SOURCE_MESSAGES.teamRequired);
        const credential = await ctx.ownedCredential(credential_id);
        const verification = await recordVerification(ctx, credential, { scope, team_id: team_id || undefined }, async () => {
          const config = teamsConfig();
          return verifyTeamsSetup(config, await graphToken(config, tenantOf(credential)), scope, team_id || undefined);
        });
        return { success: verification.status === "success", message: verification.message };
      },
    },
  },
};
