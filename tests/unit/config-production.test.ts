import { describe, expect, it } from "vitest";
import { loadConfig, productionChecks } from "../../backend/config.js";
import { readEnv } from "../../app/services/env.server.js";
import { embeddedPostgresRefusal } from "../../backend/db/embedded.js";

/** The production rules of the backend's configuration, the web server's, and the launcher's embedded Postgres. */
const base = { DATABASE_URL: "postgres://u:p@127.0.0.1:5432/t", TRIBUTARY_SECRET_KEY: "k".repeat(43) };

describe("backend configuration in production", () => {
  it("refuses a Google client id without its secret, and accepts both", () => {
    expect(() => loadConfig({ ...base, NODE_ENV: "production", APP_URL: "https://tributary.example.com", GOOGLE_CLIENT_ID: "id" })).toThrow(
      "GOOGLE_CLIENT_ID is set but GOOGLE_CLIENT_SECRET is not: Google sign-in needs both. Set GOOGLE_CLIENT_SECRET to the OAuth client's secret.",
    );
    expect(loadConfig({ ...base, NODE_ENV: "production", APP_URL: "https://tributary.example.com", GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).GOOGLE_CLIENT_ID).toBe("id");
  });

  it("refuses an http APP_URL, but only warns when it names this machine", () => {
    expect(() => loadConfig({ ...base, NODE_ENV: "production", APP_URL: "http://tributary.example.com", GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" })).toThrow(
      "APP_URL must be an https URL in production (it is http://tributary.example.com): otherwise sign-in cookies travel unencrypted.",
    );
    for (const url of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]) {
      const config = loadConfig({ ...base, NODE_ENV: "production", APP_URL: url, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" });
      expect(productionChecks(config)).toEqual({ errors: [], warnings: [expect.stringMatching(/^APP_URL \(http:.*\) is not https: cookies are not marked Secure/)] });
    }
  });

  it("applies none of it outside production", () => {
    const config = loadConfig({ ...base, NODE_ENV: "development", APP_URL: "http://tributary.example.com", GOOGLE_CLIENT_ID: "id" });
    expect(productionChecks(config)).toEqual({ errors: [], warnings: [] });
  });
});

describe("web server configuration", () => {
  const web = { TRIBUTARY_SECRET_KEY: "k".repeat(43), BACKEND_URL: "http://127.0.0.1:4000" };

  it("marks cookies Secure exactly when APP_URL is https (whatever its case)", () => {
    expect(readEnv({ ...web, APP_URL: "https://tributary.example.com" }).secureCookies).toBe(true);
    expect(readEnv({ ...web, APP_URL: "HTTPS://Tributary.example.com" }).secureCookies).toBe(true);
    expect(readEnv({ ...web, APP_URL: "http://localhost:3000" }).secureCookies).toBe(false);
  });

  it("in production (the operator's NODE_ENV, passed by the launcher) refuses what the backend refuses", () => {
    expect(() => readEnv({ ...web, TRIBUTARY_NODE_ENV: "production", APP_URL: "https://t.example.com", GOOGLE_CLIENT_ID: "id" })).toThrow("GOOGLE_CLIENT_SECRET is not");
    expect(() => readEnv({ ...web, TRIBUTARY_NODE_ENV: "production", APP_URL: "http://t.example.com", GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" })).toThrow("APP_URL must be an https URL in production");
    expect(readEnv({ ...web, TRIBUTARY_NODE_ENV: "production", APP_URL: "https://t.example.com", GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).secureCookies).toBe(true);
    // The web server's own NODE_ENV=production (set for React) is not the operator's.
    expect(readEnv({ ...web, TRIBUTARY_NODE_ENV: "development", NODE_ENV: "production", APP_URL: "http://t.example.com", GOOGLE_CLIENT_ID: "id" }).appUrl).toBe("http://t.example.com");
  });
});

describe("the embedded Postgres in production", () => {
  it("is refused unless ALLOW_EMBEDDED_POSTGRES=true, saying to set DATABASE_URL", () => {
    expect(embeddedPostgresRefusal({ NODE_ENV: "production" })).toMatch(/^NODE_ENV=production needs a Postgres of your own: set DATABASE_URL/);
    expect(embeddedPostgresRefusal({ NODE_ENV: "production", ALLOW_EMBEDDED_POSTGRES: "true" })).toBeNull();
    expect(embeddedPostgresRefusal({ NODE_ENV: "development" })).toBeNull();
    expect(embeddedPostgresRefusal({})).toBeNull();
  });
});

describe("how long the run history is kept", () => {
  it("defaults to 90 days of runs, 30 of logs and 7 of ended jobs; unset or empty is the default", () => {
    expect(loadConfig({ ...base, NODE_ENV: "test" })).toMatchObject({ RUN_HISTORY_DAYS: 90, RUN_LOG_DAYS: 30, JOB_HISTORY_DAYS: 7 });
    expect(loadConfig({ ...base, NODE_ENV: "test", RUN_HISTORY_DAYS: "365", RUN_LOG_DAYS: " ", JOB_HISTORY_DAYS: "1" })).toMatchObject({ RUN_HISTORY_DAYS: 365, RUN_LOG_DAYS: 30, JOB_HISTORY_DAYS: 1 });
  });

  it("refuses what is not a whole number of days, at least 1, with a sentence naming the setting", () => {
    for (const value of ["0", "-3", "1.5", "ninety"]) {
      expect(() => loadConfig({ ...base, NODE_ENV: "test", RUN_LOG_DAYS: value })).toThrow("RUN_LOG_DAYS: RUN_LOG_DAYS must be a whole number of days, at least 1");
    }
  });
});

describe("checking the backend's answers", () => {
  it("is off unless CHECK_RESPONSES is true, and refuses any other word with a sentence", () => {
    expect(loadConfig({ ...base, NODE_ENV: "test" }).CHECK_RESPONSES).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: "test", CHECK_RESPONSES: " " }).CHECK_RESPONSES).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: "test", CHECK_RESPONSES: "true" }).CHECK_RESPONSES).toBe(true);
    expect(() => loadConfig({ ...base, NODE_ENV: "test", CHECK_RESPONSES: "yes" })).toThrow("CHECK_RESPONSES: CHECK_RESPONSES must be true or false");
  });
});
