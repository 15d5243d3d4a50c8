import pino from "pino";

/** Paths that may hold secrets are censored wherever they appear in a log line. */
const redact = [
  "password", "*.password", "token", "*.token", "*.access_token", "*.refresh_token", "*.id_token",
  "body.code", "code_verifier", "*.code_verifier", "secret", "*.secret", "private_key", "*.private_key",
  "req.headers.cookie", "req.headers.authorization", "res.headers['set-cookie']", "headers.cookie",
];

export function createLogger(level = process.env.LOG_LEVEL ?? "info", name = "backend") {
  return pino({
    name,
    level,
    redact: { paths: redact, censor: "[redacted]" },
    // Errors from drivers carry their whole client (connection settings, buffers): log only what helps.
    serializers: { err: (e: Error & { code?: unknown }) => ({ type: e?.name, message: e?.message, code: e?.code, stack: e?.stack }) },
  });
}

export type Logger = ReturnType<typeof createLogger>;
