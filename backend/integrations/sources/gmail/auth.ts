import { readFileSync } from "node:fs";
import { JWT, OAuth2Client } from "google-auth-library";
import { admin } from "@googleapis/admin";
import { gmail } from "@googleapis/gmail";
import type { GoogleGroup, SetupInstructions } from "../../../../contract/sources.js";
import { NotConfigured, ProviderError } from "../kit/index.js";
import type { GmailConfig, GmailOAuthConfig } from "./config.js";
import { connectionTestTimeoutMs, describeMs, isTimeoutError } from "../../../lib/outbound.js";

/**
 * Gmail through a Google Workspace service account with domain-wide
 * delegation: google-auth-library's JWT client signs an assertion for the
 * Workspace admin (the `subject`), and the official Admin SDK (Directory
 * groups.list) and Gmail (users.messages.list) clients call Google with it.
 * Every endpoint comes from GmailConfig, so tests run the same code against
 * local fakes.
 */
export const DIRECTORY_SCOPE = "https://www.googleapis.com/auth/admin.directory.group.readonly";
export const GMAIL_SCOPE = "https://www.googleapis.com/auth/gmail.readonly";
/** Reading an ORG-scope source lists the Workspace's users (Directory users.list). */
export const DIRECTORY_USER_SCOPE = "https://www.googleapis.com/auth/admin.directory.user.readonly";
const DEFAULT_TOKEN_URL = "https://oauth2.googleapis.com/token";

interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  client_id: string;
}

/** GMAIL_SERVICE_ACCOUNT_KEY holds the key file's JSON, or the path of the key file. */
export function serviceAccountKey(config: GmailConfig): ServiceAccountKey {
  let text = config.serviceAccountKey;
  if (!text.trimStart().startsWith("{")) {
    try {
      text = readFileSync(text, "utf8");
    } catch {
      throw new NotConfigured("Gmail is not configured correctly: GMAIL_SERVICE_ACCOUNT_KEY is neither a service-account key (JSON) nor a readable key file.");
    }
  }
  try {
    const key = JSON.parse(text) as Partial<ServiceAccountKey>;
    if (key.client_email && key.private_key && key.client_id) return key as ServiceAccountKey;
  } catch {
    // reported below
  }
  throw new NotConfigured("Gmail is not configured correctly: GMAIL_SERVICE_ACCOUNT_KEY must be a service-account key with client_email, private_key and client_id.");
}

/** A client acting as `subject` through domain-wide delegation (the readers use it per mailbox). */
export function delegatedClient(config: GmailConfig, subject: string, scopes: string[], timeoutMs = connectionTestTimeoutMs()): JWT {
  const key = serviceAccountKey(config);
  // transporterOptions: the token request's own timeout (gaxios has none by default).
  const client = new JWT({ email: key.client_email, key: key.private_key, scopes, subject, transporterOptions: { timeout: timeoutMs } });
  if (config.tokenUrl !== DEFAULT_TOKEN_URL) {
    // google-auth-library posts the assertion to Google's fixed token URL; point it at the configured one.
    client.transporter.interceptors.request.add({
      resolved: async (options) => {
        if (String(options.url) === DEFAULT_TOKEN_URL) options.url = new URL(config.tokenUrl);
        return options;
      },
    });
  }
  return client;
}

function failure(error: unknown, what: string): ProviderError {
  const e = error as { status?: number; response?: { status?: number; data?: { error?: string | { message?: string }; error_description?: string } }; message?: string };
  const data = e.response?.data;
  const detail =
    typeof data?.error === "object" ? data.error.message : data?.error_description ? data.error_description : typeof data?.error === "string" ? data.error : e.message;
  const status = e.response?.status ?? e.status;
  if (status === undefined && !data && isTimeoutError(error)) {
    return new ProviderError(`Google did not answer within ${describeMs(connectionTestTimeoutMs())} to ${what}. Please try again.`, false, true);
  }
  if (status === undefined && !data) return new ProviderError(`Google could not be reached to ${what}. Please try again.`);
  return new ProviderError(`Google refused to ${what}: ${detail ?? `status ${status}`}.`, status === 401 || status === 403);
}

/** Directory groups.list for the admin's Workspace, every page. */
export async function listGoogleGroups(config: GmailConfig, adminEmail: string): Promise<GoogleGroup[]> {
  const directory = admin({ version: "directory_v1", auth: delegatedClient(config, adminEmail, [DIRECTORY_SCOPE]) as any, rootUrl: `${config.adminBaseUrl}/`, timeout: connectionTestTimeoutMs() });
  const groups: GoogleGroup[] = [];
  let pageToken: string | undefined;
  try {
    for (let page = 0; page < 50; page++) {
      const { data } = await directory.groups.list({ customer: "my_customer", maxResults: 200, pageToken });
      for (const g of data.groups ?? []) groups.push({ id: g.id ?? "", name: g.name ?? g.email ?? "", email: g.email ?? "" });
      pageToken = data.nextPageToken ?? undefined;
      if (!pageToken) break;
    }
  } catch (error) {
    throw failure(error, "list the Workspace's groups");
  }
  return groups;
}

