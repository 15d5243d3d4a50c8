import { DESTINATION_MESSAGES as M, type Destination, type IntegrationInstructions, type IntegrationOption } from "@contract/destinations";
import { destinationManifest, destinationSetup } from "~/integrations";
import type { BackendRoute } from "@contract/responses";
import { isSourceIntegration, type SourceIntegrationName } from "@contract/sources";
import { callBackend, knownRoute, type Outcome } from "./backend.server";

export async function loadIntegrations(request: Request): Promise<Outcome<IntegrationOption[]>> {
  const result = await callBackend(request, "GET /integrations/destinations");
  if (!result.ok) return { ...result, message: `Failed to fetch integrations: ${result.message}` };
  return { ok: true, data: result.data.data.destinations };
}

export function createDestination(request: Request, body: Record<string, unknown>) {
  return callBackend(request, "POST /destinations/create", { json: body }, M.createFailed);
}

export function updateDestination(request: Request, id: string, body: Record<string, unknown>) {
  return callBackend(request, "PUT /destinations/update/:id", { params: { id }, json: body }, M.updateFailed);
}

export function deleteDestination(request: Request, id: string) {
  return callBackend(request, "DELETE /destinations/delete/:id", { params: { id } }, M.deleteFailed);
}

export function loadDestination(request: Request, id: string) {
  return callBackend(request, "GET /destinations/list-by-id/:id", { params: { id } }, "Failed to fetch destination");
}

/** A call the integration's plug-in does not have: the call's message, as the backend's 404 would be. */
const noSuchCall = (message: string) => Promise.resolve({ ok: false, status: 404, message } as const);

type DestinationCall = "service_account" | "get_instructions" | "test_connection";
/** A source's own /externalauth calls (Gmail's test_connection): never a destination's. */
type SourceCall = `${string} /externalauth/${SourceIntegrationName}/${string}`;

/** Every plug-in answers its external-auth calls under its own name (contract/responses.ts lists them); null: it has no such call. */
function destinationCall<C extends DestinationCall>(integration: string, call: C) {
  if (isSourceIntegration(integration)) return null;
  return knownRoute(`POST /externalauth/${integration}/${call}`) as Exclude<Extract<BackendRoute, `POST /externalauth/${string}/${C}`>, SourceCall> | null;
}

export function loadServiceAccount(request: Request, integration: string) {
  const route = destinationCall(integration, "service_account");
  const failure = "Service-account generation failed";
  return route ? callBackend(request, route, { json: { integration_name: integration } }, failure) : noSuchCall(failure);
}

export function loadInstructions(request: Request, integration: string, body: Record<string, unknown>) {
  const route = destinationCall(integration, "get_instructions");
  const failure = "Failed to generate setup instructions";
  return route ? callBackend(request, route, { json: body }, failure) : noSuchCall(failure);
}

export function testConnection(request: Request, integration: string, body: Record<string, unknown>) {
  const route = destinationCall(integration, "test_connection");
  const failure = "Connection test failed.";
  return route ? callBackend(request, route, { json: body }, failure) : noSuchCall(failure);
}

/** The non-empty string fields of a form, trimmed (password kept as typed). */
export function formFields(formData: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of formData) {
    if (typeof value !== "string") continue;
    const v = key === "password" ? value : value.trim();
    if (v !== "") fields[key] = v;
  }
  return fields;
}

type Values = Partial<Record<string, string>>;

/** The named values that are set. */
function pick(values: Values, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.filter((n) => values[n] !== undefined && values[n] !== "").map((n) => [n, values[n]!]));
}

const settingNames = (integration: string, withSecrets: boolean) => {
  const manifest = destinationManifest(integration);
  const names = (manifest?.fields ?? []).map((f) => f.name).filter((n) => withSecrets || !manifest?.secretFields.includes(n));
  return [...names, ...(destinationSetup(integration).extraFields ?? [])];
};

/** The body of a test_connection call (spec §7): the manifest's settings and the setup's extra fields. */
export function testBody(integration: string, fields: Values) {
  const manifest = destinationManifest(integration);
  return { integration_name: integration, category: manifest?.category, name: fields.name, label: manifest?.label ?? integration, ...pick(fields, settingNames(integration, true)) };
}

/** The body of a get_instructions call: the settings so far, secrets left out. */
export function instructionsBody(integration: string, values: Values, extra: Record<string, string> = {}) {
  return { category: destinationManifest(integration)?.category, ...pick(values, settingNames(integration, false)), ...extra };
}

/** POST /destinations/create from the form: every field, with the type's name, label and category. */
export function createBody(integration: string, fields: Values) {
  const { type: _type, intent: _intent, ...rest } = fields;
  const manifest = destinationManifest(integration);
  return { ...rest, integration_name: integration, integration_label: manifest?.label ?? integration, category: manifest?.category };
}

/** PUT /destinations/update/{id}: name and description, and the tested settings where an update may change them. */
export function updateBody(integration: string, fields: Values) {
  const settings = destinationSetup(integration).editable
    ? { ...pick(fields, settingNames(integration, false)), credential_id: fields.credential_id, validation_token: fields.validation_token }
    : {};
  return { name: fields.name, description: fields.description ?? "", ...settings };
}

/** A stored destination as the form's values (its config holds no secret). */
export function destinationValues(destination: Destination): Record<string, string> {
  const config = Object.entries(destination.config).filter((entry): entry is [string, string] => typeof entry[1] === "string");
  return { ...Object.fromEntries(config), name: destination.name, description: destination.description, type: destination.integration_name };
}

/** What a setup with the platform's service account shows: the account and the steps to grant it access. */
export async function loadServiceAccountSetup(request: Request, integration: string, values: Values, problem: (message: string) => string) {
  if (!destinationSetup(integration).serviceAccount) return { serviceAccount: null, instructions: null, errors: [] as string[] };
  const account = await loadServiceAccount(request, integration);
  if (!account.ok) return { serviceAccount: null, instructions: null, errors: [problem(account.message)] };
  const serviceAccount = { email: account.data.service_account_email, credentialId: account.data.credential_id };
  const steps = await grantSteps(request, integration, values);
  return { serviceAccount, instructions: steps, errors: steps ? [] : ["Unable to load instructions."] };
}

/** The steps to grant the platform's service account access, naming the given settings (null: none, or failed). */
export async function grantSteps(request: Request, integration: string, values: Values): Promise<IntegrationInstructions | null> {
  if (!destinationSetup(integration).serviceAccount) return null;
  const steps = await loadInstructions(request, integration, instructionsBody(integration, { ...destinationSetup(integration).stepDefaults, ...values }));
  return steps.ok ? steps.data : null;
}

/** Spec §8: a failed test reads "Connection test failed: {server text}" (the backend's text already says so). */
export function testFailureMessage(message: string): string {
  if (message.startsWith("Connection test failed") || message.startsWith("Connection failed")) return message;
  return `Connection test failed: ${message}`;
}

/** The form's values to show again after a post (never the password). */
export function echoValues(fields: Record<string, string>, secretFields: readonly string[] = ["password"]): Record<string, string> {
  const { validation_token: _token, intent: _intent, ...rest } = fields;
  return Object.fromEntries(Object.entries(rest).filter(([key]) => !secretFields.includes(key)));
}
