import type { LoaderFunctionArgs } from "@remix-run/node";
import { eventStream } from "remix-utils/sse/server";
import { loadRunsVersion } from "~/services/runs.server";
import { requireUserInfo } from "~/services/session.server";

/**
 * GET /events/runs: server-sent events for the signed-in user's runs. About once a second it asks the backend for the
 * user's data version (one session lookup: every write of a run moves it) and sends a `runs` event when it changed,
 * and once at the start (a change may have come between the page's load and this stream). Pages with a run queued or
 * running listen and re-load their data on each event (useRefreshWhile). The stream ends when the browser goes away
 * or the session does.
 */

const POLL_MS = 1_000;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserInfo(request);
  // The first check answers for the session: an ended one is the usual redirect (EventSource then stops for good).
  const first = await loadRunsVersion(request);
  const response = eventStream(request.signal, (send, close) => {
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
    };
  });
  // No compression (it would hold events back until a block fills) nor buffering by a proxy.
  response.headers.set("Cache-Control", "no-cache, no-transform");
  response.headers.set("X-Accel-Buffering", "no");
  return response;
}
