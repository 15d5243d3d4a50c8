import type { LoaderFunctionArgs } from "@remix-run/node";
import { eventStream } from "remix-utils/sse/server";
import { runEventSettings, takeStreamPlace, TOO_MANY_STREAMS_MESSAGE } from "~/services/run-events.server";
import { loadRunsVersion } from "~/services/runs.server";
import { requireUserInfo } from "~/services/session.server";

/**
 * GET /events/runs: server-sent events for the signed-in user's runs. About once a second it asks the backend for the
 * user's data version (one session lookup: every write of a run moves it) and sends a `runs` event when it changed,
 * and once at the start (a change may have come between the page's load and this stream). Pages with a run queued or
 * running listen and re-load their data on each event (useRefreshWhile). The stream ends within a poll of the browser
 * going away (its connection's own abort signal), when the session does, and after RUN_EVENTS_MAX_SECONDS (the
 * browser then opens a new one); a user has at most RUN_EVENTS_MAX_STREAMS open (app/services/run-events.server.ts).
 */

const POLL_MS = 1_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUserInfo(request);
  const settings = runEventSettings();
  const release = takeStreamPlace(user.id, settings.maxStreams);
  if (!release) {
    return new Response(TOO_MANY_STREAMS_MESSAGE, { status: 429, headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "30" } });
  }
  // One signal for every way the stream ends: the browser went away (its connection's signal, and the request's), or
  // the stream lived its time. Listeners on the sources hold it: nothing here depends on the garbage collector.
  const ended = new AbortController();
  const end = () => ended.abort();
  const lifetime = setTimeout(end, settings.maxMs);
  const finish = () => {
    clearTimeout(lifetime);
    request.signal.removeEventListener("abort", end);
    context.connectionClosed?.removeEventListener("abort", end);
    context.serverStopping?.removeEventListener("abort", end);
    release();
  };
  ended.signal.addEventListener("abort", finish, { once: true });
  for (const signal of [request.signal, context.connectionClosed, context.serverStopping]) {
    if (signal?.aborted) end();
    else signal?.addEventListener("abort", end, { once: true });
  }
  // The first check answers for the session: an ended one is the usual redirect (EventSource then stops for good).
  let first;
  try {
    first = await loadRunsVersion(request);
  } catch (error) {
    finish();
    throw error;
  }
  const response = eventStream(ended.signal, (send, close) => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    // A backend that does not answer for a moment (restarting) sends no event: the next answer that does, does.
    let last = first.ok ? first.data : null;
    const tell = () => {
      try {
        send({ event: "runs", data: last ?? "?" });
      } catch {
        close();
      }
    };
    const tick = async () => {
      let next;
      try {
        next = await loadRunsVersion(request);
      } catch {
        // A thrown answer is the session's end (a redirect to sign in): nothing more to tell this browser.
        return close();
      }
      if (stopped) return;
      if (next.ok && next.data !== last) {
        last = next.data;
        tell();
      }
      timer = setTimeout(() => void tick(), POLL_MS);
    };
    tell();
    timer = setTimeout(() => void tick(), POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
      // Closed from inside (the session ended, the browser stopped reading): the place is given back too.
      finish();
    };
  });
  // No compression (it would hold events back until a block fills) nor buffering by a proxy.
  response.headers.set("Cache-Control", "no-cache, no-transform");
  response.headers.set("X-Accel-Buffering", "no");
  return response;
}
