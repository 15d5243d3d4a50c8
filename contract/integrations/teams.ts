import { z } from "zod";
import { defineSource, optionalText, orgOrUnit, SOURCE_MESSAGES, TRANSCRIPT_FILE_TYPES } from "./source-kit.js";
import { meetingStreams } from "./streams.js";
import { authUrlResponseSchema, call, callbackResponseSchema, credentialBodySchema, credentialIdSchema, setupInstructionsSchema, verifySetupResponseSchema } from "./setup-calls.js";

/** Microsoft Teams: meeting transcripts through Graph, after an admin's consent and a verified setup. */

const scope = orgOrUnit({ scope: "teams_extraction_scope", unit: "TEAM", id: "team_id", name: "team_name", word: "team", label: "Team", required: SOURCE_MESSAGES.teamRequired });
const teamsSettings = z.object(scope.shape);

/** Spec §3 "Source metadata by integration": Microsoft Teams. */
export const teamsMetadataSchema = teamsSettings.superRefine(scope.rule);

/** The admin-consent return: the tenant that consented. */
export const teamsCallbackBodySchema = z.object({
  tenant: z.string({ required_error: "tenant is required", invalid_type_error: "tenant must be text" }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "tenant must be a Microsoft tenant id (a GUID)"),
  admin_consent: z.union([z.string(), z.boolean()], { required_error: "admin_consent is required" }),
});
export const teamSetupBodySchema = z.object({
  credential_id: credentialIdSchema,
  scope: z.enum(["ORG", "TEAM"], { errorMap: () => ({ message: "scope must be ORG or TEAM" }) }),
  team_id: optionalText(200, "team_id is too long", "team_id"),
});

/** A team of the tenant, as the team list shows it. */
export const teamsTeamSchema = z.object({ team_id: z.string(), team_name: z.string(), member_count: z.number().int(), already_configured: z.boolean() });
export type TeamsTeam = z.infer<typeof teamsTeamSchema>;

export const teamsManifest = defineSource({
  name: "teams",
  label: "Microsoft Teams",
  settings: teamsSettings,
  settingsRules: teamsMetadataSchema,
  needsVerification: true,
  platforms: ["teams"],
  streams: meetingStreams({ teams: TRANSCRIPT_FILE_TYPES }),
  setupCalls: {
    auth_url: call("GET", authUrlResponseSchema),
    callback: call("POST", callbackResponseSchema, teamsCallbackBodySchema),
    "get-teams": call("POST", z.object({ teams: z.array(teamsTeamSchema) }), credentialBodySchema),
    "get-team-setup-instructions": call("POST", setupInstructionsSchema, teamSetupBodySchema),
    // Its body (verifySetupBodySchema) names any source integration: contract/sources.ts, read by the plug-in.
    "verify-setup": call("POST", verifySetupResponseSchema),
  },
  settingLabels: { teams_extraction_scope: "Extraction scope", team_name: "Team" },
});
