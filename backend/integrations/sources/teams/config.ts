import { envConfig } from "../kit/config.js";

export type TeamsConfig = ReturnType<typeof teamsConfig>;

export const teamsConfig = (env: NodeJS.ProcessEnv = process.env) =>
  envConfig("Microsoft Teams", { clientId: "TEAMS_CLIENT_ID", clientSecret: "TEAMS_CLIENT_SECRET" }, {
    loginBaseUrl: ["MICROSOFT_LOGIN_BASE_URL", "https://login.microsoftonline.com", "base"],
    graphBaseUrl: ["MICROSOFT_GRAPH_BASE_URL", "https://graph.microsoft.com/v1.0", "base"],
  }, env);
