import type http from "node:http";
import { randomBytes, randomUUID } from "node:crypto";

/**
 * The Microsoft identity platform as an app-only Graph client meets it, shared by the fakes of Microsoft Teams
 * (graph.ts) and Outlook (outlook.ts): the admin-consent page and its return (/organizations/v2.0/adminconsent), a
 * tenant's OpenID configuration, and the client-credentials token (/{tenant}/oauth2/v2.0/token) with AADSTS errors as
 * Microsoft words them: an unknown tenant (90002, when the fake knows its tenants), a wrong secret (7000215), a tenant
 * that never consented (700016) and a revoked consent (65001).
 */

export interface IdentityPlatformOptions {
  clientId: string;
  clientSecret: string;
  /** The tenant whose administrator the consent page signs in. */
  tenantId: string;
  /** What the consent page says the app wants ("read teams, users and online meetings"). */
  permissions: string;
  /** The tenants Microsoft knows (lower case); absent: any tenant is known. */
  known?: ReadonlySet<string>;
  /** Marks its tokens apart from another fake's ("fake", "outlook"). */
  tokenTag: string;
}

export interface IdentityPlatform {
  consented: Set<string>;
  revoked: Set<string>;
  /** The tokens handed out, by access token. */
  tokens: Map<string, { tenant: string; expires: number }>;
  /** Answers an identity-platform request; false when `path` is not one. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: string): boolean;
  /** The host its OpenID configuration names (set once the server listens). */
  setHost(host: string): void;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
};

/** An AADSTS error as the token endpoint answers it, with its trace and correlation ids. */
export const aadError = (res: http.ServerResponse, status: number, error: string, code: number, description: string) =>
  json(res, status, {
    error,
    error_description: `AADSTS${code}: ${description} Trace ID: ${randomUUID()} Correlation ID: ${randomUUID()} Timestamp: ${new Date().toISOString().replace("T", " ").slice(0, 19)}Z`,
    error_codes: [code],
    timestamp: new Date().toISOString(),
    trace_id: randomUUID(),
    correlation_id: randomUUID(),
  });

export function identityPlatform(o: IdentityPlatformOptions): IdentityPlatform {
  const consented = new Set<string>();
  const revoked = new Set<string>();
  const tokens = new Map<string, { tenant: string; expires: number }>();
  let host = "";
  const known = (tenant: string) => !o.known || o.known.has(tenant.toLowerCase());
  const notFound = (tenant: string) => `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`;

  function handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: string): boolean {
    const path = url.pathname;
    if (path === "/organizations/v2.0/adminconsent" && req.method === "GET") {
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      if (url.searchParams.get("client_id") !== o.clientId || !/^https?:\/\//.test(redirectUri)) {
        res.writeHead(400, { "content-type": "text/html" });
        res.end("<!doctype html><title>Sign in to your account</title><h1>AADSTS700016: Application not found</h1>");
        return true;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="en"><head><title>Permissions requested</title></head><body><main>
<h1>Permissions requested — Accept for your organization</h1>
<p>Tributary wants to ${escapeHtml(o.permissions)}.</p>
<form method="post" action="/organizations/v2.0/adminconsent">
<input type="hidden" name="redirect_uri" value="${escapeHtml(redirectUri)}">
<input type="hidden" name="state" value="${escapeHtml(url.searchParams.get("state") ?? "")}">
<input type="hidden" name="scope" value="${escapeHtml(url.searchParams.get("scope") ?? "")}">
<button type="submit" name="decision" value="accept">Accept</button>
<button type="submit" name="decision" value="cancel">Cancel</button>
</form></main></body></html>`);
      return true;
    }
    if (path === "/organizations/v2.0/adminconsent" && req.method === "POST") {
      const form = new URLSearchParams(body);
      const back = new URL(form.get("redirect_uri") ?? "");
      if (form.get("decision") === "accept") {
        consented.add(o.tenantId);
        revoked.delete(o.tenantId);
        back.searchParams.set("admin_consent", "True");
        back.searchParams.set("tenant", o.tenantId);
        back.searchParams.set("scope", form.get("scope") ?? "");
      } else {
        back.searchParams.set("error", "access_denied");
        back.searchParams.set("error_description", "AADSTS65004: User declined to consent to access the app.");
      }
      if (form.get("state")) back.searchParams.set("state", form.get("state")!);
      res.writeHead(302, { location: back.href });
      res.end();
      return true;
    }
    const wellKnown = /^\/([^/]+)\/v2\.0\/\.well-known\/openid-configuration$/.exec(path);
    if (wellKnown && req.method === "GET") {
      const t = wellKnown[1]!;
      if (!known(t)) {
        aadError(res, 400, "invalid_tenant", 90002, notFound(t));
        return true;
      }
      const base = `https://${host}/${t}`;
      json(res, 200, {
        token_endpoint: `${base}/oauth2/v2.0/token`,
        token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt", "client_secret_basic"],
        jwks_uri: `https://${host}/${t}/discovery/v2.0/keys`,
        response_modes_supported: ["query", "fragment", "form_post"],
        subject_types_supported: ["pairwise"],
        id_token_signing_alg_values_supported: ["RS256"],
        response_types_supported: ["code", "id_token", "code id_token", "id_token token"],
        scopes_supported: ["openid", "profile", "email", "offline_access"],
        issuer: `${base}/v2.0`,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${base}/oauth2/v2.0/logout`,
        tenant_region_scope: "EU",
        cloud_instance_name: "microsoftonline.com",
      });
      return true;
    }
    const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(path);
    if (token && req.method === "POST") {
      const form = new URLSearchParams(body);
      const tenant = token[1]!.toLowerCase();
      if (!known(tenant)) aadError(res, 400, "invalid_request", 90002, notFound(tenant));
      else if (form.get("grant_type") !== "client_credentials") aadError(res, 400, "unsupported_grant_type", 70003, "The app requested an unsupported grant type.");
      else if (form.get("client_id") !== o.clientId || form.get("client_secret") !== o.clientSecret) aadError(res, 401, "invalid_client", 7000215, "Invalid client secret provided.");
      else if (revoked.has(tenant)) {
        aadError(res, 400, "invalid_grant", 65001, `The user or administrator has not consented to use the application with ID '${o.clientId}' named 'Tributary'. Send an interactive authorization request for this user and resource.`);
      } else if (!consented.has(tenant)) {
        aadError(res, 400, "unauthorized_client", 700016, `Application with identifier '${o.clientId}' was not found in the directory '${tenant}'. This can happen if the application has not been installed by the administrator of the tenant.`);
      } else {
        const access = `eyJ0eXAiOiJKV1QifQ.${o.tokenTag}.${randomBytes(16).toString("hex")}`;
        tokens.set(access, { tenant, expires: Date.now() + 3600_000 });
        json(res, 200, { token_type: "Bearer", expires_in: 3599, ext_expires_in: 3599, access_token: access });
      }
      return true;
    }
    return false;
  }

  return { consented, revoked, tokens, handle, setHost: (h) => (host = h) };
}
