import { createHash } from "node:crypto";

/**
 * The local OpenID provider's subject for an e-mail address: the same person (e-mail) always gets the same
 * account. Its own module so the e2e login fixture (tests/e2e/login.ts) writes the user row a real local sign-in
 * writes without loading the provider.
 */
export function localSubject(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 21);
}
