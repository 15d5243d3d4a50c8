/**
 * Where the end-to-end run's own Tributary lives. These ports are reserved for
 * the Playwright run so it never collides with `npm start` (3000/4000/4001/54329)
 * or another engineer's instance.
 */
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** E2E_APP_PORT & co. let several runs (several engineers' branches) share a machine. */
export const E2E_PORTS = {
  app: port("E2E_APP_PORT", 3100),
  backend: port("E2E_BACKEND_PORT", 4100),
  localIdp: port("E2E_IDP_PORT", 4101),
  postgres: port("E2E_PG_PORT", 54339),
} as const;

/** Where the built app is (TRIBUTARY_BUILD_DIR, as for `npm start`), and where this run writes its reports. */
export const BUILD_DIR = process.env.TRIBUTARY_BUILD_DIR || "build";
export const RESULTS_DIR = process.env.E2E_RESULTS_DIR || "test-results";

export const APP_URL = `http://localhost:${E2E_PORTS.app}`;
export const IDP_ORIGIN = `http://localhost:${E2E_PORTS.localIdp}`;

/** The embedded cluster's user; its password is made at its first start (DATA_DIR/pg.password). */
export const DATABASE_USER = "tributary";
/** backend/db/embedded.ts's PASSWORD_FILE (not imported: that module hooks the process's exit). */
export const DATABASE_PASSWORD_FILE = "pg.password";

/**
 * The embedded Postgres the launcher starts for the run. global-setup (server.ts) reads the cluster's generated
 * password from the run's data folder and hands the URL to the test workers as E2E_DATABASE_URL.
 */
export function databaseUrl(): string {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is unset: the e2e global setup (tests/e2e/server.ts) sets it once Tributary has started.");
  return url;
}

/**
 * The TRIBUTARY_SECRET_KEY of every Tributary the run starts (made by global-setup, handed to the workers like
 * E2E_DATABASE_URL): the login fixture (login.ts) signs the app's cookie session with it.
 */
export function secretKey(): string {
  const key = process.env.E2E_SECRET_KEY;
  if (!key) throw new Error("E2E_SECRET_KEY is unset: the e2e global setup (tests/e2e/server.ts) sets it before starting Tributary.");
  return key;
}

/**
 * The tag of a check that does not depend on JavaScript (headers, status codes, raw HTTP through `request`): the
 * js-off project leaves it out (playwright.config.ts), so it runs once. Every user flow runs in both projects.
 */
export const JS_INDEPENDENT = "@js-independent";

/** Cookie names: the backend's opaque session id and the app's signed cookie session. */
export const BACKEND_SESSION_COOKIE = "tributary_session";
export const APP_SESSION_COOKIE = "__tributary";
