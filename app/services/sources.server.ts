import { integrationLabel, SOURCE_INTEGRATIONS, SOURCE_MESSAGES, type CallbackResponse, type Source } from "@contract/sources";
import type { VerifyAnswer } from "~/integrations/sources.server";
import { callBackend } from "./backend.server";
import { isRecordId, pageData } from "./records.server";

/** The source calls of spec §7; the create page's loader and action live with their route (app/routes/_app.sources.add.($integrationType)/). */

export interface IntegrationOption {
  name: string;
  label: string;
}

/** The type select's choices, or the built-in list when the backend does not answer: the select must still work. */
export async function fetchSourceIntegrations(request: Request): Promise<IntegrationOption[]> {
  const result = await callBackend<{ data?: { sources?: IntegrationOption[] } }>(request, "/integrations/sources");
  if (result.ok && Array.isArray(result.data?.data?.sources)) return result.data.data.sources;
  return SOURCE_INTEGRATIONS.map(({ name, label }) => ({ name, label }));
}

/** The backend calls every source makes; a source's own calls live in app/integrations/<name>.server.ts. */
export const api = {
  authUrl: (request: Request, integration: string) =>
    callBackend<{ auth_url: string; state: string }>(request, `/externalauth/${integration}/auth_url`, {}, `Could not start the ${integrationLabel(integration)} sign-in.`),
  callback: (request: Request, integration: string, body: Record<string, string>, fallback = `${integrationLabel(integration)} authentication failed.`) =>
    callBackend<CallbackResponse>(request, `/externalauth/${integration}/callback`, { method: "POST", json: body }, fallback),
  verifySetup: (request: Request, integration: string, body: Record<string, unknown>) =>
    callBackend<VerifyAnswer>(request, `/externalauth/${integration}/verify-setup`, { method: "POST", json: body }, SOURCE_MESSAGES.verificationFailed),
  createSource: (request: Request, body: Record<string, unknown>) =>
    callBackend<Source>(request, "/sources/create", { method: "POST", json: body }, "the server did not answer"),
  getSource: (request: Request, id: string) => callBackend<Source>(request, `/sources/list-by-id/${encodeURIComponent(id)}`, {}, SOURCE_MESSAGES.fetchSourceFailed),
  updateSource: (request: Request, id: string, body: { name: string; description: string }) =>
    callBackend<Source>(request, `/sources/update/${encodeURIComponent(id)}`, { method: "PUT", json: body }, "the server did not answer"),
  deleteSource: (request: Request, id: string) =>
    callBackend<{ message: string }>(request, `/sources/delete/${encodeURIComponent(id)}`, { method: "DELETE" }, SOURCE_MESSAGES.deleteFailed),
};

/** A source for a detail/edit page, or the spec's message (with a 404 status when there is no such source of this user's). */
export async function loadSource(request: Request, id: string) {
  const result = isRecordId(id) ? await api.getSource(request, id) : ({ ok: false, status: 404 } as const);
  if (result.ok) return pageData<{ source: Source | null; error: string | null }>({ source: result.data, error: null }, false);
  const notFound = result.status === 404;
  return pageData<{ source: Source | null; error: string | null }>({ source: null, error: notFound ? SOURCE_MESSAGES.notFound : SOURCE_MESSAGES.fetchSourceFailed }, notFound);
}
