import { integrationLabel, SOURCE_INTEGRATIONS, SOURCE_MESSAGES, type Source, type SourceIntegrationName } from "@contract/sources";
import { callBackend, knownRoute, type Outcome } from "./backend.server";
import { isRecordId, pageData } from "./records.server";

/** The source calls of spec §7; the create page's loader and action live with their route (app/routes/_app.sources.add.($integrationType)/). */

export interface IntegrationOption {
  name: string;
  label: string;
}

/** The type select's choices, or the built-in list when the backend does not answer: the select must still work. */
export async function fetchSourceIntegrations(request: Request): Promise<IntegrationOption[]> {
  const result = await callBackend(request, "GET /integrations/sources");
  if (result.ok) return result.data.data.sources;
  return SOURCE_INTEGRATIONS.map(({ name, label }) => ({ name, label }));
}

/** A call the integration's plug-in does not have: what the page says, as the backend's 404 would be. */
const noSuchCall = (message: string) => Promise.resolve({ ok: false, status: 404, message } as const);

/** The backend calls every source makes; a source's own calls live in app/integrations/<name>.server.ts. */
export const api = {
  authUrl: (request: Request, integration: SourceIntegrationName) => {
    const failure = `Could not start the ${integrationLabel(integration)} sign-in.`;
    const route = knownRoute(`GET /externalauth/${integration}/auth_url`);
    return route ? callBackend(request, route, {}, failure) : noSuchCall(failure);
  },
  callback: (request: Request, integration: SourceIntegrationName, body: Record<string, string>, fallback = `${integrationLabel(integration)} authentication failed.`) =>
    callBackend(request, `POST /externalauth/${integration}/callback`, { json: body }, fallback),
  /** The generic verification (Teams'), for a source without a verification of its own. */
  verifySetup: (request: Request, integration: SourceIntegrationName, body: Record<string, unknown>) => {
    const route = knownRoute(`POST /externalauth/${integration}/verify-setup`);
    return route ? callBackend(request, route, { json: body }, SOURCE_MESSAGES.verificationFailed) : noSuchCall(SOURCE_MESSAGES.verificationFailed);
  },
  createSource: (request: Request, body: Record<string, unknown>) => callBackend(request, "POST /sources/create", { json: body }, "the server did not answer"),
  getSource: (request: Request, id: string) => callBackend(request, "GET /sources/list-by-id/:id", { params: { id } }, SOURCE_MESSAGES.fetchSourceFailed),
  updateSource: (request: Request, id: string, body: { name: string; description: string }) =>
    callBackend(request, "PUT /sources/update/:id", { params: { id }, json: body }, "the server did not answer"),
  deleteSource: (request: Request, id: string) => callBackend(request, "DELETE /sources/delete/:id", { params: { id } }, SOURCE_MESSAGES.deleteFailed),
};

/** A source for a detail/edit page, or the spec's message (with a 404 status when there is no such source of this user's). */
export async function loadSource(request: Request, id: string) {
  const result: Outcome<Source> = isRecordId(id) ? await api.getSource(request, id) : { ok: false, status: 404, message: SOURCE_MESSAGES.notFound };
  if (result.ok) return pageData<{ source: Source | null; error: string | null }>({ source: result.data, error: null }, false);
  const notFound = result.status === 404;
  return pageData<{ source: Source | null; error: string | null }>({ source: null, error: notFound ? SOURCE_MESSAGES.notFound : SOURCE_MESSAGES.fetchSourceFailed }, notFound);
}
