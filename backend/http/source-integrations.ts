import { Hono, type Context } from "hono";
import { ApiError, jsonBody, parse, requireSession, type ApiEnv } from "./context.js";
import {
  credentialBodySchema,
  DEFAULT_GMAIL_AUTH_MODE,
  gmailCallbackBodySchema,
  gmailGroupsBodySchema,
  gmailTestBodySchema,
  GMAIL_AUTH_MODES,
  SOURCE_MESSAGES,
  teamSetupBodySchema,
  teamsCallbackBodySchema,
  verifySetupBodySchema,
  oauthCallbackBodySchema,
  SOURCE_INTEGRATIONS,
  type CallbackResponse,
} from "../../contract/sources.js";
import { findCredential, insertCredential, setStatusByCredential, updateCredential, type CredentialRow } from "../db/sources.js";
import { gmailConfig, gmailOAuthConfig, NotConfigured, ProviderError, teamsConfig, zoomConfig } from "../integrations/sources/config.js";
import { adminConsentUrl, graphToken, listTeams, teamSetupInstructions, verifyTeamsSetup } from "../integrations/sources/teams.js";
import { and, eq, sql } from "drizzle-orm";
import { sources } from "../db/schema.js";
import { delegationInstructions, exchangeGmailCode, gmailAuthUrl, listGoogleGroups, testGmailConnection, testIndividualMailbox, type GmailTokens } from "../integrations/sources/gmail.js";
import type { Verification } from "../integrations/sources/verification.js";
import { exchangeZoomCode, refreshStoredZoomTokens, usableZoomTokens, zoomAuthUrl, zoomGroups, zoomMe, type ZoomTokens } from "../integrations/sources/zoom.js";
import { randomToken } from "../lib/crypto.js";
import { connectionTestSlot, TooManyConnectionTests } from "../lib/outbound.js";

/**
 * Spec §7 "Sources and integrations": the integration list and the
 * /externalauth calls that authenticate a source and load its setup choices.
 * Tokens and keys are sealed (services.secrets) before they are stored and
 * never leave the backend.
 */
export const sourceIntegrationRoutes = new Hono<ApiEnv>();

/**
 * Runs an integration call, turning configuration and provider problems into 4xx answers with a sentence (a
 * provider that did not answer within CONNECTION_TEST_TIMEOUT_SECONDS: 504).
 */
async function integration<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof NotConfigured) throw new ApiError(409, error.message);
    if (error instanceof ProviderError) throw new ApiError(error.timedOut ? 504 : 502, error.message);
    throw error;
  }
}

/** A connection test (Gmail test_connection, Teams verify-setup) of the signed-in user, within their cap of tests at once. */
async function connectionTest<T>(c: Context<ApiEnv>, work: () => Promise<T>): Promise<T> {
  try {
    return await connectionTestSlot(c.var.user.id, work);
  } catch (error) {
    if (error instanceof TooManyConnectionTests) throw new ApiError(429, error.message);
    // A provider that did not answer says nothing about the setup: nothing is recorded, the user may try again.
    if (error instanceof ProviderError && error.timedOut) throw new ApiError(504, error.message);
    throw error;
  }
}

async function ownedCredential(c: Context<ApiEnv>, id: string, integrationName: string): Promise<CredentialRow> {
  const credential = await findCredential(c.var.services.db, c.var.user.id, id, integrationName);
  if (!credential) throw new ApiError(404, "Credential not found. Please authenticate again.");
  return credential;
}

sourceIntegrationRoutes.get("/integrations/sources", requireSession, (c) =>
  c.json({ data: { sources: SOURCE_INTEGRATIONS.map(({ name, label }) => ({ name, label })) } }),
);

// ---- Data generator ------------------------------------------------------------------------------

sourceIntegrationRoutes.post("/externalauth/datagen/callback", requireSession, async (c) => {
  const credential = await insertCredential(c.var.services.db, c.var.user.id, {
    integrationName: "datagen",
    secret: null,
    metadata: { generator: "tributary-datagen", authenticated_at: new Date().toISOString() },
  });
  const body: CallbackResponse = { credential_id: credential.id, instructions: null, setup_verified: true, message: "Data generator authenticated." };
  return c.json(body);
});

