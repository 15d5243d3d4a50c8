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
import { connectDatabase, type DatabaseHandle } from "../../backend/db/client.js";
import { insertSession, upsertUserRow } from "../../backend/db/sessions.js";

/**
 * The backend tests' harness: a real backend on a database of its own (cloned from the migrated template that
 * tests/backend/global-setup.ts makes), signed-in users, one way to call the API (`api`), and one way to wait
 * (`waitFor`, `waitForRun`). Seeding goes through the API or backend/db/ functions: see tests/support/seed.ts.
 */
export const APP_URL = "http://localhost:3999";

export interface TestBackend {
  /** A fresh DATA_DIR of this backend's own (local destinations write under it). */
  dataDir: string;
  url: string;
  idp: string;
  databaseUrl: string;
  /** Its TRIBUTARY_SECRET_KEY (to read what it stored encrypted). */
  secretKey: string;
  /** The environment it was started with: a worker process (`backend/main.ts --role worker`) started with it shares its database. */
  env: NodeJS.ProcessEnv;
  db: pg.Pool;
  /** The same database through drizzle, for backend/db/ functions. */
  handle: DatabaseHandle;
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
  const secretKey = randomBytes(32).toString("base64url");
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "test",
    DATABASE_URL: databaseUrl,
    TRIBUTARY_SECRET_KEY: secretKey,
    BACKEND_PORT: "0",
    LOCAL_IDP_PORT: "0",
    APP_URL,
    DATA_DIR: dataDir,
    // Every answer checked against contract/responses.ts: a route whose answer drifts fails the test that calls it.
    CHECK_RESPONSES: "true",
    ...options.env,
  };
  const backend = await startBackend({ role: options.role ?? "api", log: options.log ?? createLogger("silent"), env });
  const db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  const handle = connectDatabase(databaseUrl, 2);
  return {
    dataDir,
    databaseUrl,
    secretKey,
    env,
    url: `http://127.0.0.1:${backend.port}`,
    idp: backend.localIdpIssuer!,
    db,
    handle,
    backend,
    async stop() {
      await db.end();
      await handle.close();
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

/** A user and a live session made with the backend's own db/ functions, for tests about something other than sign-in. */
export async function createUserSession(t: Pick<TestBackend, "handle">, email: string, name = "Test User") {
  const user = await upsertUserRow(t.handle.db, { issuer: "test", subject: email, email, name });
  const token = randomToken();
  await insertSession(t.handle.db, { tokenHash: sha256(token), userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) });
  return { userId: user.id, cookie: `${SESSION_COOKIE}=${token}` };
}

export function get(t: TestBackend, path: string, cookie?: string) {
  return fetch(`${t.url}${path}`, { headers: cookie ? { cookie } : {} });
}

/** What the API answered: its status, its JSON body (the raw text when it is not JSON), its headers and text. */
export interface ApiAnswer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/**
 * One API call as the web server makes it: `body` is sent as JSON (a string is sent as it is, still as JSON, to test
 * bad bodies); no body, no content type. `cookie` is a Cookie header (from createUserSession or signIn), or none.
 */
export async function api(t: { url: string }, cookie: string | undefined, method: string, route: string, body?: unknown): Promise<ApiAnswer> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${t.url}${route}`, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (a log file, an empty answer): the text is the body.
  }
  // The text and headers are there to read, but not enumerable: a test compares an answer to { status, body }.
  const answer = { status: response.status, body: parsed } as ApiAnswer;
  Object.defineProperties(answer, { text: { value: text, enumerable: false }, headers: { value: response.headers, enumerable: false } });
  return answer;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks `check` every `intervalMs` until it answers something other than undefined/false, and answers that; past
 * `timeoutMs` it fails saying `what` did not happen (and `explain()`, when given, to show what was seen).
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number; explain?: () => Promise<string> | string } = {},
): Promise<T> {
  const { timeoutMs = 120_000, intervalMs = 100 } = options;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s${options.explain ? `\n${await options.explain()}` : ""}`);
    await sleep(intervalMs);
  }
}

/** A run as the run-history routes answer it (a sync run or a transform run). */
export interface RunSeen {
  id: string;
  status: string;
  error: string | null;
}

export const runFinished = (run: RunSeen) => run.status === "succeeded" || run.status === "failed" || run.status === "cancelled";

/**
 * Waits through the API (`GET <owner>/runs`, owner being "/connectors/<id>" or "/transforms/<id>") until the run
 * (or, without `runId`, the latest one) is finished — or whatever `until` asks — and answers it.
 */
export async function waitForRun<R extends RunSeen>(
  t: { url: string },
  cookie: string,
  owner: string,
  runId?: string,
  options: { until?: (run: R) => boolean; timeoutMs?: number } = {},
): Promise<R> {
  const until = options.until ?? runFinished;
  let seen: R | undefined;
  return waitFor(
    `${runId ? `run ${runId}` : "the latest run"} of ${owner} reaching its state`,
    async () => {
      const runs = (await api(t, cookie, "GET", `${owner}/runs`)).body.runs as R[];
      seen = runId ? runs.find((r) => r.id === runId) : runs[0];
      return seen && until(seen) ? seen : undefined;
    },
    { timeoutMs: options.timeoutMs ?? 120_000, explain: () => `last seen: ${JSON.stringify(seen)}` },
  );
}

/** A blank database of this test file's own (no migration applied): for a migration's own test. Answers its URL. */
export async function emptyDatabase(): Promise<string> {
  const adminUrl = inject("pgAdminUrl");
  const name = `e_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return adminUrl.replace(/\/postgres$/, `/${name}`);
}
