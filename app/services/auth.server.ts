import { createCookie, redirect } from "@remix-run/node";
import * as oidc from "openid-client";
import { Authenticator } from "remix-auth";
import { Strategy } from "remix-auth/strategy";
import type { UserInfo } from "@contract/auth";
import { env } from "./env.server";
import { answerBody, backendAddress, checkAnswer } from "./backend-routes.server";
import { backendFetch, backendMessage } from "./http.server";

/** A sign-in that must end on the sign-in page with this message (never a 500). */
export class SignInError extends Error {}

interface CallbackParams {
  request: Request;
  code: string;
  codeVerifier: string;
  state: string;
  iss: string | null;
}

export interface SignedIn {
  userInfo: UserInfo;
  /** The backend's Set-Cookie headers (its session cookie) to relay to the browser. */
  setCookies: string[];
}

const CALLBACK_PATH = "/auth/google/callback";
const SCOPES = "openid email profile";

/** The attempt's state and PKCE verifier, bound to this browser by a signed, short-lived cookie. */
const attemptCookie = () =>
  createCookie("__tributary_oauth", {
    httpOnly: true,
    sameSite: "lax",
    path: "/auth/google",
    secure: env().secureCookies,
    secrets: [env().cookieSecret],
    maxAge: 600,
  });

export const clearAttemptCookie = () => attemptCookie().serialize("", { maxAge: 0 });

/**
 * OpenID Connect authorization code + PKCE against Google (or the local
 * provider). The browser leg is here; the code exchange and ID-token checks are
 * the backend's (POST /auth/google/callback), as the spec has it.
 */
class OpenIdStrategy extends Strategy<SignedIn, CallbackParams> {
  name = "google";
  private config?: Promise<oidc.Configuration>;

  private configuration() {
    if (!this.config) {
      const { issuer, clientId } = env().oidc;
      this.config = oidc
        .discovery(new URL(issuer), clientId, undefined, undefined, {
          execute: new URL(issuer).protocol === "http:" ? [oidc.allowInsecureRequests] : [],
        })
        .catch((error: unknown) => {
          this.config = undefined;
          throw new SignInError(`Sign-in is unavailable right now: the identity provider could not be reached (${(error as Error).message}).`);
        });
    }
    return this.config;
  }

  async authenticate(request: Request): Promise<SignedIn> {
    const url = new URL(request.url);
    if (url.pathname !== CALLBACK_PATH) {
      const state = oidc.randomState();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const authorizationUrl = oidc.buildAuthorizationUrl(await this.configuration(), {
        redirect_uri: new URL(CALLBACK_PATH, env().appUrl).toString(),
        scope: SCOPES,
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
        ...(env().localSignIn ? {} : { prompt: "select_account" }),
      });
      throw redirect(authorizationUrl.href, {
        headers: { "set-cookie": await attemptCookie().serialize({ state, codeVerifier }) },
      });
    }

    const providerError = url.searchParams.get("error");
    if (providerError) {
      throw new SignInError(
        providerError === "access_denied" ? "Sign-in was cancelled." : `Sign-in failed: ${url.searchParams.get("error_description") ?? providerError}.`,
      );
    }
    const attempt = (await attemptCookie().parse(request.headers.get("cookie"))) as { state?: string; codeVerifier?: string } | null;
    const state = url.searchParams.get("state");
    const code = url.searchParams.get("code");
    if (!attempt?.state || !attempt.codeVerifier || !state || state !== attempt.state) {
      throw new SignInError("This sign-in attempt could not be verified (it expired, was replayed or was not started in this browser). Please try again.");
    }
    if (!code) throw new SignInError("The identity provider returned no authorization code. Please try again.");
    return this.verify({ request, code, codeVerifier: attempt.codeVerifier, state, iss: url.searchParams.get("iss") });
  }
}

let authenticator: Authenticator<SignedIn> | undefined;
export function auth(): Authenticator<SignedIn> {
  if (!authenticator) {
    authenticator = new Authenticator<SignedIn>();
    authenticator.use(
      new OpenIdStrategy(async ({ request, code, codeVerifier, state, iss }) => {
        const { method, path } = backendAddress("POST /auth/google/callback");
        const response = await backendFetch(request, path, {
          method,
          json: { code, code_verifier: codeVerifier, state, ...(iss ? { iss } : {}) },
        });
        if (!response.ok) {
          throw new SignInError(await backendMessage(response, "Sign-in failed. Please try again."));
        }
        const answer = checkAnswer("POST /auth/google/callback", await answerBody(response));
        if (!answer.ok) throw new SignInError("Sign-in failed. Please try again.");
        return { userInfo: answer.data.user_info, setCookies: response.headers.getSetCookie() };
      }),
    );
  }
  return authenticator;
}