// ---- Zoom -----------------------------------------------------------------------------------------

const zoomRedirectUri = (c: Context<ApiEnv>) => new URL("/sources/add/zoom", c.var.services.config.APP_URL).toString();

sourceIntegrationRoutes.get("/externalauth/zoom/auth_url", requireSession, async (c) => {
  const config = await integration(async () => zoomConfig());
  const state = randomToken(24);
  return c.json({ auth_url: zoomAuthUrl(config, zoomRedirectUri(c), state), state });
});

sourceIntegrationRoutes.post("/externalauth/zoom/callback", requireSession, async (c) => {
  const { code } = parse(oauthCallbackBodySchema, await jsonBody(c));
  const { db, secrets } = c.var.services;
  const { tokens, me } = await integration(async () => {
    const config = zoomConfig();
    const tokens = await exchangeZoomCode(config, zoomRedirectUri(c), code);
    return { tokens, me: await zoomMe(config, tokens.access_token) };
  });
  const credential = await insertCredential(db, c.var.user.id, {
    integrationName: "zoom",
    secret: secrets.seal(tokens),
    metadata: { ...me, scope: tokens.scope, authenticated_at: new Date().toISOString() },
  });
  const body: CallbackResponse = { credential_id: credential.id, instructions: null, setup_verified: true, message: "Zoom authenticated." };
  return c.json(body);
});

/** A live Zoom access token for a credential, refreshed (and re-sealed) when it is about to expire. */
async function zoomAccessToken(c: Context<ApiEnv>, credential: CredentialRow): Promise<string> {
  const { secrets } = c.var.services;
  if (!credential.secret) throw new ApiError(409, "This Zoom credential holds no token. Please authenticate again.");
  const tokens = secrets.open<ZoomTokens>(credential.secret);
  // A sync may be refreshing the same tokens: one at a time, under the credential's lock.
  return usableZoomTokens(tokens) ? tokens.access_token : (await refreshStoredZoomTokens(c.var.services, c.var.user.id, credential.id, zoomConfig())).access_token;
}

sourceIntegrationRoutes.post("/externalauth/zoom/get-groups", requireSession, async (c) => {
  const { credential_id } = parse(credentialBodySchema, await jsonBody(c));
  const credential = await ownedCredential(c, credential_id, "zoom");
  const { db } = c.var.services;
  try {
    const groups = await integration(async () => zoomGroups(zoomConfig(), await zoomAccessToken(c, credential)));
    await setStatusByCredential(db, c.var.user.id, credential.id, "active");
    return c.json({ groups });
  } catch (error) {
    if (error instanceof ApiError && error.status === 502) await setStatusByCredential(db, c.var.user.id, credential.id, "error");
    throw error;
  }
});

// ---- Gmail ----------------------------------------------------------------------------------------

sourceIntegrationRoutes.get("/externalauth/gmail/get_auth_options", requireSession, (c) =>
  c.json({ options: GMAIL_AUTH_MODES.map(({ mode, label }) => ({ mode, label })), default: DEFAULT_GMAIL_AUTH_MODE }),
);

/**
 * Gmail's service-account modes: no OAuth redirect; the credential records the
 * mode and Tributary's service account, and the answer carries the
 * domain-wide-delegation instructions. The default mode needs no verification;
 * the other is verified by test_connection.
 */
const gmailRedirectUri = (c: Context<ApiEnv>) => new URL("/sources/add/gmail", c.var.services.config.APP_URL).toString();

/** INDIVIDUAL mode: Google's OAuth consent for one mailbox. */
sourceIntegrationRoutes.get("/externalauth/gmail/auth_url", requireSession, async (c) => {
  const config = await integration(async () => gmailOAuthConfig());
  const state = randomToken(24);
  return c.json({ auth_url: gmailAuthUrl(config, gmailRedirectUri(c), state), state });
});

/**
 * Gmail's callback. With `code`: the INDIVIDUAL OAuth return; tokens are sealed,
 * verified later by test_connection. With `mode`: a service-account mode, no
 * redirect; the credential records the mode and Tributary's service account,
 * and the answer carries the domain-wide-delegation instructions. The default
 * mode needs no verification; the other is verified by test_connection.
 */
