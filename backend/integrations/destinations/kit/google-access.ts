import { DESTINATION_MESSAGES, type IntegrationInstructions, type InstructionStep, type PermissionType, type ServiceAccountInfo } from "../../../../contract/destinations.js";
import { findCredential, serviceAccountCredential, type CredentialRow } from "../../../db/destinations.js";
import { ConnectionTestError, type DestinationCall, type PluginDestination } from "../plugin.js";
import { accessFailure } from "./access-check.js";
import { platformServiceAccount, ServiceAccountError, type PlatformServiceAccount } from "./google.js";

/**
 * What Cloud Storage and BigQuery share: users grant the platform's service account access to their bucket or dataset
 * (Tributary never asks for their keys); a test checks that access with the credential naming that account.
 */

/** Who is granted access, and where. */
export interface GoogleGrant {
  email: string;
  projectId?: string;
}

export function grantSteps(title: string, description: string, steps: InstructionStep[], email: string): IntegrationInstructions {
  return { title, description, instructions: steps.map((s) => `${s.title}: ${s.description}`), steps, service_account_email: email };
}

/** What a user reads while the platform's service account is missing or broken (the operator's detail is logged at start). */
export const GOOGLE_UNAVAILABLE = "Google Cloud destinations are not available on this server yet: it has no Google service account to write with.";

/** The platform's service account; unset or broken, a 422 in the user's words. */
export function serviceAccount(): PlatformServiceAccount {
  try {
    return platformServiceAccount();
  } catch (error) {
    if (error instanceof ServiceAccountError) throw new ConnectionTestError(422, GOOGLE_UNAVAILABLE);
    throw error;
  }
}

/** A Google plug-in's `unavailable`: null while the platform's service account can be read, else why (and what to set). */
export function googleUnavailable(): { reason: string; detail: string } | null {
  try {
    platformServiceAccount();
    return null;
  } catch (error) {
    if (error instanceof ServiceAccountError) return { reason: GOOGLE_UNAVAILABLE, detail: error.message };
    throw error;
  }
}

/** POST /externalauth/<storage|bigquery>/service_account: the account to grant, and the user's credential naming it. */
export async function serviceAccountInfo(integration: string, call: DestinationCall, instructions: (email: string) => IntegrationInstructions): Promise<ServiceAccountInfo> {
  const account = serviceAccount();
  const credential = await serviceAccountCredential(call.services.db, call.ownerId, integration, account.client_email);
  const details = instructions(account.client_email);
  return {
    service_account_email: account.client_email,
    credential_id: credential.id,
    instructions: details.instructions,
    description: details.description,
    status: "success",
    message: "Grant this service account access as described, then authenticate.",
  };
}

/** Runs `check` with the platform's account once the body's credential is the user's credential for that very account. */
export async function checkWithServiceAccount(
  integration: string,
  call: DestinationCall,
  credentialId: string | undefined,
  check: (account: PlatformServiceAccount) => Promise<void>,
): Promise<string> {
  const credential = await findCredential(call.services.db, call.ownerId, credentialId);
  if (!credential || credential.integrationName !== integration) throw new ConnectionTestError(400, "Integration details are missing. Please re-select the integration type.");
  const account = serviceAccount();
  if (credential.metadata.service_account_email !== account.client_email) {
    throw new ConnectionTestError(400, "Service account information is not available. Please re-select an integration type.");
  }
  try {
    await check(account);
  } catch (error) {
    accessFailure(error);
  }
  return credential.id;
}

/** The config Google destinations store: the project and the account that was granted access. */
export function googleConfig(settings: { project_id?: string }, credential: { metadata: Record<string, unknown> } | null) {
  return { project_id: settings.project_id, service_account_email: credential?.metadata.service_account_email };
}

/** A setting as stored: its trimmed text ("" when not text). */
export const trimmed = (x: unknown) => (typeof x === "string" ? x.trim() : "");

/** The settings of a Google destination: the project, its place (`K`: bucket_name, dataset_name) and the permission type. */
export type GoogleSettings<K extends string> = Record<string, unknown> & { project_id?: string; permission_type?: PermissionType } & { [P in K]?: string };

/**
 * PUT /destinations/update of a Google destination: the project and its place may change (each required, the place
 * unless `placeMissing` is null); a change is tested again and the config keeps the account that was granted access.
 */
export async function updateGoogleDestination<K extends string>(
  destination: PluginDestination,
  body: Record<string, unknown>,
  retest: (values: Partial<GoogleSettings<K>> & { credential_id?: string }) => Promise<CredentialRow>,
  place: { key: K; missing: string | null; retestWith?: Partial<GoogleSettings<K>> },
): Promise<{ config: Record<string, unknown>; credentialId: string | null }> {
  const config = destination.config;
  if (!body.project_id) throw new ConnectionTestError(400, DESTINATION_MESSAGES.projectId);
  if (place.missing !== null && !body[place.key]) throw new ConnectionTestError(400, place.missing);
  const next = { project_id: trimmed(body.project_id), [place.key]: trimmed(body[place.key]) };
  if (!Object.entries(next).some(([k, value]) => (config[k] ?? "") !== value)) return { config, credentialId: destination.credentialId };
  const credential = await retest({
    ...body,
    ...next,
    ...place.retestWith,
    credential_id: (body.credential_id as string | undefined) ?? destination.credentialId ?? undefined,
  } as Partial<GoogleSettings<K>> & { credential_id?: string });
  return { config: { ...config, ...next, service_account_email: credential.metadata.service_account_email ?? config.service_account_email }, credentialId: credential.id };
}
