/**
 * Each source integration's endpoints and client credentials, read from the
 * environment at the moment of the request (not at start-up), so a running
 * backend picks up a configuration change and tests can point it at fakes.
 */
export class NotConfigured extends Error {}

/** A provider answered with an error or could not be reached. */
export class ProviderError extends Error {
  constructor(
    message: string,
    /** true when the provider refused our credentials/token (the user must authenticate again). */
    readonly unauthorized = false,
    /** true when the provider did not answer within the call's timeout (nothing to fix but to try again). */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

const read = (name: string, env: NodeJS.ProcessEnv) => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};
const base = (value: string) => value.replace(/\/+$/, "");

function require(label: string, names: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const missing = names.filter((n) => !read(n, env));
  if (missing.length) {
    throw new NotConfigured(
      `${label} is not configured on this server. Set ${missing.join(" and ")} in the backend's environment to enable it.`,
    );
  }
  return Object.fromEntries(names.map((n) => [n, read(n, env)!]));
}

export interface ZoomConfig {
  clientId: string;
  clientSecret: string;
  oauthBaseUrl: string;
  apiBaseUrl: string;
}

export function zoomConfig(env: NodeJS.ProcessEnv = process.env): ZoomConfig {
  const v = require("Zoom", ["ZOOM_CLIENT_ID", "ZOOM_CLIENT_SECRET"], env);
  return {
    clientId: v.ZOOM_CLIENT_ID!,
    clientSecret: v.ZOOM_CLIENT_SECRET!,
    oauthBaseUrl: base(read("ZOOM_OAUTH_BASE_URL", env) ?? "https://zoom.us"),
    apiBaseUrl: base(read("ZOOM_API_BASE_URL", env) ?? "https://api.zoom.us/v2"),
  };
}

export interface TeamsConfig {
  clientId: string;
  clientSecret: string;
  loginBaseUrl: string;
  graphBaseUrl: string;
}

export function teamsConfig(env: NodeJS.ProcessEnv = process.env): TeamsConfig {
  const v = require("Microsoft Teams", ["TEAMS_CLIENT_ID", "TEAMS_CLIENT_SECRET"], env);
  return {
    clientId: v.TEAMS_CLIENT_ID!,
    clientSecret: v.TEAMS_CLIENT_SECRET!,
    loginBaseUrl: base(read("MICROSOFT_LOGIN_BASE_URL", env) ?? "https://login.microsoftonline.com"),
    graphBaseUrl: base(read("MICROSOFT_GRAPH_BASE_URL", env) ?? "https://graph.microsoft.com/v1.0"),
  };
}

export interface GmailConfig {
  /** The service account's key file (JSON) for domain-wide delegation. */
  serviceAccountKey: string;
  tokenUrl: string;
  adminBaseUrl: string;
  gmailBaseUrl: string;
}

export function gmailConfig(env: NodeJS.ProcessEnv = process.env): GmailConfig {
  const v = require("Gmail", ["GMAIL_SERVICE_ACCOUNT_KEY"], env);
  return {
    serviceAccountKey: v.GMAIL_SERVICE_ACCOUNT_KEY!,
    tokenUrl: read("GOOGLE_TOKEN_URL", env) ?? "https://oauth2.googleapis.com/token",
    adminBaseUrl: base(read("GOOGLE_ADMIN_BASE_URL", env) ?? "https://admin.googleapis.com"),
    gmailBaseUrl: base(read("GMAIL_API_BASE_URL", env) ?? "https://gmail.googleapis.com"),
  };
}

export interface GmailOAuthConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  gmailBaseUrl: string;
}

/** The OAuth client for Gmail's INDIVIDUAL mode (a user signs in with Google and grants read-only mail). */
export function gmailOAuthConfig(env: NodeJS.ProcessEnv = process.env): GmailOAuthConfig {
  const v = require("Gmail sign-in for individual mailboxes", ["GMAIL_OAUTH_CLIENT_ID", "GMAIL_OAUTH_CLIENT_SECRET"], env);
  return {
    clientId: v.GMAIL_OAUTH_CLIENT_ID!,
    clientSecret: v.GMAIL_OAUTH_CLIENT_SECRET!,
    authUrl: read("GOOGLE_OAUTH_AUTH_URL", env) ?? "https://accounts.google.com/o/oauth2/v2/auth",
    tokenUrl: read("GOOGLE_TOKEN_URL", env) ?? "https://oauth2.googleapis.com/token",
    gmailBaseUrl: base(read("GMAIL_API_BASE_URL", env) ?? "https://gmail.googleapis.com"),
  };
}
