import { baseUrl, readEnv, requireEnv } from "../kit/config.js";
import { teamsConfig, type TeamsConfig } from "../teams/config.js";

/**
 * Outlook uses the Microsoft app registration of Teams (TEAMS_CLIENT_ID, TEAMS_CLIENT_SECRET, with the Mail.Read
 * application permission) and its endpoints (MICROSOFT_LOGIN_BASE_URL, MICROSOFT_GRAPH_BASE_URL). OUTLOOK_LOGIN_BASE_URL
 * and OUTLOOK_GRAPH_BASE_URL, when set, point Outlook alone elsewhere (a local stand-in beside Teams').
 */
export function outlookConfig(env: NodeJS.ProcessEnv = process.env): TeamsConfig {
  // The same variables as Teams', but the message names the source the user is setting up.
  requireEnv("Outlook", ["TEAMS_CLIENT_ID", "TEAMS_CLIENT_SECRET"], env);
  const teams = teamsConfig(env);
  const login = readEnv("OUTLOOK_LOGIN_BASE_URL", env);
  const graph = readEnv("OUTLOOK_GRAPH_BASE_URL", env);
  return { ...teams, loginBaseUrl: login ? baseUrl(login) : teams.loginBaseUrl, graphBaseUrl: graph ? baseUrl(graph) : teams.graphBaseUrl };
}

export type OutlookConfig = TeamsConfig;
