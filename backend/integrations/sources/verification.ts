import type { CredentialRow } from "../../db/sources.js";

/**
 * The last verification of a credential's setup (Teams verify-setup, Gmail
 * test_connection), kept in the credential's non-secret metadata. A source may
 * be created only with the very setup that was verified.
 */
export interface Verification {
  status: "success" | "failed";
  scope: string;
  team_id?: string;
  admin_email?: string;
  group_ids?: string[];
  message: string;
  at: string;
}

export function lastVerification(credential: Pick<CredentialRow, "metadata">): Verification | null {
  const v = credential.metadata.verification as Verification | undefined;
  return v && typeof v === "object" && typeof v.status === "string" ? v : null;
}

export function credentialVerified(credential: Pick<CredentialRow, "integrationName" | "metadata">, metadata: Record<string, unknown>): boolean {
  const v = lastVerification(credential);
  if (!v || v.status !== "success") return false;
  if (credential.integrationName === "teams") {
    if (v.scope !== metadata.teams_extraction_scope) return false;
    return v.scope !== "TEAM" || v.team_id === metadata.team_id;
  }
  if (credential.integrationName === "gmail") {
    if (metadata.gmail_extraction_scope === "INDIVIDUAL") return true;
    return typeof metadata.admin_email === "string" && v.admin_email?.toLowerCase() === metadata.admin_email.toLowerCase();
  }
  return true;
}
