import { hkdfSync } from "node:crypto";
import { LOCAL_IDP_CLIENT } from "@contract/auth";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The rules of a production deployment, as the backend's (backend/config.ts productionChecks): a Google client id
 * without its secret is refused, and so is an http APP_URL unless it names this machine (then a warning). The web
 * server sets NODE_ENV=production for React whatever the operator's was, so the launcher passes that one as
 * TRIBUTARY_NODE_ENV.
 */
export function webProductionChecks(source: Record<string, string | undefined>, appUrl: string): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  if ((source.TRIBUTARY_NODE_ENV ?? source.NODE_ENV) !== "production") return { errors, warnings };
  if (source.GOOGLE_CLIENT_ID && !source.GOOGLE_CLIENT_SECRET) {
    errors.push("GOOGLE_CLIENT_ID is set but GOOGLE_CLIENT_SECRET is not: Google sign-in needs both. Set GOOGLE_CLIENT_SECRET to the OAuth client's secret.");
  }
  const url = new URL(appUrl);
  if (url.protocol !== "https:") {
    if (LOOPBACK_HOSTS.has(url.hostname)) {
      warnings.push(`APP_URL (${appUrl}) is not https: cookies are not marked Secure. Use an https APP_URL for anything but a local try-out.`);
    } else {
      errors.push(`APP_URL must be an https URL in production (it is ${appUrl}): otherwise sign-in cookies travel unencrypted.`);
    }
  }
  return { errors, warnings };
}

/** What the Remix server reads from the environment (the launcher fills in local defaults). */
export function readEnv(source: Record<string, string | undefined> = process.env) {
  const port = Number(source.PORT ?? 3000);
  const secretKey = source.TRIBUTARY_SECRET_KEY;
  if (!secretKey || secretKey.length < 32) {
    throw new Error("TRIBUTARY_SECRET_KEY must be set (32 or more characters). `npm start` generates one for local use.");
  }
  const googleClientId = source.GOOGLE_CLIENT_ID || undefined;
  const localSignIn = !googleClientId;
  const appUrl = source.APP_URL ?? `http://localhost:${port}`;
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(appUrl);
  } catch {
    throw new Error(`APP_URL is not a URL: ${appUrl}`);
  }
  const { errors, warnings } = webProductionChecks(source, appUrl);
  if (errors.length > 0) throw new Error(`Invalid web server configuration:\n${errors.map((e) => `  ${e}`).join("\n")}`);
  for (const warning of warnings) console.warn(`[web] ${warning}`);
  /** Cookies are Secure whenever the app is served over HTTPS (the app process always runs in production mode). */
  const secureCookies = parsedUrl.protocol === "https:";
  const refresh = Number(source.NO_SCRIPT_REFRESH_SECONDS);
  return {
    secureCookies,
    appUrl,
    /** Without JavaScript, how often a page following a run in progress reloads itself (whole seconds, at least 1). */
    noScriptRefreshSeconds: Number.isInteger(refresh) && refresh >= 1 ? refresh : 3,
    backendUrl: source.BACKEND_URL ?? `http://127.0.0.1:${source.BACKEND_PORT ?? 4000}`,
    /** Cookie signing keys derived from the one secret, so rotating it rotates them. */
    cookieSecret: Buffer.from(hkdfSync("sha256", secretKey, "tributary", "app-cookies-v1", 32)).toString("base64url"),
    localSignIn,
    oidc: localSignIn
      ? {
          issuer: `http://localhost:${source.LOCAL_IDP_PORT ?? 4001}`,
          clientId: LOCAL_IDP_CLIENT.id,
        }
      : {
          issuer: source.GOOGLE_ISSUER ?? "https://accounts.google.com",
          clientId: googleClientId!,
        },
  };
}

let cached: ReturnType<typeof readEnv> | undefined;
export function env() {
  cached ??= readEnv();
  return cached;
}
