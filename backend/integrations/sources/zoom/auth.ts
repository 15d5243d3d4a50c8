import * as oidc from "openid-client";
import type { ZoomGroup } from "../../../../contract/sources.js";
import type { Database } from "../../../db/client.js";
import { replaceCredentialSecret } from "../../../db/sources.js";
import type { SecretBox } from "../../../lib/crypto.js";
import { ProviderError } from "../kit/index.js";
import type { ZoomConfig } from "./config.js";
import { connectionTestTimeoutMs, describeMs, isTimeoutError } from "../../../lib/outbound.js";

/**
 * Zoom's OAuth 2.0 authorization-code flow (user-managed app) and the parts of
 * its REST API we call: GET /users/me and GET /groups. The OAuth leg runs on
 * openid-client with Zoom's endpoints given by hand (Zoom publishes no
 * discovery document); the client authenticates at the token endpoint with
 * HTTP Basic, as Zoom requires.
 */
export interface ZoomTokens {
  access_token: string;
  refresh_token: string | null;
  /** Epoch milliseconds. */
  expires_at: number;
  scope: string | null;
}

export const ZOOM_SCOPES = "user:read:user group:read:list_groups group:read:list_members";
/**
 * The granular scopes reading needs on top (zoom-reader.ts): the account's users,
 * a group's members, and every user's cloud recordings with their files.
 */
export const ZOOM_READ_SCOPES = "user:read:list_users:admin group:read:list_members:admin cloud_recording:read:list_user_recordings:admin cloud_recording:read:recording:admin";

function configuration(config: ZoomConfig): oidc.Configuration {
  const server: oidc.ServerMetadata = {
    issuer: config.oauthBaseUrl,
    authorization_endpoint: `${config.oauthBaseUrl}/oauth/authorize`,
    token_endpoint: `${config.oauthBaseUrl}/oauth/token`,
  };
  const c = new oidc.Configuration(server, config.clientId, undefined, oidc.ClientSecretBasic(config.clientSecret));
  if (config.oauthBaseUrl.startsWith("http:")) oidc.allowInsecureRequests(c);
  // openid-client's own bound on each token request, in seconds (its default is 30).
  c.timeout = connectionTestTimeoutMs() / 1000;
  return c;
}

export function zoomAuthUrl(config: ZoomConfig, redirectUri: string, state: string): string {
  return oidc.buildAuthorizationUrl(configuration(config), { redirect_uri: redirectUri, response_type: "code", state }).href;
}

const toTokens = (t: oidc.TokenEndpointResponse, previousRefresh: string | null = null): ZoomTokens => ({
  access_token: t.access_token,
  refresh_token: t.refresh_token ?? previousRefresh,
  expires_at: Date.now() + (t.expires_in ?? 3600) * 1000,
  scope: t.scope ?? null,
});

function providerFailure(error: unknown, what: string): ProviderError {
  if (error instanceof oidc.ResponseBodyError) {
    return new ProviderError(`Zoom refused the ${what}: ${error.error_description ?? error.error}.`, error.error === "invalid_grant" || error.error === "invalid_client");
  }
  if (isTimeoutError(error)) return new ProviderError(`Zoom did not answer the ${what} within ${describeMs(connectionTestTimeoutMs())}. Please try again.`, false, true);
  return new ProviderError(`Zoom could not be reached for the ${what}. Please try again.`);
}

export async function exchangeZoomCode(config: ZoomConfig, redirectUri: string, code: string): Promise<ZoomTokens> {
  const callback = new URL(redirectUri);
  callback.searchParams.set("code", code);
  try {
    const tokens = await oidc.authorizationCodeGrant(configuration(config), callback, { expectedState: oidc.skipStateCheck });
    return toTokens(tokens);
  } catch (error) {
    throw providerFailure(error, "authorization code");
  }
}

export async function refreshZoomTokens(config: ZoomConfig, tokens: ZoomTokens): Promise<ZoomTokens> {
  if (!tokens.refresh_token) throw new ProviderError("The Zoom authorization has expired. Please authenticate again.", true);
  try {
    return toTokens(await oidc.refreshTokenGrant(configuration(config), tokens.refresh_token), tokens.refresh_token);
  } catch (error) {
    throw providerFailure(error, "token refresh");
  }
}

/** Tokens to use as they are: more than a minute from expiry, and not the access token Zoom has just refused. */
export function usableZoomTokens(tokens: ZoomTokens, refused?: string): boolean {
  return tokens.access_token !== refused && tokens.expires_at - 60_000 >= Date.now();
}

/**
 * Usable tokens for a stored Zoom credential, refreshing them at most once however many runs and requests ask at
 * the same time. Zoom revokes a refresh token once it is used, so two that refreshed from the same stored tokens
 * would leave one of them refused ("Invalid Token!") and its source marked in error. Under the credential's row
 * lock: tokens stored since the caller read its own are taken when usable; otherwise the stored refresh token (the
 * latest) is exchanged and the new tokens are stored before the lock is released. `refused` is the access token
 * that Zoom has just answered 401 to, if any.
 */
export async function refreshStoredZoomTokens(
  services: { db: Database; secrets: SecretBox },
  ownerId: string,
  credentialId: string,
  config: ZoomConfig,
  refused?: string,
): Promise<ZoomTokens> {
  let tokens: ZoomTokens | undefined;
  const found = await replaceCredentialSecret(services.db, ownerId, credentialId, async (stored) => {
    if (!stored) throw new ProviderError("The Zoom credential holds no token. Please authenticate again.", true);
    const current = services.secrets.open<ZoomTokens>(stored);
    if (usableZoomTokens(current, refused)) {
      tokens = current;
      return null;
    }
    tokens = await refreshZoomTokens(config, current);
    return services.secrets.seal(tokens);
  });
  if (!found || !tokens) throw new ProviderError("The Zoom credential no longer exists. Please authenticate again.", true);
  return tokens;
}

async function zoomGet<T>(config: ZoomConfig, accessToken: string, path: string, query: Record<string, string> = {}): Promise<T> {
  const url = new URL(`${config.apiBaseUrl}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const timeoutMs = connectionTestTimeoutMs();
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (isTimeoutError(error)) throw new ProviderError(`Zoom did not answer within ${describeMs(timeoutMs)}. Please try again.`, false, true);
    throw new ProviderError("Zoom could not be reached. Please try again.");
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new ProviderError(`Zoom answered ${response.status}${body.message ? `: ${body.message}` : ""}.`, response.status === 401);
  }
  return (await response.json()) as T;
}

export async function zoomMe(config: ZoomConfig, accessToken: string) {
  const me = await zoomGet<{ id?: string; email?: string; account_id?: string; first_name?: string; last_name?: string }>(config, accessToken, "/users/me");
  return { zoom_user_id: me.id ?? null, zoom_email: me.email ?? null, zoom_account_id: me.account_id ?? null };
}

/** GET /groups, every page (Zoom pages with next_page_token). */
export async function zoomGroups(config: ZoomConfig, accessToken: string): Promise<ZoomGroup[]> {
  const groups: ZoomGroup[] = [];
  let token = "";
  for (let page = 0; page < 50; page++) {
    const body = await zoomGet<{ groups?: { id: string; name: string; total_members?: number }[]; next_page_token?: string }>(config, accessToken, "/groups", {
      page_size: "300",
      ...(token ? { next_page_token: token } : {}),
    });
    for (const g of body.groups ?? []) groups.push({ id: String(g.id), name: String(g.name), total_members: Number(g.total_members ?? 0) });
    token = body.next_page_token ?? "";
    if (!token) break;
  }
  return groups;
}
