import { API_KEY_MESSAGES as M, type ApiKey, type CreateApiKeyBody } from "@contract/api-keys";
import { callBackend, type Outcome } from "./backend.server";

/** The API key calls (issue 38): the signed-in user's own keys, listed, made (the token once) and revoked. */

export async function loadApiKeys(request: Request): Promise<Outcome<ApiKey[]>> {
  const outcome = await callBackend(request, "GET /api-keys", {}, M.fetchFailed);
  return outcome.ok ? { ok: true, data: outcome.data.keys } : outcome;
}

export function createApiKey(request: Request, body: CreateApiKeyBody) {
  return callBackend(request, "POST /api-keys", { json: body }, M.createFailed);
}

export function revokeApiKey(request: Request, id: string) {
  return callBackend(request, "POST /api-keys/:id/revoke", { params: { id }, json: {} }, M.revokeFailed);
}
