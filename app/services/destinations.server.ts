import { redirect } from "@remix-run/node";
import type { Destination, IntegrationInstructions, IntegrationOption, ServiceAccountInfo, TestConnectionResult } from "@contract/destinations";
import { backendFetch, backendMessage } from "./backend.server";

/** The outcome of a backend call: the JSON body, or the spec's message for the failure. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

/** Calls the backend for the signed-in browser; a lost session sends it to sign-in. */
export async function callBackend<T>(request: Request, path: string, init: { method?: string; json?: unknown } = {}, fallback = "Something went wrong. Please try again."): Promise<Outcome<T>> {
  let response: Response;
  try {
    response = await backendFetch(request, path, { method: init.method ?? "GET", ...(init.json !== undefined ? { json: init.json } : {}) });
  } catch {
    return { ok: false, status: 503, message: fallback };
  }
  if (response.status === 401) {
    const url = new URL(request.url);
    throw redirect(`/?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  if (!response.ok) return { ok: false, status: response.status, message: await backendMessage(response, fallback) };
  return { ok: true, data: (await response.json()) as T };
}

export async function loadIntegrations(request: Request): Promise<Outcome<IntegrationOption[]>> {
  const result = await callBackend<{ data: { destinations: IntegrationOption[] } }>(request, "/integrations/destinations");
  if (!result.ok) return { ...result, message: `Failed to fetch integrations: ${result.message}` };
  return { ok: true, data: result.data.data.destinations };
}

export function loadDestination(request: Request, id: string): Promise<Outcome<Destination>> {
  return callBackend<Destination>(request, `/destinations/list-by-id/${encodeURIComponent(id)}`, {}, "Failed to fetch destination");
}

/** The external-auth path segment of an integration (the Snowflake variants share "snowflake"). */
const authPath = (integration: string) => (integration === "snowflake_stage" ? "snowflake" : integration);

export function loadServiceAccount(request: Request, integration: "storage" | "bigquery") {
  return callBackend<ServiceAccountInfo>(request, `/externalauth/${integration}/service_account`, { method: "POST", json: { integration_name: integration } }, "Service-account generation failed");
}

export function loadInstructions(request: Request, integration: string, body: Record<string, unknown>) {
  return callBackend<IntegrationInstructions>(request, `/externalauth/${authPath(integration)}/get_instructions`, { method: "POST", json: body }, "Failed to generate setup instructions");
}

export function testConnection(request: Request, integration: string, body: Record<string, unknown>) {
  return callBackend<TestConnectionResult>(request, `/externalauth/${authPath(integration)}/test_connection`, { method: "POST", json: body }, "Connection test failed.");
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

/** The body of a test_connection call from the form's fields (spec §7). */
export function testBody(integration: string, fields: Record<string, string>, label: string) {
  if (integration === "storage" || integration === "bigquery") {
    return {
      integration_name: integration,
      service_account_email: fields.service_account_email,
      credential_id: fields.credential_id,
      name: fields.name,
      label,
      project_id: fields.project_id,
      ...(integration === "storage" ? { bucket_name: fields.bucket_name } : { dataset_name: fields.dataset_name }),
      permission_type: fields.permission_type,
    };
  }
  return {
    category: integration === "snowflake" ? "WAREHOUSE" : "STORAGE",
    account: fields.account,
    user: fields.user,
    password: fields.password,
    ...(integration === "snowflake" ? { warehouse: fields.warehouse } : { stage_name: fields.stage_name }),
    database: fields.database,
    schema: fields.schema,
  };
}

/** Spec §8: a failed test reads "Connection test failed: {server text}" (the backend's text already says so). */
export function testFailureMessage(message: string): string {
  if (message.startsWith("Connection test failed") || message.startsWith("Connection failed")) return message;
  return `Connection test failed: ${message}`;
}

/** The form's values to show again after a post (never the password). */
export function echoValues(fields: Record<string, string>): Record<string, string> {
  const { password: _password, validation_token: _token, intent: _intent, ...rest } = fields;
  return rest;
}
