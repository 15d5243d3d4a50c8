import { ValidationTokens } from "./validation-token.js";

const cache = new Map<string, ValidationTokens>();

/** The token signer for a server secret (one per key, made once). */
export function validationTokens(secretKey: string): ValidationTokens {
  let tokens = cache.get(secretKey);
  if (!tokens) {
    tokens = new ValidationTokens(secretKey);
    cache.set(secretKey, tokens);
  }
  return tokens;
}
