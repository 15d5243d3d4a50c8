import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

/**
 * (Shared by the fakes.) Listens on 127.0.0.1:port, retrying for a few seconds when the port is busy:
 * the fixed fake ports (47100–47199) lie in Linux's ephemeral range, so an
 * outgoing connection elsewhere on the machine can hold one briefly.
 */
export async function listen(server: http.Server, port: number, attempts = 25): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.once("error", onError);
        server.listen(port, "127.0.0.1", () => {
          server.off("error", onError);
          resolve();
        });
      });
      return (server.address() as AddressInfo).port;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || port === 0 || attempt >= attempts) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * A local server speaking the parts of Zoom that Tributary calls, with Zoom's
 * documented shapes:
 * - OAuth (https://zoom.us): GET /oauth/authorize shows a consent page whose
 *   "Allow" button redirects to redirect_uri?code=…&state=…; POST /oauth/token
 *   (HTTP Basic client auth) for grant_type=authorization_code and refresh_token.
 * - REST (https://api.zoom.us/v2): GET /v2/users/me, GET /v2/groups (Bearer).
 * Our real client code (openid-client + fetch) runs against it.
 */
export interface FakeZoomOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  groups?: { id: string; name: string; total_members: number }[];
  /** Lifetime of issued access tokens in seconds (Zoom: 3599). */
  accessTokenTtl?: number;
}

export interface FakeZoom {
  url: string;
  oauthBaseUrl: string;
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Every request, for assertions ("which grant was used"). */
  requests: { method: string; path: string; grantType?: string }[];
  /** Issues a code as the consent page would, for tests that play the browser. */
  issueCode(redirectUri: string): string;
  /** Lifetime (seconds) of the access tokens issued from now on. */
  setAccessTokenTtl(seconds: number): void;
  /** Makes every issued access token invalid (as if the user uninstalled the app). */
  revokeAll(): void;
  close(): Promise<void>;
}

export const FAKE_ZOOM_DEFAULTS = {
  port: 47110,
  clientId: "fake-zoom-client-id",
  clientSecret: "fake-zoom-client-secret",
  groups: [
    { id: "grp_sales", name: "Sales", total_members: 12 },
    { id: "grp_support", name: "Customer Support", total_members: 7 },
  ],
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export async function startFakeZoom(options: FakeZoomOptions = {}): Promise<FakeZoom> {
  const clientId = options.clientId ?? FAKE_ZOOM_DEFAULTS.clientId;
  const clientSecret = options.clientSecret ?? FAKE_ZOOM_DEFAULTS.clientSecret;
  const groups = options.groups ?? FAKE_ZOOM_DEFAULTS.groups;
  let ttl = options.accessTokenTtl ?? 3599;
  const codes = new Map<string, { redirectUri: string; expires: number }>();
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  const requests: FakeZoom["requests"] = [];

  const issueCode = (redirectUri: string) => {
    const code = randomBytes(16).toString("hex");
    codes.set(code, { redirectUri, expires: Date.now() + 5 * 60_000 });
    return code;
  };
  const issueTokens = () => {
    const access = `zat_${randomBytes(16).toString("hex")}`;
    const refresh = `zrt_${randomBytes(16).toString("hex")}`;
    accessTokens.set(access, Date.now() + ttl * 1000);
    refreshTokens.add(refresh);
    return { access_token: access, token_type: "bearer", refresh_token: refresh, expires_in: ttl, scope: "user:read:user group:read:list_groups", api_url: "https://api.zoom.us" };
  };

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = "";
      req.on("data", (chunk) => (data += chunk));
      req.on("end", () => resolve(data));
    });
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const bearerOk = (req: http.IncomingMessage) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const expires = token ? accessTokens.get(token) : undefined;
    return expires !== undefined && expires > Date.now();
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const body = req.method === "POST" ? await readBody(req) : "";
    const form = new URLSearchParams(body);
    requests.push({ method: req.method ?? "GET", path: url.pathname, grantType: form.get("grant_type") ?? undefined });

    if (url.pathname === "/favicon.ico") {
      res.writeHead(204);
      return res.end();
    }
    if (url.pathname === "/oauth/authorize" && req.method === "GET") {
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      if (url.searchParams.get("client_id") !== clientId || url.searchParams.get("response_type") !== "code" || !/^https?:\/\//.test(redirectUri)) {
        res.writeHead(400, { "content-type": "text/html" });
        return res.end("<!doctype html><title>Zoom</title><h1>Invalid client_id or redirect_uri</h1>");
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><html lang="en"><head><title>Zoom - Authorize app</title></head><body>
<main><h1>Allow this app to use your Zoom account?</h1>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="redirect_uri" value="${escapeHtml(redirectUri)}">
<input type="hidden" name="state" value="${escapeHtml(url.searchParams.get("state") ?? "")}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Decline</button>
</form></main></body></html>`);
    }
    if (url.pathname === "/oauth/authorize" && req.method === "POST") {
      const back = new URL(form.get("redirect_uri") ?? "");
      if (form.get("decision") === "allow") back.searchParams.set("code", issueCode(back.href));
      else back.searchParams.set("error", "access_denied");
      if (form.get("state")) back.searchParams.set("state", form.get("state")!);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === "/oauth/token" && req.method === "POST") {
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const [id, secret] = basic ? Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent) : [];
      if (id !== clientId || secret !== clientSecret) return json(res, 401, { reason: "Invalid client_id or client_secret", error: "invalid_client" });
      const grant = form.get("grant_type");
      if (grant === "authorization_code") {
        const entry = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const redirectUri = form.get("redirect_uri") ?? "";
        if (!entry || entry.expires < Date.now() || !entry.redirectUri.startsWith(redirectUri)) {
          return json(res, 400, { reason: "Invalid authorization code", error: "invalid_grant", error_description: "Invalid authorization code" });
        }
        return json(res, 200, issueTokens());
      }
      if (grant === "refresh_token") {
        const refresh = form.get("refresh_token") ?? "";
        if (!refreshTokens.delete(refresh)) return json(res, 400, { reason: "Invalid Token!", error: "invalid_grant", error_description: "Invalid Token!" });
        return json(res, 200, issueTokens());
      }
      return json(res, 400, { reason: "Unsupported grant type", error: "unsupported_grant_type" });
    }
    if (url.pathname.startsWith("/v2/")) {
      if (!bearerOk(req)) return json(res, 401, { code: 124, message: "Invalid access token." });
      if (url.pathname === "/v2/users/me" && req.method === "GET") {
        return json(res, 200, { id: "KDcuGIm1QgePTO8WbOqwIQ", first_name: "Jill", last_name: "Chill", email: "jill@example.com", account_id: "q6gBJVO5TzexKYTb_I2rpg", type: 2 });
      }
      if (url.pathname === "/v2/groups" && req.method === "GET") {
        return json(res, 200, { groups, total_records: groups.length, next_page_token: "" });
      }
    }
    json(res, 404, { code: 404, message: `No such fake Zoom endpoint: ${req.method} ${url.pathname}` });
  });

  const boundPort = await listen(server, options.port ?? 0);
  const port = boundPort;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    oauthBaseUrl: url,
    apiBaseUrl: `${url}/v2`,
    clientId,
    clientSecret,
    requests,
    issueCode,
    setAccessTokenTtl: (seconds) => {
      ttl = seconds;
    },
    revokeAll: () => {
      accessTokens.clear();
      refreshTokens.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// `npx tsx tests/fakes/zoom.ts` runs it on its fixed port for local use.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const fake = await startFakeZoom({ port: Number(process.env.FAKE_ZOOM_PORT ?? FAKE_ZOOM_DEFAULTS.port) });
  console.log(`Fake Zoom on ${fake.url} (ZOOM_OAUTH_BASE_URL=${fake.oauthBaseUrl} ZOOM_API_BASE_URL=${fake.apiBaseUrl} ZOOM_CLIENT_ID=${fake.clientId} ZOOM_CLIENT_SECRET=${fake.clientSecret})`);
}
