import prettyMilliseconds from "pretty-ms";
import { useEffect, useRef } from "react";
import { useRevalidator } from "@remix-run/react";
import { useEventSource } from "remix-utils/sse/react";

/** How long a run took, as people read it ("480ms", "1.5s", "2m 3.4s"), "…" while it is running, "—" before it started (connector and transform run histories). */
export function runDuration(run: { started_at: string | null; finished_at: string | null }): string {
  if (!run.started_at) return "—";
  if (!run.finished_at) return "…";
  return prettyMilliseconds(new Date(run.finished_at).getTime() - new Date(run.started_at).getTime());
}

/** The event stream that tells a page its user's runs changed (app/routes/events.runs.tsx). */
export const RUN_EVENTS_PATH = "/events/runs";

/**
 * While a run is queued or running, with JS: the page listens to the run event stream (server-sent events) and
 * re-loads its data each time the stream says the user's runs changed (a status, the records so far), without
 * reloading the page. A change that comes while a re-load is under way is not lost: one more follows. Without JS
 * the page refreshes itself instead (RefreshWithoutScript).
 */
export function useRefreshWhile(active: boolean) {
  const revalidator = useRevalidator();
  const change = useEventSource(RUN_EVENTS_PATH, { event: "runs", enabled: active });
  const pending = useRef(false);
  useEffect(() => {
    if (change) pending.current = true;
  }, [change]);
  useEffect(() => {
    if (!pending.current || revalidator.state !== "idle") return;
    pending.current = false;
    revalidator.revalidate();
  }, [change, revalidator]);
}
