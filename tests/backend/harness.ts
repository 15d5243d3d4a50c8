import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import * as oidc from "openid-client";
import { inject } from "vitest";
import { startBackend, type RunningBackend } from "../../backend/server.js";
import { createLogger, type Logger } from "../../backend/lib/log.js";
import { LOCAL_IDP_CLIENT, SESSION_COOKIE } from "../../contract/auth.js";
import { randomToken, sha256 } from "../../backend/lib/crypto.js";

export const APP_URL = "http://localhost:3999";

export interface TestBackend {
  /** A fresh DATA_DIR of this backend's own (local destinations write under it). */
  dataDir: string;
  url: string;
  idp: string;
  databaseUrl: string;
  db: pg.Pool;
  backend: RunningBackend;
  stop(): Promise<void>;
}

/** A fresh database of this test file's own, cloned from the migrated template; answers its URL. */
export async function cloneTemplateDatabase(): Promise<string> {
  const adminUrl = inject("pgAdminUrl");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE tributary_template`);
  await admin.end();
  return adminUrl.replace(/\/postgres$/, `/${name}`);
}

/**
 * A real backend (HTTP API + local OpenID provider) on its own fresh database cloned from the migrated template; with
 * `role: "all"` it works the job queues too (runs are performed).
 */
export async function startTestBackend(options: { log?: Logger; env?: NodeJS.ProcessEnv; role?: "api" | "all" } = {}): Promise<TestBackend> {
  const databaseUrl = await cloneTemplateDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-test-data-"));
  const backend = await startBackend({
    role: options.role ?? "api",
    log: options.log ?? createLogger("silent"),
    env: {
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      TRIBUTARY_SECRET_KEY: randomBytes(32).toString("base64url"),
      BACKEND_PORT: "0",
      LOCAL_IDP_PORT: "0",
      APP_URL,
      DATA_DIR: dataDir,
      ...options.env,
    },
  });
  const db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  return {
    dataDir,
    databaseUrl,
    url: `http://127.0.0.1:${backend.port}`,
    idp: backend.localIdpIssuer!,
    db,
    backend,
    async stop() {
      await db.end();
      await backend.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A minimal cookie jar for following the provider's redirects by hand. */
class Jar {
  private cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export interface ProviderReturn {
  code: string;
  state: string;
  iss: string | null;
  codeVerifier: string;
}

/**
 * Plays the browser's part of an authorization-code + PKCE sign-in at the
 * local OpenID provider (its real login form) and returns what the provider
 * sends back to the app's callback.
 */
export async function authorizeAtLocalIdp(t: TestBackend, user: { name: string; email: string }): Promise<ProviderReturn> {
  const config = await oidc.discovery(new URL(t.idp), LOCAL_IDP_CLIENT.id, undefined, undefined, { execute: [oidc.allowInsecureRequests] });
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  let url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${APP_URL}/auth/google/callback`,
    scope: "openid email profile",
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  }).href;
  const jar = new Jar();
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(APP_URL)) {
      const back = new URL(url);
      if (back.searchParams.get("error")) throw new Error(`provider error: ${back.searchParams.get("error_description")}`);
      return { code: back.searchParams.get("code")!, state: back.searchParams.get("state")!, iss: back.searchParams.get("iss"), codeVerifier };
    }
    let response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(response);
    if (response.status === 200 && /\/interaction\/[\w-]+$/.test(new URL(url).pathname)) {
      await response.text();
      response = await fetch(`${url}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(user).toString(),
      });
      jar.take(response);
    }
    const location = response.headers.get("location");
    if (!location) throw new Error(`sign-in stopped at ${url} with status ${response.status}: ${await response.text()}`);
    await response.body?.cancel();
    url = new URL(location, url).href;
  }
  throw new Error("too many redirects");
}

export function sessionCookieFrom(response: Response): string {
  const line = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!line) throw new Error("no session cookie was set");
  return line.split(";")[0]!;
}

/** Signs in through the provider and the backend's callback; returns the Cookie header value. */
export async function signIn(t: TestBackend, user: { name: string; email: string }) {
  const back = await authorizeAtLocalIdp(t, user);
  const response = await fetch(`${t.url}/auth/google/callback`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code: back.code, code_verifier: back.codeVerifier, state: back.state, iss: back.iss ?? undefined }),
  });
  if (response.status !== 200) throw new Error(`callback answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { user_info: { id: string; name: string; email: string } };
  return { cookie: sessionCookieFrom(response), user: body.user_info };
}

/** A user and a live session made straight in the database, for tests about something other than sign-in. */
export async function createUserSession(t: TestBackend, email: string, name = "Test User") {
  const { rows } = await t.db.query<{ id: string }>(
    "INSERT INTO users (issuer, subject, email, name) VALUES ('test', $1, $1, $2) RETURNING id",
    [email, name],
  );
  const token = randomToken();
  await t.db.query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", [sha256(token), rows[0]!.id]);
  return { userId: rows[0]!.id, cookie: `${SESSION_COOKIE}=${token}` };
}

export function get(t: TestBackend, path: string, cookie?: string) {
  return fetch(`${t.url}${path}`, { headers: cookie ? { cookie } : {} });
}
