import { API_KEY_MESSAGES as M, apiKeyListSchema, createdApiKeySchema, revokedApiKeySchema, type ApiKey, type CreatedApiKey, type CreateApiKeyBody } from "@contract/api-keys";
import { callBackend, type Outcome } from "./backend.server";

/** The API key calls (issue 38): the signed-in user's own keys, listed, made (the token once) and revoked. */

export async function loadApiKeys(request: Request): Promise<Outcome<ApiKey[]>> {
  const outcome = await callBackend(request, "/api-keys", { schema: apiKeyListSchema }, M.fetchFailed);
  return outcome.ok ? { ok: true, data: outcome.data.keys } : outcome;
}

export function createApiKey(request: Request, body: CreateApiKeyBody): Promise<Outcome<CreatedApiKey>> {
  return callBackend(request, "/api-keys", { method: "POST", json: body, schema: createdApiKeySchema }, M.createFailed);
}

export function revokeApiKey(request: Request, id: string): Promise<Outcome<{ message: string }>> {
  return callBackend(request, `/api-keys/${encodeURIComponent(id)}/revoke`, { method: "POST", json: {}, schema: revokedApiKeySchema }, M.revokeFailed);
}
