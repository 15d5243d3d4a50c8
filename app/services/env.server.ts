import { hkdfSync } from "node:crypto";
import { LOCAL_IDP_CLIENT } from "@contract/auth";

/** What the Remix server reads from the environment (the launcher fills in local defaults). */
function read() {
  const port = Number(process.env.PORT ?? 3000);
  const secretKey = process.env.TRIBUTARY_SECRET_KEY;
  if (!secretKey || secretKey.length < 32) {
    throw new Error("TRIBUTARY_SECRET_KEY must be set (32 or more characters). `npm start` generates one for local use.");
  }
  const googleClientId = process.env.GOOGLE_CLIENT_ID || undefined;
  const localSignIn = !googleClientId;
  const appUrl = process.env.APP_URL ?? `http://localhost:${port}`;
  /** Cookies are Secure whenever the app is served over HTTPS (the app process always runs in production mode). */
  const secureCookies = appUrl.startsWith("https:");
  return {
    secureCookies,
    appUrl,
    backendUrl: process.env.BACKEND_URL ?? `http://127.0.0.1:${process.env.BACKEND_PORT ?? 4000}`,
    /** Cookie signing keys derived from the one secret, so rotating it rotates them. */
    cookieSecret: Buffer.from(hkdfSync("sha256", secretKey, "tributary", "app-cookies-v1", 32)).toString("base64url"),
    localSignIn,
    oidc: localSignIn
      ? {
          issuer: `http://localhost:${process.env.LOCAL_IDP_PORT ?? 4001}`,
          clientId: LOCAL_IDP_CLIENT.id,
        }
      : {
          issuer: process.env.GOOGLE_ISSUER ?? "https://accounts.google.com",
          clientId: googleClientId!,
        },
  };
}

let cached: ReturnType<typeof read> | undefined;
export function env() {
  cached ??= read();
  return cached;
}
