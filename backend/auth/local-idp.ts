import http from "node:http";
import { hkdfSync } from "node:crypto";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration } from "oidc-provider";
import { exportJWK, generateKeyPair } from "jose";
import { LOCAL_IDP_CLIENT } from "../../contract/auth.js";
import type { Logger } from "../lib/log.js";
import { localSubject } from "./local-identity.js";

export { localSubject };

/**
 * A real OpenID Connect provider (panva's oidc-provider) that stands in for
 * Google on a developer's machine and in tests, so that sign-in runs the very
 * same authorization-code + PKCE flow and code exchange as in production.
 */
export interface LocalIdp {
  issuer: string;
  close(): Promise<void>;
}

interface Account { email: string; name: string }

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><style>
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f1f5f9;color:#0f172a}
main{background:#fff;border:1px solid #e2e8f0;border-radius:16px;box-shadow:0 10px 30px rgba(15,23,42,.08);padding:32px;width:min(420px,92vw)}
h1{font-size:1.35rem;margin:0 0 4px}p{color:#475569;margin:0 0 20px;line-height:1.5}
label{display:block;font-weight:600;font-size:.9rem;margin:14px 0 6px}
input{box-sizing:border-box;width:100%;padding:10px 12px;border:1px solid #94a3b8;border-radius:8px;font:inherit}
button{margin-top:22px;width:100%;padding:11px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer}
.badge{display:inline-block;background:#fef3c7;color:#78350f;border-radius:999px;padding:2px 10px;font-size:.8rem;font-weight:600;margin-bottom:12px}
</style></head><body><main>${body}</main></body></html>`;
}

function loginPage(uid: string, error?: string): string {
  return page("Local sign-in", `<span class="badge">Local development sign-in</span>
<h1>Choose who you are</h1>
<p>This stands in for Google on this machine. Any name and e-mail address will do; the same e-mail signs you in as the same user.</p>
${error ? `<p role="alert" style="color:#b91c1c">${escape(error)}</p>` : ""}
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="name">Full name</label><input id="name" name="name" autocomplete="name" value="Ada Lovelace" required>
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="email" value="ada@example.com" required>
<button type="submit">Continue</button></form>`);
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

export async function startLocalIdp(options: {
  port: number;
  host?: string;
  appUrl: string;
  secretKey: string;
  nodeEnv: string;
  log: Logger;
}): Promise<LocalIdp> {
  if (options.nodeEnv === "production") {
    throw new Error(
      "The local sign-in provider is for development and tests only and refuses to run with NODE_ENV=production. " +
        "Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET to sign in with Google.",
    );
  }
  const accounts = new Map<string, Account>();
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "local-1", alg: "RS256", use: "sig" };
  const cookieKey = Buffer.from(hkdfSync("sha256", options.secretKey, "tributary", "local-idp-cookies", 32)).toString("base64url");

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://localhost:${port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: LOCAL_IDP_CLIENT.id,
        client_secret: LOCAL_IDP_CLIENT.secret,
        redirect_uris: [new URL("/auth/google/callback", options.appUrl).toString()],
        response_types: ["code"],
        grant_types: ["authorization_code"],
      },
    ],
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      const [given, ...rest] = account.name.split(/\s+/);
      return {
        accountId: sub,
        async claims() {
          return { sub, email: account.email, email_verified: true, name: account.name, given_name: given, family_name: rest.join(" ") || undefined };
        },
      };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "given_name", "family_name"] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: [cookieKey] },
    jwks: { keys: [jwk] },
    pkce: { required: () => true },
    // Short lives: the tokens are exchanged at once and only the ID token's claims are used.
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    async renderError(ctx, out) {
      ctx.type = "html";
      ctx.body = page("Sign-in error", `<h1>Sign-in could not continue</h1><p>${escape(String(out.error_description ?? out.error))}</p><p><a href="${escape(options.appUrl)}">Back to Tributary</a></p>`);
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.on("server_error", (_ctx, error) => options.log.error({ err: error }, "local identity provider error"));
  const callback = provider.callback();

  server.on("request", (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    if (url.pathname === "/favicon.ico") {
      res.writeHead(204, { "cache-control": "max-age=86400" });
      return void res.end();
    }
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
    if (!match) return void callback(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === "consent") {
          // Our own first-party client: grant what it asked for without a second screen.
          const grant = details.grantId
            ? (await provider.Grant.find(details.grantId))!
            : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
          grant.addOIDCScope(String(details.params.scope ?? "openid"));
          const grantId = await grant.save();
          return void (await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true }));
        }
        if (req.method === "POST" && match[2]) {
          const form = await readForm(req);
          const email = (form.get("email") ?? "").trim().toLowerCase();
          const name = (form.get("name") ?? "").trim();
          if (!/^[^\s@]+@[^\s@]+$/.test(email) || !name) {
            res.writeHead(400, { "content-type": "text/html; charset=utf-8" });
            return void res.end(loginPage(details.uid, "Enter a name and a valid e-mail address."));
          }
          const sub = localSubject(email);
          accounts.set(sub, { email, name });
          return void (await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false }));
        }
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(loginPage(details.uid));
      } catch (error) {
        res.writeHead(400, { "content-type": "text/html; charset=utf-8" });
        res.end(page("Sign-in error", `<h1>This sign-in link has expired</h1><p>${escape((error as Error).message)}</p><p><a href="${escape(options.appUrl)}">Start again</a></p>`));
      }
    })();
  });

  options.log.warn({ issuer }, "local sign-in is active: a local OpenID provider stands in for Google");
  return {
    issuer,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
