/**
 * Each source integration's endpoints and client credentials, read from the
 * environment at the moment of the request (not at start-up), so a running
 * backend picks up a configuration change and tests can point it at fakes.
 */
export class NotConfigured extends Error {}

/** A provider answered with an error or could not be reached. */
export class ProviderError extends Error {
  constructor(
    message: string,
    /** true when the provider refused our credentials/token (the user must authenticate again). */
    readonly unauthorized = false,
    /** true when the provider did not answer within the call's timeout (nothing to fix but to try again). */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

export const readEnv = (name: string, env: NodeJS.ProcessEnv) => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};
/** A base URL without its trailing slashes. */
export const baseUrl = (value: string) => value.replace(/\/+$/, "");

/** The named variables, or NotConfigured naming those missing. */
export function requireEnv(label: string, names: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const missing = names.filter((n) => !readEnv(n, env));
  if (missing.length) {
    throw new NotConfigured(
      `${label} is not configured on this server. Set ${missing.join(" and ")} in the backend's environment to enable it.`,
    );
  }
  return Object.fromEntries(names.map((n) => [n, readEnv(n, env)!]));
}

/**
 * A source's configuration from the environment: `required` variables (else NotConfigured) and `endpoints` with
 * their defaults, a base URL (`base`) losing its trailing slashes.
 */
export function envConfig<R extends string, E extends string>(
  label: string,
  required: Record<R, string>,
  endpoints: Record<E, [variable: string, fallback: string, kind?: "base"]>,
  env: NodeJS.ProcessEnv,
): Record<R | E, string> {
  const values = requireEnv(label, Object.values<string>(required), env);
  const config = {} as Record<R | E, string>;
  for (const [key, variable] of Object.entries<string>(required)) config[key as R] = values[variable]!;
  for (const [key, [variable, fallback, kind]] of Object.entries<[string, string, "base"?]>(endpoints)) {
    const value = readEnv(variable, env) ?? fallback;
    config[key as E] = kind === "base" ? baseUrl(value) : value;
  }
  return config;
}

/**
 * An OAuth source's configuration, read from the environment at each call: its client (`<PREFIX>_CLIENT_ID` and
 * `<PREFIX>_CLIENT_SECRET`, else NotConfigured) and its endpoints, as envConfig reads them.
 */
export function oauthClientConfig<E extends string>(label: string, prefix: string, endpoints: Record<E, [variable: string, fallback: string, kind?: "base"]>) {
  const client = { clientId: `${prefix}_CLIENT_ID`, clientSecret: `${prefix}_CLIENT_SECRET` };
  return (env: NodeJS.ProcessEnv = process.env) => envConfig(label, client, endpoints, env);
}
