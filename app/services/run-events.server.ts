/**
 * Bounds on the run-event streams (GET /events/runs, app/routes/events.runs.tsx): each open stream holds a stream of
 * the backend's open (and a connection to it), so their number and their life are bounded.
 * - A stream's work ends when its connection closes: the web server hands each request the abort signal of its own
 *   connection (`context.connectionClosed`, scripts/web-edge.ts). The Request's `signal` is not enough: the copy Remix
 *   gives a loader follows it through a weak reference, which the garbage collector may drop (then it never aborts).
 * - At most RUN_EVENTS_MAX_STREAMS streams per signed-in user and web server process (default 4); one more is
 *   refused with 429 and a sentence.
 * - A stream ends after RUN_EVENTS_MAX_SECONDS (default 300); the browser's EventSource opens a new one by itself.
 */

declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** Aborted when the request's connection closes (the browser went away). */
    connectionClosed?: AbortSignal;
    /** Aborted when this web server process stops (SIGTERM): long answers (event streams) end. */
    serverStopping?: AbortSignal;
  }
}

function setting(value: string | undefined, fallback: number, min: number): number {
  const n = Number(value?.trim());
  return value?.trim() && Number.isFinite(n) && n >= min ? n : fallback;
}

export function runEventSettings(source: Record<string, string | undefined> = process.env) {
  return {
    maxStreams: Math.floor(setting(source.RUN_EVENTS_MAX_STREAMS, 4, 1)),
    maxMs: Math.round(setting(source.RUN_EVENTS_MAX_SECONDS, 300, 1) * 1000),
  };
}

export const TOO_MANY_STREAMS_MESSAGE = "Too many pages are following your runs at once. Close a few Tributary tabs, then reload this page.";

const open = new Map<string, number>();

/** Streams open now per user (in this process). */
export function openStreams(userId: string): number {
  return open.get(userId) ?? 0;
}

/**
 * Takes one of the user's stream places: answers its release (call it once, when the stream ends), or null when
 * every place is taken.
 */
export function takeStreamPlace(userId: string, maxStreams = runEventSettings().maxStreams): (() => void) | null {
  const count = openStreams(userId);
  if (count >= maxStreams) return null;
  open.set(userId, count + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = openStreams(userId) - 1;
    if (left > 0) open.set(userId, left);
    else open.delete(userId);
  };
}