sourceIntegrationRoutes.post("/externalauth/gmail/callback", requireSession, async (c) => {
  const body = parse(gmailCallbackBodySchema, await jsonBody(c));
  const { db, secrets } = c.var.services;
  if (body.code) {
    const code = body.code;
    const { tokens, email } = await integration(async () => exchangeGmailCode(gmailOAuthConfig(), gmailRedirectUri(c), code));
    const credential = await insertCredential(db, c.var.user.id, {
      integrationName: "gmail",
      secret: secrets.seal(tokens),
      metadata: { mode: "individual", email, authenticated_at: new Date().toISOString() },
    });
    const answer: CallbackResponse = { credential_id: credential.id, instructions: null, setup_verified: false, message: `Signed in as ${email}. Test the connection to finish.` };
    return c.json(answer);
  }
  const mode = body.mode!;
  const { instructions, serviceAccountEmail, clientId } = await integration(async () => delegationInstructions(gmailConfig()));
  const credential = await insertCredential(db, c.var.user.id, {
    integrationName: "gmail",
    secret: null,
    metadata: { mode, service_account_email: serviceAccountEmail, client_id: clientId, authenticated_at: new Date().toISOString() },
  });
  const verified = mode === DEFAULT_GMAIL_AUTH_MODE;
  const answer: CallbackResponse = {
    credential_id: credential.id,
    instructions,
    setup_verified: verified,
    message: verified ? "Gmail authenticated." : "Follow the instructions, then test the connection.",
  };
  return c.json(answer);
});

sourceIntegrationRoutes.post("/externalauth/gmail/get-groups", requireSession, async (c) => {
  const { credential_id, admin_email } = parse(gmailGroupsBodySchema, await jsonBody(c));
  await ownedCredential(c, credential_id, "gmail");
  const groups = await integration(() => listGoogleGroups(gmailConfig(), admin_email));
  return c.json({ groups });
});

sourceIntegrationRoutes.post("/externalauth/gmail/test_connection", requireSession, async (c) => {
  const { credential_id, admin_email, group_ids } = parse(gmailTestBodySchema, await jsonBody(c));
  const credential = await ownedCredential(c, credential_id, "gmail");
  const { db, secrets } = c.var.services;
  const individual = credential.metadata.mode === "individual";
  if (!individual && !admin_email) throw new ApiError(400, SOURCE_MESSAGES.adminEmailRequired);
  const scope = individual ? "INDIVIDUAL" : group_ids?.length ? "GROUP" : "ORG";
  if (individual && !credential.secret) throw new ApiError(409, "This Gmail credential holds no token. Please authenticate again.");
  const verification = await connectionTest(c, async (): Promise<Verification> => {
    try {
      const message = individual
        ? await testIndividualMailbox(gmailOAuthConfig(), secrets.open<GmailTokens>(credential.secret!), (tokens) =>
            updateCredential(db, c.var.user.id, credential.id, { secret: secrets.seal(tokens) }),
          )
        : await testGmailConnection(gmailConfig(), admin_email!, group_ids);
      return { status: "success", scope, admin_email, group_ids, message, at: new Date().toISOString() };
    } catch (error) {
      if (error instanceof NotConfigured) throw new ApiError(409, error.message);
      if (!(error instanceof ProviderError) || error.timedOut) throw error;
      return { status: "failed", scope, admin_email, group_ids, message: error.message, at: new Date().toISOString() };
    }
  });
  await updateCredential(db, c.var.user.id, credential.id, { metadata: { ...credential.metadata, verification } });
  await setStatusByCredential(db, c.var.user.id, credential.id, verification.status === "success" ? "active" : "error");
  return c.json({ status: verification.status, message: verification.message });
});

// ---- Microsoft Teams --------------------------------------------------------------------------------

const teamsRedirectUri = (c: Context<ApiEnv>) => new URL("/sources/add/teams", c.var.services.config.APP_URL).toString();

sourceIntegrationRoutes.get("/externalauth/teams/auth_url", requireSession, async (c) => {
  const config = await integration(async () => teamsConfig());
  const state = randomToken(24);
  return c.json({ auth_url: adminConsentUrl(config, teamsRedirectUri(c), state), state });
});

