import * as oidc from "openid-client";
import { connectionTestTimeoutMs, describeMs, isTimeoutError } from "../lib/outbound.js";

export interface IdentityProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  name: string;
  givenName: string | null;
  picture: string | null;
}

/** The provider said no (bad, replayed or expired code; failed ID-token checks): the user's problem, a 4xx. */
export class SignInRejected extends Error {}
/** The provider could not be reached or answered nonsense: our problem, a 502. */
export class ProviderUnavailable extends Error {}

/**
 * Exchanges an authorization code with the OpenID provider (Google, or the
 * local one) and verifies the ID token: signature against the provider's JWKS,
 * issuer, audience, expiry. Discovery is done once and cached.
 */
export class IdentityExchange {
  private config?: Promise<oidc.Configuration>;

  constructor(private readonly settings: IdentityProviderSettings) {}

  private configuration(): Promise<oidc.Configuration> {
    if (!this.config) {
      const insecure = new URL(this.settings.issuer).protocol === "http:";
      this.config = oidc
        .discovery(new URL(this.settings.issuer), this.settings.clientId, this.settings.clientSecret, undefined, {
          execute: insecure ? [oidc.allowInsecureRequests] : [],
          // Seconds; kept by the configuration for the code exchange and the JWKS too (openid-client's default is 30).
          timeout: connectionTestTimeoutMs() / 1000,
        })
        .then((config) => {
          oidc.enableNonRepudiationChecks(config);
          return config;
        })
        .catch((error: unknown) => {
          this.config = undefined;
          throw new ProviderUnavailable(`The identity provider at ${this.settings.issuer} could not be reached: ${(error as Error).message}`);
        });
    }
    return this.config;
  }

  async exchange(input: { code: string; codeVerifier?: string; state?: string; iss?: string }): Promise<VerifiedIdentity> {
    const config = await this.configuration();
    const callbackUrl = new URL(this.settings.redirectUri);
    callbackUrl.searchParams.set("code", input.code);
    if (input.state) callbackUrl.searchParams.set("state", input.state);
    if (input.iss) callbackUrl.searchParams.set("iss", input.iss);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: input.codeVerifier,
        expectedState: input.state ?? oidc.skipStateCheck,
        idTokenExpected: true,
      });
    } catch (error) {
      if (isTimeoutError(error)) throw new ProviderUnavailable(`The identity provider did not answer within ${describeMs(connectionTestTimeoutMs())}.`);
      if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
        throw new SignInRejected(error.error_description ?? error.error);
      }
      if (error instanceof TypeError || (error as { code?: string }).code?.startsWith("OAUTH_")) {
        throw new SignInRejected((error as Error).message);
      }
      throw new ProviderUnavailable((error as Error).message);
    }
    const claims = tokens.claims();
    if (!claims) throw new SignInRejected("The identity provider returned no ID token.");
    const email = typeof claims.email === "string" ? claims.email : "";
    if (!email) throw new SignInRejected("The identity provider did not share an e-mail address.");
    if (claims.email_verified === false) throw new SignInRejected("This e-mail address is not verified.");
    const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : email.split("@")[0]!;
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email,
      name,
      givenName: typeof claims.given_name === "string" ? claims.given_name : null,
      picture: typeof claims.picture === "string" ? claims.picture : null,
    };
  }
}
