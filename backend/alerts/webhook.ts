import { createHmac, randomBytes } from "node:crypto";
import type { LookupFunction } from "node:net";
import pRetry, { AbortError } from "p-retry";
import { Agent, request } from "undici";
import { addressAllowed, privateHostsAllowed, resolvePublicHost, type CheckedHost, type Lookup, type Settings } from "../lib/public-address.js";
import { describeMs, withDeadline } from "../lib/outbound.js";
import { ALERT_MESSAGES as M, DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER } from "../../contract/alerts.js";

/**
 * Webhook alerts: a JSON POST signed as Stripe and GitHub sign theirs, to a URL the user gave. The URL must be https
 * and its host must resolve to public addresses only (backend/lib/public-address.ts): checked when the settings are
 * saved, and again at every attempt, where the connection goes to the very address that was checked (no DNS
 * rebinding). TRIBUTARY_ALLOW_PRIVATE_HOSTS=true (the tests) allows loopback and private hosts, and plain http to
 * those only.
 */

/** A new signing secret, Stripe's way: a prefix that says what it is, then 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed by the secret as it is shown (the whole string). */
export function signatureHeader(secret: string, body: string, at = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

/** A webhook URL the server will not call: the sentence says why, for the user. */
export class WebhookRefused extends Error {}

const DNS_TIMEOUT_MS = 10_000;

/**
 * Checks a webhook URL under the rule above and answers the address to connect to; throws WebhookRefused with a
 * sentence for the user.
 */
export async function checkWebhookUrl(raw: string, options: { env?: Settings; lookup?: Lookup } = {}): Promise<{ url: URL; checked: CheckedHost }> {
  const env = options.env ?? process.env;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookRefused(M.webhookInvalid);
  }
  const privateAllowed = privateHostsAllowed(env);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && privateAllowed)) throw new WebhookRefused(M.webhookScheme);
  let checked: CheckedHost;
  try {
    checked = await withDeadline(resolvePublicHost(url.hostname, { env, lookup: options.lookup }), DNS_TIMEOUT_MS, `The webhook's host ${url.hostname}`);
  } catch (error) {
    throw new WebhookRefused(M.webhookRefused((error as Error).message));
  }
  // Plain http only to a private address the operator allowed (a test's server), never across the internet.
  if (url.protocol !== "https:" && addressAllowed(checked.address)) throw new WebhookRefused(M.webhookScheme);
  return { url, checked };
}

/** A lookup that answers only the address already checked: the socket cannot go anywhere else. */
function pinned(checked: CheckedHost): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: checked.address, family: checked.family }]);
    else callback(null, checked.address, checked.family);
  }) as unknown as LookupFunction;
}

export interface WebhookSettings {
  /** Retries after the first attempt (default 4). */
  retries: number;
  /** The first retry's delay in ms; each next one doubles (default 1000). */
  minTimeoutMs: number;
  /** One attempt's bound (default 10 s). */
  attemptTimeoutMs: number;
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value?.trim());
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** ALERT_WEBHOOK_RETRIES, ALERT_WEBHOOK_RETRY_MS, ALERT_WEBHOOK_TIMEOUT_SECONDS: read at each delivery, like the outbound bounds. */
export function webhookSettings(env: NodeJS.ProcessEnv = process.env): WebhookSettings {
  return {
    retries: Math.floor(positive(env.ALERT_WEBHOOK_RETRIES, 4)),
    minTimeoutMs: positive(env.ALERT_WEBHOOK_RETRY_MS, 1000),
    attemptTimeoutMs: Math.max(1, Math.round(positive(env.ALERT_WEBHOOK_TIMEOUT_SECONDS, 10) * 1000)),
  };
}

export interface WebhookDelivery {
  id: string;
  event: string;
  url: string;
  secret: string;
  body: string;
}

/** One attempt: check the host again, connect to the checked address, POST, and accept a 2xx only. */
async function attempt(delivery: WebhookDelivery, timeoutMs: number): Promise<void> {
  let target: { url: URL; checked: CheckedHost };
  try {
    target = await checkWebhookUrl(delivery.url);
  } catch (error) {
    // A refused host stays refused: retrying cannot change that.
    if (error instanceof WebhookRefused) throw new AbortError(error.message);
    throw error;
  }
  const agent = new Agent({ connect: { lookup: pinned(target.checked), timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  try {
    const response = await request(target.url, {
      method: "POST",
      dispatcher: agent,
      body: delivery.body,
      headers: {
        "content-type": "application/json",
        "user-agent": "Tributary-Webhooks/1",
        [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(delivery.secret, delivery.body),
        [EVENT_HEADER.toLowerCase()]: delivery.event,
        [DELIVERY_HEADER.toLowerCase()]: delivery.id,
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body.dump().catch(() => {});
    if (response.statusCode < 200 || response.statusCode >= 300) throw new Error(`The webhook answered HTTP ${response.statusCode}`);
  } catch (error) {
    if (error instanceof AbortError) throw error;
    const e = error as Error & { code?: string };
    if (e.name === "TimeoutError" || e.name === "AbortError" || /timeout/i.test(e.code ?? "")) throw new Error(`The webhook did not answer within ${describeMs(timeoutMs)}`);
    if (e.message.startsWith("The webhook answered")) throw e;
    throw new Error(`The webhook could not be reached: ${e.message || e.code || "connection failed"}`);
  } finally {
    await agent.close().catch(() => {});
  }
}

/**
 * Delivers with retries and exponential backoff (p-retry); `onAttempt` is told every attempt's outcome (to record
 * it). Resolves when delivered, rejects with the last error when every attempt failed.
 */
export async function deliverWebhook(delivery: WebhookDelivery, onAttempt: (attempt: number, error: string | null) => Promise<void>, settings = webhookSettings()): Promise<void> {
  await pRetry(
    async (n) => {
      try {
        await attempt(delivery, settings.attemptTimeoutMs);
      } catch (error) {
        await onAttempt(n, (error as Error).message);
        throw error;
      }
      await onAttempt(n, null);
    },
    { retries: settings.retries, minTimeout: settings.minTimeoutMs, factor: 2, randomize: false },
  );
}
