import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Obvious secrets taken out of a text that a user will read (a run's log line): what our own code writes never holds
 * one, but a provider's or a driver's error message that a line quotes might. Over-redacting is the safe side: a
 * value named like a secret is hidden even when it is not one.
 */

const REDACTED = "[redacted]";

/** Names whose values are secrets: `access_token`, `client_secret`, `password`, `api_key`, `key`, `sig`… */
const SECRET_NAME = String.raw`(?:[A-Za-z0-9_.-]*?(?:token|secret|password|passwd|pwd|api[_-]?key|private[_-]?key|access[_-]?key|signature|credentials?)|key|sig|code_verifier)`;

const RULES: [RegExp, string | ((...groups: string[]) => string)][] = [
  // A PEM private key, whole (or to the end of the text when it is cut off).
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g, "[redacted private key]"],
  // A failed query's parameters (drizzle: "Failed query: <sql>\nparams: <values>") are user data and sealed secrets.
  [/(\bparams:)[^\n]*/g, `$1 ${REDACTED}`],
  // Authorization header values.
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9\-._~+/]+=*/g, `$1 ${REDACTED}`],
  // A URL's password: scheme://user:password@host.
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi, `$1${REDACTED}@`],
  // JSON: "name": "value" (escaped quotes inside the value included), and "name": value for numbers and words.
  [new RegExp(String.raw`("${SECRET_NAME}"\s*:\s*)"(?:[^"\\]|\\.)*"`, "gi"), `$1"${REDACTED}"`],
  [new RegExp(String.raw`("${SECRET_NAME}"\s*:\s*)(?!["\s{[])[^,}\s]+`, "gi"), `$1${REDACTED}`],
  // Query strings, forms and logs: name=value, name: value (up to a separator).
  [new RegExp(String.raw`(\b${SECRET_NAME}\s*=\s*)(?:"[^"]*"|'[^']*'|[^&\s"',;)]+)`, "gi"), `$1${REDACTED}`],
  [new RegExp(String.raw`(\b(?:password|passwd|secret|client_secret|access_token|refresh_token|api_key|apikey)\s*:\s*)(?!\s)(?:"[^"]*"|'[^']*'|[^\s,;)]+)`, "gi"), `$1${REDACTED}`],
];

/** A failed query's parameters (drizzle: "Failed query: <sql>\nparams: <values>") taken out of a text: for log lines. A value may hold line breaks: everything up to the stack's frames (or the end) goes. */
export function withoutQueryParams(text: string): string {
  return text.includes("params:") ? text.replace(/(\bparams:)[\s\S]*?(?=\n\s+at |$)/g, `$1 ${REDACTED}`) : text;
}

/**
 * The exact secrets in play. A provider's error may quote a password or a token in any shape ("password
 * authentication failed: hunter2-x"), so the values themselves are taken out too: every secret opened from the
 * database (SecretBox.open notes them) or typed for a connection test, in the request or run that holds them (an
 * AsyncLocalStorage scope: withSecretScope), and the server's own secrets from its environment. Each in its common
 * encodings as well: URL-encoded, form-encoded, JSON-escaped, base64 and base64url.
 */
const inPlay = new AsyncLocalStorage<Set<string>>();
/** Shorter values would take ordinary words out of texts. */
const MIN_SECRET_LENGTH = 6;
/** Keys of an opened JSON document whose string values are secrets (`password`, `access_token`, `private_key`…). */
const SECRET_KEY = /token|secret|password|passwd|pwd|key|credential|signature/i;
/** The server's own secrets (client secrets, API keys, SMTP password, the encryption key). */
const ENV_SECRETS = ["TRIBUTARY_SECRET_KEY", "GOOGLE_CLIENT_SECRET", "ZOOM_CLIENT_SECRET", "TEAMS_CLIENT_SECRET", "GMAIL_OAUTH_CLIENT_SECRET", "TRIBUTARY_LLM_API_KEY"];

/** Runs `work` with a set of secrets in play (the enclosing one if there is one, so that what inner code notes is seen outside). */
export function withSecretScope<T>(work: () => T): T {
  return inPlay.getStore() ? work() : inPlay.run(new Set(), work);
}

function collect(value: unknown, key: string, into: Set<string>, depth: number): void {
  if (typeof value === "string") {
    if (value.length >= MIN_SECRET_LENGTH && (key === "" || SECRET_KEY.test(key))) into.add(value);
    return;
  }
  if (depth > 4 || !value || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) collect(v, Array.isArray(value) ? key : k, into, depth + 1);
}

/** Notes the secrets of `value` (a string is one; of an object, the strings under secret-looking keys) for the current scope. */
export function noteSecrets(value: unknown, key = ""): void {
  const store = inPlay.getStore();
  if (store) collect(value, key, store, 0);
}

function envSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const found = ENV_SECRETS.map((name) => env[name]).filter((v): v is string => !!v && v.length >= MIN_SECRET_LENGTH);
  try {
    const smtp = env.SMTP_URL ? decodeURIComponent(new URL(env.SMTP_URL).password) : "";
    if (smtp.length >= MIN_SECRET_LENGTH) found.push(smtp);
  } catch {
    /* not a URL: nothing to take */
  }
  return found;
}

/** A secret and the shapes it takes in texts. */
function encodings(secret: string): string[] {
  const url = encodeURIComponent(secret);
  const bytes = Buffer.from(secret, "utf8");
  return [secret, url, url.replace(/%20/g, "+"), JSON.stringify(secret).slice(1, -1), bytes.toString("base64"), bytes.toString("base64").replace(/=+$/, ""), bytes.toString("base64url")];
}

/** `text` with every secret value in play (and `extra` ones), in any of its encodings, replaced by "[redacted]". */
export function redactValues(text: string, extra: Iterable<string> = []): string {
  const secrets = new Set([...(inPlay.getStore() ?? []), ...envSecrets(), ...[...extra].filter((v) => v.length >= MIN_SECRET_LENGTH)]);
  if (secrets.size === 0) return text;
  const shapes = [...new Set([...secrets].flatMap(encodings))].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  let out = text;
  for (const shape of shapes) if (out.includes(shape)) out = out.split(shape).join(REDACTED);
  return out;
}

/** `text` with every secret in play (redactValues) and every obvious secret replaced by "[redacted]". */
export function redactSecrets(text: string, extra: Iterable<string> = []): string {
  let out = withoutQueryParams(redactValues(text, extra));
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement as string);
  return out;
}
