import { ConfidentialClientApplication, type INetworkModule, type NetworkRequestOptions, type NetworkResponse } from "@azure/msal-node";
import type { SetupInstructions, TeamsTeam } from "../../../../contract/sources.js";
import { ProviderError } from "../kit/index.js";
import type { TeamsConfig } from "./config.js";
import { connectionTestTimeoutMs, describeMs, isTimeoutError } from "../../../lib/outbound.js";

/**
 * Microsoft Teams through the Microsoft identity platform: an administrator
 * grants admin consent (…/{tenant}/v2.0/adminconsent → back with tenant and
 * admin_consent), then the app gets an app-only token for that tenant with the
 * client-credentials grant (@azure/msal-node) and calls Microsoft Graph.
 */
export const GRAPH_SCOPE = "https://graph.microsoft.com/.default";

export function adminConsentUrl(config: TeamsConfig, redirectUri: string, state: string): string {
  const url = new URL(`${config.loginBaseUrl}/organizations/v2.0/adminconsent`);
  url.searchParams.set("client_id", config.clientId);
  url.searchParams.set("scope", GRAPH_SCOPE);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("state", state);
  return url.href;
}

/**
 * msal-node's requests go through this network client, which bounds each one with a timeout (msal's own client
 * has none). msal-node accepts only https authorities: when the configured login endpoint is a plain-http local
 * stand-in, msal is given the https form of the same origin and the requests are sent to the configured origin.
 */
