import pino from "pino";
import { redactValues } from "./redact.js";

/** Paths that may hold secrets are censored wherever they appear in a log line. */
const redact = [
  "password", "*.password", "token", "*.token", "*.access_token", "*.refresh_token", "*.id_token",
  "body.code", "code_verifier", "*.code_verifier", "secret", "*.secret", "private_key", "*.private_key",
  "req.headers.cookie", "req.headers.authorization", "res.headers['set-cookie']", "headers.cookie",
];

type LoggedError = { type?: string; message?: string; code?: unknown; query?: string; table?: string; column?: string; constraint?: string; stack?: string; cause?: LoggedError };

/**
 * Errors from drivers carry their whole client (connection settings, buffers), and drizzle's query errors carry the
 * query's parameters (user data, sealed secrets) in `params`, in their message and so in their stack: log only what
 * helps find the fault, the query text at most. A Postgres error's `detail` and `where` quote row values: left out.
 */
export function serializeError(e: unknown, depth = 0): LoggedError | unknown {
  if (!e || typeof e !== "object") return e;
  const error = e as Error & { code?: unknown; query?: unknown; params?: unknown; table?: unknown; column?: unknown; constraint?: unknown; cause?: unknown };
  const out: LoggedError = { type: error.name ?? error.constructor?.name };
  if (typeof error.query === "string" && "params" in error) {
    // DrizzleQueryError: its message is "Failed query: <sql>\nparams: <values>".
    out.message = "Failed query";
    out.query = error.query;
    out.stack = stackFrames(error.stack);
  } else {
    out.message = error.message;
    out.stack = error.stack;
  }
  if (error.code !== undefined) out.code = error.code;
  if (typeof error.table === "string") out.table = error.table;
  if (typeof error.column === "string") out.column = error.column;
  if (typeof error.constraint === "string") out.constraint = error.constraint;
  if (error.cause && depth < 3) out.cause = serializeError(error.cause, depth + 1) as LoggedError;
  return out;
}

/** Only the "    at …" lines of a stack: its first lines repeat the message. */
function stackFrames(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  const at = stack.indexOf("\n    at ");
  return at === -1 ? undefined : `Error: Failed query${stack.slice(at)}`;
}

export function createLogger(level = process.env.LOG_LEVEL ?? "info", name = "backend", destination?: pino.DestinationStream) {
  const options: pino.LoggerOptions = {
    name,
    level,
    redact: { paths: redact, censor: "[redacted]" },
    serializers: { err: serializeError, error: serializeError },
    // The exact secrets in play (a provider's error quoting a password), whatever field or message holds them.
    hooks: { streamWrite: (line) => redactValues(line) },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type Logger = ReturnType<typeof createLogger>;
