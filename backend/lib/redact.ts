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

/** `text` with every obvious secret replaced by "[redacted]". */
export function redactSecrets(text: string): string {
  let out = withoutQueryParams(text);
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement as string);
  return out;
}
