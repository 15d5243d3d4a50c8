import { Instructions, ListChoice, ScopeChoice, type SourceSetup } from "./source-setup";

export const teamsSetup: SourceSetup = {
  fields: ["teams_extraction_scope", "team_id"],
  defaults: { teams_extraction_scope: "ORG" },
  metadata(setup, lists) {
    const team = setup.teams_extraction_scope === "TEAM" ? lists.teams?.find((x) => x.team_id === setup.team_id) : undefined;
    return {
      teams_extraction_scope: setup.teams_extraction_scope,
      team_id: setup.teams_extraction_scope === "TEAM" ? (team?.team_id ?? setup.team_id ?? "") : "",
      team_name: team?.team_name ?? "",
    };
  },
  complete: (values, strict) => values.teams_extraction_scope === "ORG" || (values.teams_extraction_scope === "TEAM" && (!strict || !!values.team_id)),
  verifyLabel: "Verify Setup",
  Setup: ({ setup, saved, lists, hydrated, saveSetup }) => (
    <>
      <ScopeChoice
        id="teams-scope"
        name="teams_extraction_scope"
        options={[
          ["ORG", "Entire organization"],
          ["TEAM", "A specific team"],
        ]}
        current={setup.teams_extraction_scope}
        hydrated={hydrated}
        saveSetup={saveSetup}
      />
      {saved.teams_extraction_scope === "TEAM" ? (
        <ListChoice
          name="team_id"
          label="Team"
          placeholder="Select a team"
          current={setup.team_id}
          onChange={hydrated ? saveSetup : undefined}
          choices={(lists.teams ?? []).map((team) => [
            team.team_id,
            `${team.team_name} (${team.member_count} ${team.member_count === 1 ? "member" : "members"})${team.already_configured ? " — already connected" : ""}`,
          ])}
        />
      ) : null}
      {hydrated ? null : (
        <button type="submit" name="intent" value="setup" className="btn-secondary">
          Apply scope
        </button>
      )}
      {lists.teamInstructions ? <Instructions instructions={lists.teamInstructions} /> : null}
    </>
  ),
};
