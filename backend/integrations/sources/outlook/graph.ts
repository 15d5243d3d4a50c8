import { ProviderError } from "../kit/config.js";
import { fetchProvider } from "../kit/http.js";
import { graphToken } from "../teams/auth.js";
import type { OutlookConfig } from "./config.js";

/**
 * Microsoft Graph for Outlook: an app-only token for the tenant that consented (Teams' graphToken: @azure/msal-node,
 * client credentials), then GET requests through the kit's fetchProvider (its timeout, and 429 answers waited out for
 * their Retry-After), a 401 answered by one new token and one more try, collections followed page by page through
 * @odata.nextLink. Refusals are told apart here and said in sentences by the setup calls and the reader.
 */

/** When a token is refused: while accepting the admin's consent (never given) or afterwards (taken back). */
export type TokenPhase = "consent" | "use";

const AADSTS = /AADSTS(\d+)/;

/** Microsoft's reason, as graphToken words it ("Microsoft refused the app's access to this tenant: <reason>."). */
const reasonOf = (message: string) => message.replace(/^Microsoft refused the app's access to this tenant: /, "").replace(/\.$/, "");

/**
 * A refused token in a sentence: the wrong tenant (Microsoft knows no such organization), no consent there yet, or a
 * consent taken back (AADSTS65001, an app no longer in the tenant, invalid_client). Other failures (a timeout, the
 * sign-in service unreachable) are left as they are.
 */
export function tokenRefusal(error: ProviderError, tenant: string, phase: TokenPhase): ProviderError {
  if (!error.unauthorized) return error;
  const reason = reasonOf(error.message);
  const code = AADSTS.exec(reason)?.[1];
  if (code === "90002" || code === "90072" || /invalid_tenant|endpoints_resolution|Endpoints cannot be resolved|tenant .* not found/i.test(reason)) {
    // msal words an unknown tenant's refused OpenID configuration as a pointer to its docs: only Microsoft's own code is kept.
    const detail = code ? ` (${reason})` : "";
    return new ProviderError(
      `Microsoft knows no Microsoft 365 organization with the tenant id ${tenant}${detail}. An administrator must consent in the organization whose mail Tributary should read, then authenticate again.`,
      true,
    );
  }
  if (code === "7000215" || code === "7000222" || /invalid_client/.test(reason)) {
    return new ProviderError(
      `Microsoft refuses Tributary's app secret (${reason}): the server's TEAMS_CLIENT_SECRET is wrong or has expired, or the app registration was removed. The operator of this Tributary server must renew it.`,
      true,
    );
  }
  if (phase === "consent") {
    return new ProviderError(
      `Tributary's app has no admin consent in the Microsoft 365 organization ${tenant} (${reason}). An administrator of that organization must accept Tributary's permissions, including Mail.Read.`,
      true,
    );
  }
  return new ProviderError(
    `Microsoft no longer lets Tributary's app into the Microsoft 365 organization ${tenant} (${reason}): its admin consent was revoked. An administrator must grant admin consent again: create the Outlook source again.`,
    true,
  );
}

/** A Graph error answer: its status, Graph's error code and message. */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`Microsoft Graph answered ${status} (${detail})`);
  }
}

export interface GraphPage<T> {
  value?: T[];
  "@odata.nextLink"?: string;
}

export class OutlookGraph {
  private token: string | null = null;

  constructor(
    readonly config: OutlookConfig,
    readonly tenantId: string,
    private readonly options: { timeoutMs: number; phase: TokenPhase },
  ) {}

  private async acquire(): Promise<string> {
    try {
      this.token = await graphToken(this.config, this.tenantId, this.options.timeoutMs);
      return this.token;
    } catch (error) {
      if (error instanceof ProviderError) throw tokenRefusal(error, this.tenantId, this.options.phase);
      throw error;
    }
  }

  /** Proves the tenant gives Tributary's app a token. */
  async authenticate(): Promise<void> {
    await this.acquire();
  }

  /** A GET on Graph (a path under the base URL, or a nextLink); a 401 gets one fresh token and one more try. */
  async get(pathOrUrl: string): Promise<Response> {
    const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${this.config.graphBaseUrl}${pathOrUrl}`;
    for (let attempt = 0; ; attempt++) {
      const token = this.token ?? (await this.acquire());
      const response = await fetchProvider("Microsoft Graph", url, {
        timeoutMs: this.options.timeoutMs,
        // Immutable ids: a message moved to another folder keeps its id (and its row).
        headers: { authorization: `Bearer ${token}`, accept: "application/json", prefer: 'IdType="ImmutableId"' },
      });
      if (response.status !== 401 || attempt > 0) return response;
      await response.body?.cancel();
      this.token = null;
    }
  }

  /** The JSON answer; null for 404 (a user, group or folder that is not there). Any other error: GraphError. */
  async json<T>(pathOrUrl: string): Promise<T | null> {
    const response = await this.get(pathOrUrl);
    if (response.ok) return (await response.json()) as T;
    const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    if (response.status === 404) return null;
    const code = body.error?.code ?? "";
    throw new GraphError(response.status, code, (body.error?.message || code || response.statusText || `status ${response.status}`).replace(/\.$/, ""));
  }

  /** Every item of a collection, page after page (@odata.nextLink); `onMissing` when its first page is a 404. */
  async *collection<T>(path: string, onMissing: () => void): AsyncGenerator<T> {
    let next: string | undefined = path;
    for (let page = 0; next && page < 100_000; page++) {
      const body: GraphPage<T> | null = await this.json<GraphPage<T>>(next);
      if (!body) {
        if (page === 0) onMissing();
        return;
      }
      yield* body.value ?? [];
      next = body["@odata.nextLink"];
    }
  }
}

/** What a Graph refusal asks an administrator to fix, by what was refused. */
export function graphFix(error: GraphError, about: "mail" | "directory"): string {
  if (error.status === 401) return "Tributary's app token was refused: its admin consent was probably revoked. An administrator must grant admin consent again: create the Outlook source again.";
  if (error.status === 403 && about === "mail") {
    return "Tributary's app needs the Mail.Read application permission with admin consent: an administrator must add it to the app in Microsoft Entra ID and grant admin consent again.";
  }
  if (error.status === 403) {
    return "Tributary's app needs the User.Read.All and GroupMember.Read.All application permissions with admin consent: an administrator must add them in Microsoft Entra ID and grant admin consent again.";
  }
  return "";
}