function networkClient(config: TeamsConfig, timeoutMs: number, onTimeout: () => void): INetworkModule {
  const configured = new URL(config.loginBaseUrl);
  const httpsOrigin = `https://${configured.host}`;
  const send = async <T>(url: string, method: "GET" | "POST", options?: NetworkRequestOptions): Promise<NetworkResponse<T>> => {
    const target = configured.protocol === "http:" && url.startsWith(httpsOrigin) ? configured.origin + url.slice(httpsOrigin.length) : url;
    let response: Response;
    try {
      response = await fetch(target, { method, headers: options?.headers, body: options?.body, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      // msal wraps a network failure in its own error without the cause: tell graphToken of a timeout here.
      if (isTimeoutError(error)) onTimeout();
      throw error;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => (headers[key] = value));
    return { headers, body: (await response.json()) as T, status: response.status };
  };
  return { sendGetRequestAsync: (url, options) => send(url, "GET", options), sendPostRequestAsync: (url, options) => send(url, "POST", options) };
}

/** An app-only Graph token for the tenant that consented. */
export async function graphToken(config: TeamsConfig, tenantId: string, timeoutMs = connectionTestTimeoutMs()): Promise<string> {
  const login = new URL(config.loginBaseUrl);
  let timedOut = false;
  const client = new ConfidentialClientApplication({
    auth: {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      authority: `https://${login.host}/${tenantId}`,
      knownAuthorities: [login.host],
    },
    system: {
      networkClient: networkClient(config, timeoutMs, () => {
        timedOut = true;
      }),
    },
  });
  try {
    const result = await client.acquireTokenByClientCredential({ scopes: [GRAPH_SCOPE] });
    if (!result?.accessToken) throw new ProviderError("Microsoft returned no access token.");
    return result.accessToken;
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (timedOut || isTimeoutError(error)) throw new ProviderError(`Microsoft's sign-in service did not answer within ${describeMs(timeoutMs)}. Please try again.`, false, true);
    const e = error as { errorCode?: string; errorMessage?: string; message?: string };
    const raw = e.errorMessage || e.message || "";
    // msal wraps the server's error_description: "Error(s): … - Description: AADSTS…. - Correlation ID: …".
    const text = (/Description: (.*?)(?: - Correlation ID|$)/s.exec(raw)?.[1] ?? raw).split("\n")[0]!.replace(/\s*Trace ID:.*$/, "").replace(/\.$/, "");
    if (/network|fetch failed|ECONNREFUSED/i.test(text)) throw new ProviderError("Microsoft's sign-in service could not be reached. Please try again.");
    throw new ProviderError(`Microsoft refused the app's access to this tenant: ${text || e.errorCode}.`, true);
  }
}

async function graph<T>(config: TeamsConfig, token: string, path: string): Promise<T> {
  const timeoutMs = connectionTestTimeoutMs();
  let response: Response;
  try {
    response = await fetch(path.startsWith("http") ? path : `${config.graphBaseUrl}${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (isTimeoutError(error)) throw new ProviderError(`Microsoft Graph did not answer within ${describeMs(timeoutMs)}. Please try again.`, false, true);
    throw new ProviderError("Microsoft Graph could not be reached. Please try again.");
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    throw new ProviderError(`Microsoft Graph answered ${response.status}: ${body.error?.message ?? body.error?.code ?? response.statusText}`, response.status === 401);
  }
  return (await response.json()) as T;
}

/** GET /teams (every page) with each team's member count (GET /teams/{id}/members). */
export async function listTeams(config: TeamsConfig, token: string): Promise<Omit<TeamsTeam, "already_configured">[]> {
  const teams: Omit<TeamsTeam, "already_configured">[] = [];
  let next: string | undefined = "/teams?$select=id,displayName";
  for (let page = 0; next && page < 50; page++) {
    const body: { value: { id: string; displayName: string }[]; "@odata.nextLink"?: string } = await graph(config, token, next);
    for (const team of body.value) {
      const members = await graph<{ value: unknown[] }>(config, token, `/teams/${encodeURIComponent(team.id)}/members`);
      teams.push({ team_id: team.id, team_name: team.displayName, member_count: members.value.length });
    }
    next = body["@odata.nextLink"];
  }
  return teams;
}

/**
 * Reading meetings with app-only permissions needs a Teams application access
 * policy (PowerShell) for the users concerned: the whole tenant or one team.
 */
export function teamSetupInstructions(config: TeamsConfig, scope: "ORG" | "TEAM", team: { team_id: string; team_name: string } | null): SetupInstructions {
  const policy = `New-CsApplicationAccessPolicy -Identity Tributary-Meetings -AppIds "${config.clientId}" -Description "Tributary reads meeting transcripts"`;
  return {
    introduction:
      scope === "ORG"
        ? "Tributary reads meetings with application permissions. A Teams administrator allows it once for the whole organization with an application access policy."
        : `Tributary reads meetings with application permissions. A Teams administrator allows it once for the members of ${team?.team_name ?? "the team"} with an application access policy.`,
    steps: [
      { title: "Connect to Microsoft Teams PowerShell", details: "Open PowerShell as a Teams administrator and sign in.", code_block: "Install-Module -Name MicrosoftTeams\nConnect-MicrosoftTeams" },
      { title: "Create the policy for Tributary's app", details: "This names Tributary's application (client) ID.", code_block: policy },
      scope === "ORG"
        ? { title: "Grant it to the organization", details: "Every user's meetings become readable by Tributary.", code_block: "Grant-CsApplicationAccessPolicy -PolicyName Tributary-Meetings -Global" }
        : {
            title: "Grant it to the team's members",
            details: "Only the members of this team are covered.",
            code_block: `Grant-CsApplicationAccessPolicy -PolicyName Tributary-Meetings -Group "${team?.team_id ?? ""}"`,
            options: [{ sub_title: "Or one user at a time", code_block: 'Grant-CsApplicationAccessPolicy -PolicyName Tributary-Meetings -Identity "user@contoso.com"' }],
          },
      { title: "Verify", details: "Policies can take up to 30 minutes to apply. Then click Verify Setup." },
    ],
  };
}

/**
 * Verification: with the app token, a user in scope (the tenant's first user,
 * or the team's first member) has readable online meetings. Graph answers 403
 * while no application access policy covers that user.
 */
export async function verifyTeamsSetup(config: TeamsConfig, token: string, scope: "ORG" | "TEAM", teamId?: string): Promise<string> {
  let userId: string | undefined;
  if (scope === "TEAM") {
    const members = await graph<{ value: { userId?: string }[] }>(config, token, `/teams/${encodeURIComponent(teamId ?? "")}/members`);
    userId = members.value.find((m) => m.userId)?.userId;
  } else {
    const users = await graph<{ value: { id: string }[] }>(config, token, "/users?$top=1&$select=id");
    userId = users.value[0]?.id;
  }
  if (!userId) throw new ProviderError("There is no user in this scope whose meetings could be read.");
  const filter = encodeURIComponent("JoinWebUrl eq 'https://teams.microsoft.com/l/meetup-join/tributary-setup-check'");
  await graph(config, token, `/users/${encodeURIComponent(userId)}/onlineMeetings?$filter=${filter}`);
  return "Setup verified: Tributary can read meetings in this scope.";
}
