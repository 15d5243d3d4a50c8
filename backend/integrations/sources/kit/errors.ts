/**
 * A read failure retrying cannot fix (consent revoked, a scope or policy missing, a user or group deleted): its
 * message says what to fix. Anything else (5xx, timeouts, a long Retry-After) is an ordinary Error and the run
 * retries with backoff.
 */
export class PermanentReadError extends Error {}
