import { providerRequest } from "../../../lib/metrics.js";
import { describeMs, isTimeoutError, providerTimeoutMs, timeoutSignal } from "../../../lib/outbound.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Longest Retry-After a reader waits for in place; a longer one fails the attempt (the job retries later). */
export const MAX_RETRY_AFTER_SECONDS = 30;
const RATE_LIMIT_ATTEMPTS = 4;

/** Seconds from a Retry-After value (delta-seconds or an HTTP date); 1 when absent or unreadable. */
export function retryAfterSeconds(value: string | null | undefined): number {
  if (!value) return 1;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : 1;
}

/**
 * Runs a request, waiting out 429 answers for as long as their Retry-After
 * asks (up to MAX_RETRY_AFTER_SECONDS, a few times). `rateLimited` tells a 429
 * and its Retry-After apart from anything else.
 */
export async function withRateLimit<T>(label: string, attempt: () => Promise<T>, rateLimited: (result: T | unknown) => string | null | undefined | false): Promise<T> {
  for (let n = 1; ; n++) {
    let result: T;
    try {
      result = await attempt();
    } catch (error) {
      const after = rateLimited(error);
      if (after === false || after === undefined) throw error;
      await waitOrGiveUp(label, after, n);
      continue;
    }
    const after = rateLimited(result);
    if (after === false || after === undefined) return result;
    await waitOrGiveUp(label, after, n);
  }
}

async function waitOrGiveUp(label: string, retryAfter: string | null, attempt: number) {
  const seconds = retryAfterSeconds(retryAfter);
  if (seconds > MAX_RETRY_AFTER_SECONDS || attempt >= RATE_LIMIT_ATTEMPTS) {
    throw new Error(`${label} is limiting Tributary's requests (429, retry after ${seconds} s); the sync will try again later.`);
  }
  await sleep(seconds * 1000);
}

/**
 * fetch with a timeout (PROVIDER_TIMEOUT_SECONDS unless given) and 429 handling; network failures become ordinary
 * (retryable) errors.
 */
export async function fetchProvider(label: string, url: string | URL, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
  const timeoutMs = init.timeoutMs ?? providerTimeoutMs();
  return withRateLimit(
    label,
    async () => {
      let response: Response;
      try {
        response = await fetch(url, { ...init, signal: timeoutSignal(timeoutMs, init.signal) });
      } catch (error) {
        const e = error as Error;
        // Stopped by the run's own signal (Cancel): the provider did nothing wrong.
        providerRequest(label, !init.signal?.aborted);
        throw new Error(`${label} could not be reached (${isTimeoutError(e) ? `no answer within ${describeMs(timeoutMs)}` : e.message}); the sync will try again.`);
      }
      // Each try is counted, a 429's retries included: the failures are what the provider did, not what the sync made of it.
      const status = typeof response?.status === "number" ? response.status : 0;
      providerRequest(label, status >= 500 || status === 429);
      return response;
    },
    (result) => {
      const response = result as Response;
      if (typeof response?.status !== "number" || response.status !== 429 || typeof response.headers?.get !== "function") return false;
      void response.body?.cancel();
      return response.headers.get("retry-after");
    },
  );
}
