import { expect, type APIResponse } from "@playwright/test";

/**
 * Issue #24, what the web server's edge (scripts/web-edge.ts) answers with: its sentences, the security headers of
 * every answer, and the ways a link may try to send a signed-in user off the site. Shared by the browser's and the
 * HTTP layer's web-edge specs (tests/e2e/, tests/http/).
 */

export const CROSS_SITE_MESSAGE = "This form was sent from another site, so Tributary did not accept it.";
export const TOO_LARGE_MESSAGE = "This request is too large for Tributary to accept";

/** The nonce the Content-Security-Policy allows scripts with. */
export function scriptNonce(csp: string | undefined): string {
  const nonce = /script-src [^;]*'nonce-([^']+)'/.exec(csp ?? "")?.[1];
  expect(nonce, `a script nonce in ${csp}`).toBeTruthy();
  return nonce!;
}

export function expectSecurityHeaders(response: APIResponse) {
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(csp).not.toContain("'unsafe-eval'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  // APP_URL is http://localhost here: HSTS would make the browser refuse every other local http port.
  expect(headers["strict-transport-security"]).toBeUndefined();
}

/** The variants, and more, as a link would carry them in ?redirectTo= (each encoded once more below). */
const REDIRECT_VARIANTS = [
  "/.//evil.example",
  "/./\\evil.example",
  "/%2e//evil.example",
  "/a/..//evil.example",
  "/%2E%2E//evil.example",
  "//evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "https://evil.example/",
  "javascript:alert(1)",
];

/** ?redirectTo= values that must never lead off the site; the first 8 are the issue's own. */
export const REDIRECT_QUERIES = [
  "%2F.%2F%2Fevil.example", // the issue's own example
  "/.//evil.example",
  "/%2e//evil.example",
  "/a/..//evil.example",
  ...REDIRECT_VARIANTS.map((v) => encodeURIComponent(v)),
  ...REDIRECT_VARIANTS.map((v) => encodeURIComponent(encodeURIComponent(v))),
];
