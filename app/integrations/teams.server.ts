import { SOURCE_MESSAGES, type SetupInstructions, type TeamsTeam } from "@contract/sources";
import { callBackend } from "~/services/backend.server";
import type { SetupLists } from "./source-setup";
import type { SourceSetupServer } from "./source-setup.server";

/** Microsoft Teams: admin consent, then the tenant's teams and the setup steps for the chosen scope, verified. */
export const teamsServer: SourceSetupServer = {
  authFlow: () => ({ redirect: true }),
  async loadLists(request, credentialId, setup) {
    const lists: SetupLists = {};
    const errors: string[] = [];
    const result = await callBackend<{ teams: TeamsTeam[] }>(request, "/externalauth/teams/get-teams", { method: "POST", json: { credential_id: credentialId } }, "Failed to load teams.");
    if (result.ok) lists.teams = result.data.teams;
    else errors.push(result.message);
    const scope = setup.teams_extraction_scope === "TEAM" ? "TEAM" : "ORG";
    if (scope === "ORG" || setup.team_id) {
      const body = { credential_id: credentialId, scope, ...(scope === "TEAM" ? { team_id: setup.team_id } : {}) };
      const instructions = await callBackend<SetupInstructions>(request, "/externalauth/teams/get-team-setup-instructions", { method: "POST", json: body }, "Unable to load instructions.");
      if (instructions.ok) lists.teamInstructions = instructions.data;
      else errors.push(instructions.message);
    }
    return { lists, errors };
  },
  verifiedFields: ["teams_extraction_scope", "team_id"],
  verify: (request, credentialId, setup) =>
    callBackend<{ success: boolean; message: string }>(
      request,
      "/externalauth/teams/verify-setup",
      {
        method: "POST",
        json: {
          integration_name: "teams",
          credential_id: credentialId,
          scope: setup.teams_extraction_scope ?? "ORG",
          ...(setup.teams_extraction_scope === "TEAM" && setup.team_id ? { team_id: setup.team_id } : {}),
        },
      },
      SOURCE_MESSAGES.verificationFailed,
    ),
  refuseCreate: (metadata, lists) =>
    lists.teams?.find((t) => t.team_id === metadata?.team_id)?.already_configured ? { field: "team_id", message: SOURCE_MESSAGES.teamAlreadyConnected } : null,
};
