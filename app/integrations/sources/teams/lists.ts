import type { TeamsTeam } from "@contract/integrations/teams";
import type { SetupInstructions } from "@contract/integrations/setup-calls";

/** What the Teams setup step loads: the tenant's teams, and the setup steps of the chosen scope. */
export interface TeamsLists {
  teams?: TeamsTeam[];
  instructions?: SetupInstructions;
}
