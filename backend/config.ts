import { z } from "zod";

/** A variable set to nothing but spaces reads as unset. */
const emptyAsUnset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** A number of days to keep something: a whole number, at least 1 (unset or empty: `fallback`). */
function days(name: string, fallback: number) {
  const message = `${name} must be a whole number of days, at least 1`;
  return z.preprocess(emptyAsUnset, z.coerce.number({ invalid_type_error: message }).int(message).min(1, message).default(fallback));
}

/**
 * Everything the backend reads from the environment, parsed once. The launcher
 * (scripts/start.ts) fills in the embedded defaults; production sets them.
 */
const schema = z.object({
  NODE_ENV: z.string().default("development"),
  DATABASE_URL: z.string().min(1, "DATABASE_URL is required"),
  BACKEND_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  BACKEND_HOST: z.string().default("127.0.0.1"),
  /** Public URL of the Remix app: the OAuth redirect URI is built from it. */
  APP_URL: z.string().url().default("http://localhost:3000"),
  /** 32+ bytes, base64 or hex; encrypts secrets at rest and signs cookies. */
  TRIBUTARY_SECRET_KEY: z.string().min(32, "TRIBUTARY_SECRET_KEY must be at least 32 characters"),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.string().url().default("https://accounts.google.com"),
  /** Port of the local OpenID provider that stands in for Google when GOOGLE_CLIENT_ID is unset. */
  LOCAL_IDP_PORT: z.coerce.number().int().min(0).max(65535).default(4001),
  LOCAL_IDP_HOST: z.string().default("localhost"),
  /** Folder for local data (the local destination's files and warehouse live under it). */
  DATA_DIR: z.string().default(".data"),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(24 * 14),
  /**
   * Hours before the last sync's end that the next sync reads again, for what a provider makes ready late (a transcript
   * hours after its meeting); what landed unchanged there is not downloaded again (issue 52).
   */
  SYNC_OVERLAP_HOURS: z.preprocess(emptyAsUnset, z.coerce.number().min(0, "SYNC_OVERLAP_HOURS must be a number of hours, 0 or more").default(24)),
  LOG_LEVEL: z.string().default("info"),
  /** Where alert e-mails are sent through (smtp://user:pass@host:587 or smtps://…); unset: e-mail alerts are unavailable. */
  SMTP_URL: z.preprocess(emptyAsUnset, z.string().url("SMTP_URL must be a URL such as smtp://user:password@smtp.example.com:587").optional()),
  /** The From of alert e-mails (default: Tributary <alerts@APP_URL's host>). */
  SMTP_FROM: z.string().optional(),
  /**
   * Days a finished sync or transform run is kept (its history, details and log); each connector's and transform's
   * latest run and latest failure are kept whatever their age (backend/db/history.ts).
   */
  RUN_HISTORY_DAYS: days("RUN_HISTORY_DAYS", 90),
  /** Days a run's log lines are kept (those of the runs kept whatever their age are kept too). */
  RUN_LOG_DAYS: days("RUN_LOG_DAYS", 30),
  /** Days the job queue keeps a job that has ended (pg-boss's own records; the runs tables hold the history). */
  JOB_HISTORY_DAYS: days("JOB_HISTORY_DAYS", 7),
  /**
   * How often a run event stream (GET /runs/events) checks that its session still holds (and sends a keep-alive
   * comment); a stream whose session ended is closed.
   */
  RUN_EVENTS_SESSION_CHECK_SECONDS: z.preprocess(emptyAsUnset, z.coerce.number().positive("RUN_EVENTS_SESSION_CHECK_SECONDS must be a number of seconds above 0").default(30)),
  /**
   * Seconds a stopping process (SIGTERM) gives its running jobs to finish; past it, the job queue hands each one back
   * (failed as "shut down while active", retried by another worker) and the process exits.
   */
  SHUTDOWN_GRACE_SECONDS: z.preprocess(
    emptyAsUnset,
    z.coerce
      .number({ invalid_type_error: "SHUTDOWN_GRACE_SECONDS must be a whole number of seconds, at least 1" })
      .int("SHUTDOWN_GRACE_SECONDS must be a whole number of seconds, at least 1")
      .min(1, "SHUTDOWN_GRACE_SECONDS must be a whole number of seconds, at least 1")
      .default(30),
  ),
  /**
   * Every answer of the session backend checked against contract/responses.ts, a wrong one replaced by a 500
   * (backend/http/response-check.ts): "true" in the tests; off by default, since it reads every answer twice.
   */
  CHECK_RESPONSES: z.preprocess(emptyAsUnset, z.enum(["true", "false"], { message: "CHECK_RESPONSES must be true or false" }).default("false")).transform((v) => v === "true"),
  /** Public API (/api/v1): requests each key may make per API_RATE_LIMIT_WINDOW_SECONDS, shared by every backend process. */
  API_RATE_LIMIT_POINTS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1, "API_RATE_LIMIT_POINTS must be a whole number, at least 1").default(300)),
  API_RATE_LIMIT_WINDOW_SECONDS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1, "API_RATE_LIMIT_WINDOW_SECONDS must be a whole number of seconds, at least 1").default(60)),
  /** Requests all of one user's keys together may make per window; unset: five keys' worth (5 × API_RATE_LIMIT_POINTS). */
  API_RATE_LIMIT_USER_POINTS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1, "API_RATE_LIMIT_USER_POINTS must be a whole number, at least 1").optional()),
  /** Requests with an unknown, revoked or expired key one client address may make per API_FAILED_AUTH_WINDOW_SECONDS; then 429. */
  API_FAILED_AUTH_LIMIT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1, "API_FAILED_AUTH_LIMIT must be a whole number, at least 1").default(20)),
  API_FAILED_AUTH_WINDOW_SECONDS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1, "API_FAILED_AUTH_WINDOW_SECONDS must be a whole number of seconds, at least 1").default(900)),
});

