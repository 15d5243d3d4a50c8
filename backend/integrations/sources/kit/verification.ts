import type { CredentialRow } from "../../../db/sources.js";
import type { SourcePlugin, Verification } from "../plugin.js";

/** A credential's last verification (kept in its non-secret metadata), or null. */
export function lastVerification(credential: Pick<CredentialRow, "metadata">): Verification | null {
  const v = credential.metadata.verification as Verification | undefined;
  return v && typeof v === "object" && typeof v.status === "string" ? v : null;
}

/** Whether the credential's last verification succeeded for the very setup these settings name. */
export function credentialVerified(plugin: SourcePlugin, credential: Pick<CredentialRow, "metadata">, settings: Record<string, unknown>): boolean {
  const v = lastVerification(credential);
  if (!v || v.status !== "success") return false;
  return plugin.verificationCovers?.(v, settings) ?? true;
}
