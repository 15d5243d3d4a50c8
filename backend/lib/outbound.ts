import pLimit, { type LimitFunction } from "p-limit";

/**
 * Bounds on the calls the server makes to other services for a user (see
 * docs/decisions/2026-11-25-outbound-limits.md). Read from the environment at
 * each call, like the integrations' endpoints, so a running backend and the
 * tests pick up a change.
 *
 *   CONNECTION_TEST_TIMEOUT_SECONDS  a Test Connection, a source's sign-in or verification (default 10)
 *   PROVIDER_TIMEOUT_SECONDS         one provider request during a sync or a transform (default 60)
 */
export const DEFAULT_CONNECTION_TEST_TIMEOUT_SECONDS = 10;
export const DEFAULT_PROVIDER_TIMEOUT_SECONDS = 60;
/** Connection tests one user may have running at once; more answer 429 at once rather than queue. */
export const CONNECTION_TESTS_PER_USER = 3;
export const TOO_MANY_CONNECTION_TESTS = "Too many connection tests are running. Wait for one to finish and try again.";

function seconds(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const value = Number(env[name]?.trim());
  // Fractions are allowed (tests use short ones); nonsense falls back rather than disabling the bound.
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export function connectionTestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return Math.round(seconds("CONNECTION_TEST_TIMEOUT_SECONDS", DEFAULT_CONNECTION_TEST_TIMEOUT_SECONDS, env) * 1000);
}

export function providerTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return Math.round(seconds("PROVIDER_TIMEOUT_SECONDS", DEFAULT_PROVIDER_TIMEOUT_SECONDS, env) * 1000);
}

/** "10 seconds", "2.5 seconds", "1 second": for messages. */
export function describeMs(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return `${s} second${s === 1 ? "" : "s"}`;
}

/** An outbound call that did not finish in time. `what` names the service ("Snowflake account xy-123"). */
export class OutboundTimeout extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not answer within ${describeMs(ms)}`);
    this.name = "OutboundTimeout";
  }
}

/**
 * For calls an SDK cannot bound itself: answers `work`'s result, or throws OutboundTimeout after `ms`. A result
 * that arrives later is handed to `late` (to close a connection it holds) and never to the caller; a late failure
 * is swallowed.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string, late?: (value: T) => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(new OutboundTimeout(what, ms));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        if (!expired) resolve(value);
        else if (late) void Promise.resolve(late(value)).catch(() => {});
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!expired) reject(error);
      },
    );
  });
}

/** Whether an error is a client's own timeout (fetch's AbortSignal.timeout, gaxios, node's sockets, withDeadline). */
export function isTimeoutError(error: unknown): boolean {
  const e = error as { code?: unknown; name?: unknown; type?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e) return false;
  if (error instanceof OutboundTimeout || e.name === "TimeoutError" || e.name === "AbortError" || e.type === "request-timeout") return true;
  if (e.code === "ETIMEDOUT" || e.code === "ESOCKETTIMEDOUT" || e.code === "UND_ERR_CONNECT_TIMEOUT" || e.code === "UND_ERR_HEADERS_TIMEOUT") return true;
  if (/\btimed? ?out\b|\btimeout\b|operation was aborted/i.test(String(e.message ?? ""))) return true;
  return e.cause !== undefined && e.cause !== error && isTimeoutError(e.cause);
}

/** A fetch-style AbortSignal that also aborts when `signal` (the caller's) does. */
export function timeoutSignal(ms: number, signal?: AbortSignal | null): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** A user asked for more connection tests at once than CONNECTION_TESTS_PER_USER. */
export class TooManyConnectionTests extends Error {
  constructor() {
    super(TOO_MANY_CONNECTION_TESTS);
  }
}

const running = new Map<string, LimitFunction>();

/**
 * Runs one connection test of `userId`, at most CONNECTION_TESTS_PER_USER at once per user (per backend process).
 * Beyond that it throws TooManyConnectionTests at once: a queued test would only hold the user's request longer.
 */
export async function connectionTestSlot<T>(userId: string, work: () => Promise<T>, perUser = CONNECTION_TESTS_PER_USER): Promise<T> {
  let limit = running.get(userId);
  if (!limit) {
    limit = pLimit(perUser);
    running.set(userId, limit);
  }
  if (limit.activeCount + limit.pendingCount >= perUser) throw new TooManyConnectionTests();
  try {
    return await limit(work);
  } finally {
    if (limit.activeCount + limit.pendingCount === 0 && running.get(userId) === limit) running.delete(userId);
  }
}
