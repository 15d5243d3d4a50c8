import { ContinueWithScope, Instructions, ListChoice, members, orgOrUnitSetup, ScopeChoice, type SourceSetup } from "../../source-setup";
import type { TeamsLists } from "./lists";

const teamsSetup: SourceSetup<TeamsLists> = {
  ...orgOrUnitSetup<TeamsLists>(["teams_extraction_scope", "TEAM"], ["team_id", "team_name"], (lists) => lists.teams?.map((t) => [t.team_id, t.team_name])),
  verifyLabel: "Verify Setup",
  Setup: ({ setup, saved, lists, errors, hydrated, saveSetup }) => (
    <>
      <ScopeChoice
        id="teams-scope"
        name="teams_extraction_scope"
        options={[
          ["ORG", "Entire organization"],
          ["TEAM", "A specific team"],
        ]}
        current={setup.teams_extraction_scope}
        errors={errors}
        hydrated={hydrated}
        saveSetup={saveSetup}
      />
      {saved.teams_extraction_scope === "TEAM" ? (
        <ListChoice
          name="team_id"
          label="Team"
          placeholder="Select a team"
          current={setup.team_id}
          errors={errors}
          onChange={hydrated ? saveSetup : undefined}
          choices={(lists.teams ?? []).map((team) => [
            team.team_id,
            `${team.team_name} (${members(team.member_count)})${team.already_configured ? " — already connected" : ""}`,
          ])}
        />
      ) : null}
      <ContinueWithScope />
      {lists.instructions ? <Instructions instructions={lists.instructions} /> : null}
    </>
  ),
};

export default teamsSetup;
