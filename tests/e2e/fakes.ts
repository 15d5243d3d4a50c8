import { startFakeZoom } from "../fakes/zoom";
import { startFakeMicrosoft } from "../fakes/graph";
import { startFakeGoogle } from "../fakes/google-admin";

/**
 * The third parties the e2e Tributary talks to, as local fakes speaking their
 * documented HTTP APIs. Their URLs and client credentials go into the
 * environment before the product starts (the backend reads them per request;
 * Playwright hands globalSetup's environment to the test workers too).
 * Port 0: only the URLs travel, so nothing can collide.
 */
export async function startFakes(): Promise<() => Promise<void>> {
  const zoom = await startFakeZoom({ port: 0 });
  const microsoft = await startFakeMicrosoft({ port: 0 });
  const google = await startFakeGoogle({ port: 0 });
  Object.assign(process.env, {
    ZOOM_CLIENT_ID: zoom.clientId,
    ZOOM_CLIENT_SECRET: zoom.clientSecret,
    ZOOM_OAUTH_BASE_URL: zoom.oauthBaseUrl,
    ZOOM_API_BASE_URL: zoom.apiBaseUrl,
    TEAMS_CLIENT_ID: microsoft.clientId,
    TEAMS_CLIENT_SECRET: microsoft.clientSecret,
    MICROSOFT_LOGIN_BASE_URL: microsoft.loginBaseUrl,
    MICROSOFT_GRAPH_BASE_URL: microsoft.graphBaseUrl,
    GMAIL_SERVICE_ACCOUNT_KEY: google.serviceAccountKey,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    GOOGLE_ADMIN_BASE_URL: google.url,
    GMAIL_API_BASE_URL: google.url,
    GMAIL_OAUTH_CLIENT_ID: google.oauthClientId,
    GMAIL_OAUTH_CLIENT_SECRET: google.oauthClientSecret,
    GOOGLE_OAUTH_AUTH_URL: google.authUrl,
  });
  return async () => {
    await Promise.all([zoom.close(), microsoft.close(), google.close()]);
  };
}