/**
 * The test connection: the delegation works for the admin's mailbox
 * (users.messages.list, one message) and, when groups are named, they exist.
 */
export async function testGmailConnection(config: GmailConfig, adminEmail: string, groupIds: string[] = []): Promise<string> {
  const mail = gmail({ version: "v1", auth: delegatedClient(config, adminEmail, [GMAIL_SCOPE]) as any, rootUrl: `${config.gmailBaseUrl}/`, timeout: connectionTestTimeoutMs() });
  try {
    await mail.users.messages.list({ userId: adminEmail, maxResults: 1 });
  } catch (error) {
    throw failure(error, `read ${adminEmail}'s mailbox`);
  }
  if (groupIds.length) {
    const known = new Set((await listGoogleGroups(config, adminEmail)).map((g) => g.id));
    const missing = groupIds.filter((id) => !known.has(id));
    if (missing.length) throw new ProviderError(`Google has no group ${missing.join(", ")} in this Workspace.`);
  }
  return `Connected: Tributary can read ${adminEmail}'s mail through domain-wide delegation.`;
}

/** What a Workspace admin does once, in the Admin console, to let Tributary's service account in. */
export function delegationInstructions(config: GmailConfig): { instructions: SetupInstructions; serviceAccountEmail: string; clientId: string } {
  const key = serviceAccountKey(config);
  return {
    serviceAccountEmail: key.client_email,
    clientId: key.client_id,
    instructions: {
      introduction: `Tributary reads Gmail through its service account ${key.client_email} with domain-wide delegation. A Google Workspace super administrator grants it once.`,
      steps: [
        { title: "Open domain-wide delegation", details: "In the Google Admin console go to Security → Access and data control → API controls, then Manage Domain Wide Delegation." },
        { title: "Add Tributary's client", details: "Click Add new and enter this client ID:", code_block: key.client_id },
        { title: "Grant the read-only scopes", details: "Paste these OAuth scopes (comma separated) and click Authorize:", code_block: `${GMAIL_SCOPE},${DIRECTORY_SCOPE},${DIRECTORY_USER_SCOPE}` },
        { title: "Enter your admin e-mail below", details: "Tributary acts as this administrator to list groups and read mail. Changes can take a few minutes to apply." },
      ],
    },
  };
}

// ---- INDIVIDUAL: one user's mailbox through OAuth (google-auth-library's OAuth2Client) ----------------

export interface GmailTokens {
  access_token: string;
  refresh_token: string | null;
  expiry_date: number | null;
}

export function oauthClient(config: GmailOAuthConfig, redirectUri: string, tokens?: GmailTokens, timeoutMs = connectionTestTimeoutMs()): OAuth2Client {
  const client = new OAuth2Client({
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    redirectUri,
    endpoints: { oauth2AuthBaseUrl: config.authUrl, oauth2TokenUrl: config.tokenUrl },
    transporterOptions: { timeout: timeoutMs },
  });
  if (tokens) client.setCredentials(tokens);
  return client;
}

export function gmailAuthUrl(config: GmailOAuthConfig, redirectUri: string, state: string): string {
  return oauthClient(config, redirectUri).generateAuthUrl({ access_type: "offline", prompt: "consent", scope: [GMAIL_SCOPE], state, include_granted_scopes: true });
}

export async function exchangeGmailCode(config: GmailOAuthConfig, redirectUri: string, code: string): Promise<{ tokens: GmailTokens; email: string }> {
  const client = oauthClient(config, redirectUri);
  let tokens: GmailTokens;
  try {
    const { tokens: t } = await client.getToken(code);
    if (!t.access_token) throw new ProviderError("Google returned no access token.");
    tokens = { access_token: t.access_token, refresh_token: t.refresh_token ?? null, expiry_date: t.expiry_date ?? null };
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    throw failure(error, "accept the authorization code");
  }
  client.setCredentials(tokens);
  try {
    const { data } = await gmail({ version: "v1", auth: client as any, rootUrl: `${config.gmailBaseUrl}/`, timeout: connectionTestTimeoutMs() }).users.getProfile({ userId: "me" });
    return { tokens, email: data.emailAddress ?? "" };
  } catch (error) {
    throw failure(error, "read the mailbox's profile");
  }
}

/** The individual mode's test connection: the signed-in user's own mailbox (users.messages.list on "me"). */
export async function testIndividualMailbox(config: GmailOAuthConfig, tokens: GmailTokens, onRefresh: (tokens: GmailTokens) => Promise<void>): Promise<string> {
  const client = oauthClient(config, "", tokens);
  client.on("tokens", (t) => {
    void onRefresh({ access_token: t.access_token ?? tokens.access_token, refresh_token: t.refresh_token ?? tokens.refresh_token, expiry_date: t.expiry_date ?? null });
  });
  try {
    await gmail({ version: "v1", auth: client as any, rootUrl: `${config.gmailBaseUrl}/`, timeout: connectionTestTimeoutMs() }).users.messages.list({ userId: "me", maxResults: 1 });
  } catch (error) {
    throw failure(error, "read the mailbox");
  }
  return "Connected: Tributary can read this mailbox.";
}
