import { startFakeZoom } from "../fakes/zoom";
import { startFakeMicrosoft } from "../fakes/graph";
import { startFakeOutlook } from "../fakes/outlook";
import { makeServiceAccountKey, startFakeGoogle } from "../fakes/google-admin";
import { startFakeMeet } from "../fakes/meet";
import { DEFAULT_FAKE_PORTS, startDestinationFakes } from "../fakes/google-destination-fakes";

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
  // Outlook: the same Microsoft app (TEAMS_CLIENT_*), its identity and Graph mail on a server of its own.
  const outlook = await startFakeOutlook({ port: 0, clientId: microsoft.clientId, clientSecret: microsoft.clientSecret });
  const google = await startFakeGoogle({ port: 0 });
  // Google Meet: the fake Google's service account and Directory, Meet's API and token endpoint on a server of its own.
  const meet = await startFakeMeet({ port: 0, key: google.key });
  // Fixed ports (overridable): destinations-cloud.spec.ts reads E2E_GCS_PORT & co. to find them.
  const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const destinationPorts = {
    gcs: port("E2E_GCS_PORT", DEFAULT_FAKE_PORTS.gcs),
    bigquery: port("E2E_BIGQUERY_PORT", DEFAULT_FAKE_PORTS.bigquery),
    snowflake: port("E2E_SNOWFLAKE_PORT", DEFAULT_FAKE_PORTS.snowflake),
  };
  const destinations = await startDestinationFakes(destinationPorts);
  Object.assign(process.env, {
    ZOOM_CLIENT_ID: zoom.clientId,
    ZOOM_CLIENT_SECRET: zoom.clientSecret,
    ZOOM_OAUTH_BASE_URL: zoom.oauthBaseUrl,
    ZOOM_API_BASE_URL: zoom.apiBaseUrl,
    TEAMS_CLIENT_ID: microsoft.clientId,
    TEAMS_CLIENT_SECRET: microsoft.clientSecret,
    MICROSOFT_LOGIN_BASE_URL: microsoft.loginBaseUrl,
    MICROSOFT_GRAPH_BASE_URL: microsoft.graphBaseUrl,
    OUTLOOK_LOGIN_BASE_URL: outlook.loginBaseUrl,
    OUTLOOK_GRAPH_BASE_URL: outlook.graphBaseUrl,
    GMAIL_SERVICE_ACCOUNT_KEY: google.serviceAccountKey,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    GOOGLE_ADMIN_BASE_URL: google.url,
    GMAIL_API_BASE_URL: google.url,
    GMAIL_OAUTH_CLIENT_ID: google.oauthClientId,
    GMAIL_OAUTH_CLIENT_SECRET: google.oauthClientSecret,
    GOOGLE_OAUTH_AUTH_URL: google.authUrl,
    MEET_API_URL: meet.url,
    MEET_TOKEN_URL: meet.tokenUrl,
    // The platform's service account for Cloud Storage / BigQuery destinations, and where their APIs are.
    GOOGLE_SERVICE_ACCOUNT_KEY: JSON.stringify(makeServiceAccountKey().key),
    GCS_API_ENDPOINT: `http://127.0.0.1:${destinationPorts.gcs}`,
    BIGQUERY_API_ENDPOINT: `http://127.0.0.1:${destinationPorts.bigquery}`,
    SNOWFLAKE_HOST_OVERRIDE: `http://127.0.0.1:${destinationPorts.snowflake}`,
  });
  return async () => {
    await Promise.all([zoom.close(), microsoft.close(), outlook.close(), google.close(), meet.close(), destinations.stop()]);
  };
}
