import pino from "pino";
import { redactValues, withoutQueryParams } from "./redact.js";

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
    // An error that quotes a failed query's message (a destination's write failure, a wrapped driver error) keeps no parameter.
    out.message = typeof error.message === "string" ? withoutQueryParams(error.message) : error.message;
    out.stack = typeof error.stack === "string" ? withoutQueryParams(error.stack) : error.stack;
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

/**
 * Every string of a log line's object without a failed query's parameters, however it got there (an error's message
 * logged as a plain string, a field quoting one). Errors are left to serializeError, which pino applies afterwards.
 */
function scrubbed(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return withoutQueryParams(value);
  if (!value || typeof value !== "object" || value instanceof Error || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => scrubbed(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubbed(v, depth + 1)]));
}

export function createLogger(level = process.env.LOG_LEVEL ?? "info", name = "backend", destination?: pino.DestinationStream) {
  const options: pino.LoggerOptions = {
    name,
    level,
    redact: { paths: redact, censor: "[redacted]" },
    serializers: { err: serializeError, error: serializeError },
    // No query parameter reaches a log line, on any path: the line's fields, and its message.
    formatters: { log: (object) => scrubbed(object) as Record<string, unknown> },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === "string" ? withoutQueryParams(a) : a)) as Parameters<typeof method>);
      },
      // The exact secrets in play (a provider's error quoting a password), whatever field or message holds them.
      streamWrite: (line) => redactValues(line),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type Logger = ReturnType<typeof createLogger>;
