import { envConfig, oauthClientConfig } from "../kit/config.js";

const TOKEN_URL: [string, string] = ["GOOGLE_TOKEN_URL", "https://oauth2.googleapis.com/token"];
const GMAIL_BASE_URL: [string, string, "base"] = ["GMAIL_API_BASE_URL", "https://gmail.googleapis.com", "base"];

export type GmailConfig = ReturnType<typeof gmailConfig>;

/** Domain-wide delegation: the service account's key file (JSON). */
export const gmailConfig = (env: NodeJS.ProcessEnv = process.env) =>
  envConfig("Gmail", { serviceAccountKey: "GMAIL_SERVICE_ACCOUNT_KEY" }, {
    tokenUrl: TOKEN_URL,
    adminBaseUrl: ["GOOGLE_ADMIN_BASE_URL", "https://admin.googleapis.com", "base"],
    gmailBaseUrl: GMAIL_BASE_URL,
  }, env);

export type GmailOAuthConfig = ReturnType<typeof gmailOAuthConfig>;

/** The OAuth client for Gmail's INDIVIDUAL mode (a user signs in with Google and grants read-only mail). */
export const gmailOAuthConfig = oauthClientConfig("Gmail sign-in for individual mailboxes", "GMAIL_OAUTH", {
  authUrl: ["GOOGLE_OAUTH_AUTH_URL", "https://accounts.google.com/o/oauth2/v2/auth"],
  tokenUrl: TOKEN_URL,
  gmailBaseUrl: GMAIL_BASE_URL,
});
