import { baseUrl, readEnv, requireEnv } from "../kit/config.js";
import { gmailConfig, type GmailConfig } from "../gmail/config.js";

const DEFAULT_MEET_API_URL = "https://meet.googleapis.com/";

export type MeetConfig = GmailConfig & {
  /** The Meet REST API's root (MEET_API_URL), without its trailing slash. */
  meetBaseUrl: string;
  /**
   * Where the service account's assertions for Meet's scope are exchanged (MEET_TOKEN_URL): Google's token endpoint,
   * the very one Gmail uses (GOOGLE_TOKEN_URL), unless set.
   */
  meetTokenUrl: string;
};

/**
 * Google Meet reads through Gmail's Workspace service account and domain-wide delegation: the same key
 * (GMAIL_SERVICE_ACCOUNT_KEY), token endpoint and Directory API (gmail/config.ts), and the Meet REST API's root.
 */
export function meetConfig(env: NodeJS.ProcessEnv = process.env): MeetConfig {
  requireEnv("Google Meet", ["GMAIL_SERVICE_ACCOUNT_KEY"], env);
  const google = gmailConfig(env);
  return {
    ...google,
    meetBaseUrl: baseUrl(readEnv("MEET_API_URL", env) ?? DEFAULT_MEET_API_URL),
    meetTokenUrl: readEnv("MEET_TOKEN_URL", env) ?? google.tokenUrl,
  };
}
