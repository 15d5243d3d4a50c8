import { useEffect } from "react";
import { useRevalidator } from "@remix-run/react";

/** How long a run took, "…" while it is running, "—" before it started (connector and transform run histories). */
export function runDuration(run: { started_at: string | null; finished_at: string | null }): string {
  if (!run.started_at) return "—";
  if (!run.finished_at) return "…";
  const ms = new Date(run.finished_at).getTime() - new Date(run.started_at).getTime();
  return ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** While a run is queued or running: re-load every 2 s with JS; without JS the page refreshes itself. */
export function useRefreshWhile(active: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 2000);
    return () => clearInterval(timer);
  }, [active, revalidator]);
}