/** The admin-consent return: the tenant consented; prove it by getting an app token for it. */
sourceIntegrationRoutes.post("/externalauth/teams/callback", requireSession, async (c) => {
  const { tenant, admin_consent } = parse(teamsCallbackBodySchema, await jsonBody(c));
  if (String(admin_consent).toLowerCase() !== "true") {
    throw new ApiError(400, "Admin consent was not granted. An administrator of the Microsoft 365 organization must accept Tributary's permissions.");
  }
  await integration(async () => graphToken(teamsConfig(), tenant));
  const credential = await insertCredential(c.var.services.db, c.var.user.id, {
    integrationName: "teams",
    secret: null,
    metadata: { tenant_id: tenant.toLowerCase(), authenticated_at: new Date().toISOString() },
  });
  const body: CallbackResponse = { credential_id: credential.id, instructions: null, setup_verified: false, message: "Admin consent granted. Choose the scope, follow the setup instructions, then verify." };
  return c.json(body);
});

const tenantOf = (credential: CredentialRow) => String(credential.metadata.tenant_id ?? "");

sourceIntegrationRoutes.post("/externalauth/teams/get-teams", requireSession, async (c) => {
  const { credential_id } = parse(credentialBodySchema, await jsonBody(c));
  const credential = await ownedCredential(c, credential_id, "teams");
  const teams = await integration(async () => {
    const config = teamsConfig();
    return listTeams(config, await graphToken(config, tenantOf(credential)));
  });
  const taken = await c.var.services.db
    .select({ teamId: sql<string>`${sources.metadata}->>'team_id'` })
    .from(sources)
    .where(and(eq(sources.ownerId, c.var.user.id), eq(sources.integrationName, "teams")));
  const configured = new Set(taken.map((t) => t.teamId).filter(Boolean));
  return c.json({ teams: teams.map((t) => ({ ...t, already_configured: configured.has(t.team_id) })) });
});

sourceIntegrationRoutes.post("/externalauth/teams/get-team-setup-instructions", requireSession, async (c) => {
  const { credential_id, scope, team_id } = parse(teamSetupBodySchema, await jsonBody(c));
  const credential = await ownedCredential(c, credential_id, "teams");
  if (scope === "TEAM" && !team_id) throw new ApiError(400, SOURCE_MESSAGES.teamRequired);
  const instructions = await integration(async () => {
    const config = teamsConfig();
    let team: { team_id: string; team_name: string } | null = null;
    if (scope === "TEAM") {
      team = (await listTeams(config, await graphToken(config, tenantOf(credential)))).find((t) => t.team_id === team_id) ?? null;
      if (!team) throw new ApiError(404, "This team does not exist in the organization any more. Please choose another team.");
    }
    return teamSetupInstructions(config, scope, team);
  });
  return c.json(instructions);
});

sourceIntegrationRoutes.post("/externalauth/teams/verify-setup", requireSession, async (c) => {
  const { credential_id, scope, team_id } = parse(verifySetupBodySchema, await jsonBody(c));
  if (scope !== "ORG" && scope !== "TEAM") throw new ApiError(400, "scope must be ORG or TEAM");
  if (scope === "TEAM" && !team_id) throw new ApiError(400, SOURCE_MESSAGES.teamRequired);
  const credential = await ownedCredential(c, credential_id, "teams");
  const { db } = c.var.services;
  const at = new Date().toISOString();
  const verification = await connectionTest(c, async (): Promise<Verification> => {
    try {
      const config = teamsConfig();
      const message = await verifyTeamsSetup(config, await graphToken(config, tenantOf(credential)), scope, team_id || undefined);
      return { status: "success", scope, team_id: team_id || undefined, message, at };
    } catch (error) {
      if (error instanceof NotConfigured) throw new ApiError(409, error.message);
      if (!(error instanceof ProviderError) || error.timedOut) throw error;
      return { status: "failed", scope, team_id: team_id || undefined, message: error.message, at };
    }
  });
  await updateCredential(db, c.var.user.id, credential.id, { metadata: { ...credential.metadata, verification } });
  await setStatusByCredential(db, c.var.user.id, credential.id, verification.status === "success" ? "active" : "error");
  return c.json({ success: verification.status === "success", message: verification.message });
});
