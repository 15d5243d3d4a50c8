import { oauthClientConfig } from "../kit/config.js";

/** Microsoft Teams' Entra ID app (TEAMS_CLIENT_ID, TEAMS_CLIENT_SECRET) and endpoints. */
export const teamsConfig = oauthClientConfig("Microsoft Teams", "TEAMS", {
  loginBaseUrl: ["MICROSOFT_LOGIN_BASE_URL", "https://login.microsoftonline.com", "base"],
  graphBaseUrl: ["MICROSOFT_GRAPH_BASE_URL", "https://graph.microsoft.com/v1.0", "base"],
});

export type TeamsConfig = ReturnType<typeof teamsConfig>;
