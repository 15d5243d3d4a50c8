import { meet, type meet_v2 } from "@googleapis/meet";
import type { SetupInstructions } from "../../../../contract/sources.js";
import { ProviderError } from "../kit/index.js";
import { connectionTestTimeoutMs, describeMs, isTimeoutError } from "../../../lib/outbound.js";
import { delegatedClient, delegationInstructions, DIRECTORY_SCOPE, DIRECTORY_USER_SCOPE, listGoogleGroups } from "../gmail/auth.js";
import type { MeetConfig } from "./config.js";

/**
 * Google Meet through Tributary's Workspace service account (Gmail's, gmail/auth.ts): google-auth-library's JWT
 * client signs an assertion for a Workspace user (the `subject`) with Meet's read-only scope, and the official Meet
 * client (@googleapis/meet, REST API v2) reads that user's conference records with it.
 */
export const MEET_SCOPE = "https://www.googleapis.com/auth/meetings.space.readonly";
/** What the Workspace grants Tributary's client: Meet's records, and the Directory's users and groups (who is in scope). */
export const MEET_DELEGATION_SCOPES = [MEET_SCOPE, DIRECTORY_USER_SCOPE, DIRECTORY_SCOPE];

/** The Meet client acting as `subject` (a Workspace user) through domain-wide delegation. */
export function meetApi(config: MeetConfig, subject: string, timeoutMs = connectionTestTimeoutMs()): meet_v2.Meet {
  const auth = delegatedClient({ ...config, tokenUrl: config.meetTokenUrl }, subject, [MEET_SCOPE], timeoutMs);
  return meet({ version: "v2", auth: auth as any, rootUrl: `${config.meetBaseUrl}/`, timeout: timeoutMs });
}

export interface GoogleErrorLike {
  status?: number;
  code?: string | number;
  message?: string;
  response?: { status?: number; headers?: unknown; data?: { error?: string | { message?: string; status?: string }; error_description?: string } };
}

export const statusOf = (error: unknown): number | undefined => {
  const e = error as GoogleErrorLike;
  return e?.response?.status ?? (typeof e?.status === "number" ? e.status : undefined);
};

/** The OAuth error code of a refused token request ("unauthorized_client", "invalid_grant"), else null (an API's error). */
export const tokenErrorOf = (error: unknown): string | null => {
  const value = (error as GoogleErrorLike)?.response?.data?.error;
  return typeof value === "string" ? value : null;
};

/** Google's reason, without its closing period. */
export function reasonOf(error: unknown): string {
  const e = error as GoogleErrorLike;
  const data = e?.response?.data;
  const detail = typeof data?.error === "object" ? data.error.message : data?.error_description || (typeof data?.error === "string" ? data.error : undefined);
  return String(detail ?? e?.message ?? `status ${statusOf(error)}`).replace(/\.$/, "");
}

/** The sentences of Meet's refusals: the same for a connection test and a sync. */
export const MEET_REFUSALS = {
  notGranted: (who: string) =>
    `Google refused to let Tributary act as ${who}: the Workspace has not granted Tributary's service account domain-wide delegation for Google Meet (${MEET_SCOPE}). A super administrator must grant it in the Admin console (Security → Access and data control → API controls → Domain-wide delegation), then test again.`,
  revoked: (who: string) =>
    `Google no longer lets Tributary act as ${who}: the Workspace's domain-wide delegation for Google Meet was revoked. A super administrator must grant it again in the Admin console (Security → Access and data control → API controls → Domain-wide delegation).`,
  unknownUser: (who: string) =>
    `Google does not know ${who} as a user of the Workspace that granted Tributary domain-wide delegation: enter the e-mail of an administrator in the Workspace's own domain.`,
};

/**
 * A refusal of a call made as `who`, as one sentence: the token endpoint's (delegation not granted or revoked, a
 * user of another domain) or the API's (401: the grant was revoked meanwhile; 403 and the like, Google's reason).
 */
export function refusal(error: unknown, who: string, what: string, wasGranted: boolean): ProviderError {
  const status = statusOf(error);
  const token = tokenErrorOf(error);
  if (status === undefined && !(error as GoogleErrorLike)?.response && isTimeoutError(error)) {
    return new ProviderError(`Google did not answer within ${describeMs(connectionTestTimeoutMs())} to ${what}. Please try again.`, false, true);
  }
  if (status === undefined && !(error as GoogleErrorLike)?.response) return new ProviderError(`Google could not be reached to ${what}. Please try again.`);
  if (token === "unauthorized_client" || token === "access_denied") return new ProviderError(wasGranted ? MEET_REFUSALS.revoked(who) : MEET_REFUSALS.notGranted(who), true);
  if (token === "invalid_grant" && /user|email/i.test(reasonOf(error))) return new ProviderError(MEET_REFUSALS.unknownUser(who), true);
  if (!token && status === 401) return new ProviderError(MEET_REFUSALS.revoked(who), true);
  return new ProviderError(`Google refused to ${what}: ${reasonOf(error)}.`, status === 401 || status === 403);
}

/**
 * The test connection: a token for the admin with Meet's scope and one conferenceRecords.list call; when groups are
 * named, that they exist (Directory groups.list, as Gmail's test). `wasGranted`: this credential passed a test before,
 * so a refused delegation was revoked since.
 */
export async function testMeetConnection(config: MeetConfig, adminEmail: string, groupIds: string[] = [], wasGranted = false): Promise<string> {
  try {
    await meetApi(config, adminEmail).conferenceRecords.list({ pageSize: 1 }, { retry: false });
  } catch (error) {
    throw refusal(error, adminEmail, `read ${adminEmail}'s Google Meet conference records`, wasGranted);
  }
  if (groupIds.length) {
    const known = new Set((await listGoogleGroups(config, adminEmail)).map((g) => g.id));
    const missing = groupIds.filter((id) => !known.has(id));
    if (missing.length) throw new ProviderError(`Google has no group ${missing.join(", ")} in this Workspace.`);
  }
  return `Connected: Tributary can read ${adminEmail}'s Google Meet conference records through domain-wide delegation.`;
}

/**
 * What a Workspace admin does once, in the Admin console: Gmail's delegation steps (the same service account and
 * client), with Meet's scopes, and transcripts turned on.
 */
export function meetInstructions(config: MeetConfig): { instructions: SetupInstructions; serviceAccountEmail: string; clientId: string } {
  const { instructions, serviceAccountEmail, clientId } = delegationInstructions(config);
  const [open, addClient] = instructions.steps;
  return {
    serviceAccountEmail,
    clientId,
    instructions: {
      introduction: `Tributary reads Google Meet conference records and transcripts through its service account ${serviceAccountEmail} with domain-wide delegation. A Google Workspace super administrator grants it once.`,
      steps: [
        open!,
        addClient!,
        { title: "Grant the read-only scopes", details: "Paste these OAuth scopes (comma separated) and click Authorize:", code_block: MEET_DELEGATION_SCOPES.join(",") },
        {
          title: "Turn on Meet transcripts",
          details: "In the Admin console go to Apps → Google Workspace → Google Meet → Meet video settings → Transcripts, and let people transcribe their meetings. Only meetings with a transcript have transcript lines.",
        },
        {
          title: "Enter your admin e-mail below and test the connection",
          details: "Tributary acts as this administrator to list the Workspace's users or a group's members, then reads each user's conference records as that user. Changes can take a few minutes to apply.",
        },
      ],
    },
  };
}