export type Config = z.infer<typeof schema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid backend configuration:\n${lines.join("\n")}`);
  }
  const { errors } = productionChecks(parsed.data);
  if (errors.length > 0) throw new Error(`Invalid backend configuration:\n${errors.map((e) => `  ${e}`).join("\n")}`);
  return parsed.data;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * What production (NODE_ENV=production) refuses, and what it only warns about (docs/decisions/2026-11-25-runs-heartbeat.md):
 * a Google client id without its secret (sign-in could never work) is refused; an http APP_URL (cookies would
 * travel unencrypted and could not be Secure) is refused unless it names this machine (a production build tried
 * locally), which is warned about.
 */
export function productionChecks(config: Pick<Config, "NODE_ENV" | "APP_URL" | "GOOGLE_CLIENT_ID" | "GOOGLE_CLIENT_SECRET">): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (!isProduction(config)) return { errors, warnings };
  if (config.GOOGLE_CLIENT_ID && !config.GOOGLE_CLIENT_SECRET) {
    errors.push("GOOGLE_CLIENT_ID is set but GOOGLE_CLIENT_SECRET is not: Google sign-in needs both. Set GOOGLE_CLIENT_SECRET to the OAuth client's secret.");
  }
  const url = new URL(config.APP_URL);
  if (url.protocol !== "https:") {
    if (LOOPBACK_HOSTS.has(url.hostname)) {
      warnings.push(`APP_URL (${config.APP_URL}) is not https: cookies are not marked Secure. Use an https APP_URL for anything but a local try-out.`);
    } else {
      errors.push(`APP_URL must be an https URL in production (it is ${config.APP_URL}): otherwise sign-in cookies travel unencrypted.`);
    }
  }
  return { errors, warnings };
}

export function isProduction(config: Pick<Config, "NODE_ENV">): boolean {
  return config.NODE_ENV === "production";
}

/** Google sign-in is real when a client id is configured; otherwise the local provider stands in. */
export function usesLocalIdentityProvider(config: Pick<Config, "GOOGLE_CLIENT_ID">): boolean {
  return !config.GOOGLE_CLIENT_ID;
}
