import type { LoaderFunctionArgs } from "@remix-run/node";
import { runEventSettings, takeStreamPlace, TOO_MANY_STREAMS_MESSAGE } from "~/services/run-events.server";
import { openRunEvents } from "~/services/runs.server";
import { requireUserInfo } from "~/services/session.server";

/**
 * GET /events/runs: server-sent events for the signed-in user's runs, relayed from the backend's own stream
 * (GET /runs/events), which pushes a `runs` event at once and whenever one of the user's runs is written: nothing is
 * polled. Pages with a run queued or running listen and re-load their data on each event (useRefreshWhile). The stream
 * ends, and its backend stream with it, when the browser goes away (its connection's own abort signal), when this web
 * process stops, when the session does (the backend checks), and after RUN_EVENTS_MAX_SECONDS (the browser then opens
 * a new one); a user has at most RUN_EVENTS_MAX_STREAMS open (app/services/run-events.server.ts). A backend that does
 * not answer (restarting) gets the browser to come back in a few seconds.
 */

const RETRY_MS = 5_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUserInfo(request);
  const settings = runEventSettings();
  const release = takeStreamPlace(user.id, settings.maxStreams);
  if (!release) {
    return new Response(TOO_MANY_STREAMS_MESSAGE, { status: 429, headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "30" } });
  }
  // One signal for every way the stream ends: the browser went away (its connection's signal, and the request's), the
  // web process stops, or the stream lived its time. Aborting it also closes the backend stream.
  const ended = new AbortController();
  const end = () => ended.abort();
  const lifetime = setTimeout(end, settings.maxMs);
  const sources = [request.signal, context.connectionClosed, context.serverStopping];
  const finish = () => {
    clearTimeout(lifetime);
    for (const signal of sources) signal?.removeEventListener("abort", end);
    release();
  };
  ended.signal.addEventListener("abort", finish, { once: true });
  for (const signal of sources) {
    if (signal?.aborted) end();
    else signal?.addEventListener("abort", end, { once: true });
  }
  let upstream: ReadableStream<Uint8Array> | null;
  try {
    upstream = await openRunEvents(request, ended.signal);
  } catch (error) {
    end();
    throw error;
  }
  const reader = upstream?.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!reader) {
        controller.enqueue(new TextEncoder().encode(`retry: ${RETRY_MS}\n\n`));
        controller.close();
        return end();
      }
      try {
        const { value, done } = await reader.read();
        if (!done) return controller.enqueue(value);
      } catch {
        // Aborted (the stream's end) or the backend went away: the browser reconnects if it is still there.
      }
      controller.close();
      end();
    },
    cancel() {
      end();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // No compression (it would hold events back until a block fills) nor buffering by a proxy.
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
