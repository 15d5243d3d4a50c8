import type { RunFailure } from "@contract/runs";
import type { RunPage } from "~/components/run-history";
import type { TransformChart } from "@contract/transforms";
import { callBackend, type Outcome } from "./backend.server";
import { readTimeZone } from "~/components/date-time";
import { backendAddress } from "./backend-routes.server";
import { backendStream } from "./http.server";
import { sessionEnded } from "./session.server";

/**
 * The backend's event stream of the user's runs (GET /runs/events), to relay as it comes: null when the backend does
 * not answer with one (restarting, stopping). An ended session is the usual redirect to sign in (thrown).
 */
export async function openRunEvents(request: Request, signal: AbortSignal): Promise<ReadableStream<Uint8Array> | null> {
  let answer;
  try {
    answer = await backendStream(request, backendAddress("GET /runs/events").path, signal);
  } catch {
    return null;
  }
  if (answer.status === 200) return answer.body;
  await answer.body.cancel().catch(() => {});
  if (answer.status === 401) throw await sessionEnded(request);
  return null;
}


type RunsOutcome<R> = Outcome<{ runs: R[]; failing: RunFailure | null; hasMore: boolean }>;

/**
 * A details page's runs: the newest page (what the page's buttons and banner go by: a run in progress, the failures in
 * a row) and, with ?before= a run's id, the older page the history shows, with the links to page on.
 */
export async function loadRunsPage<R extends { id: string }>(request: Request, load: (before?: string) => Promise<RunsOutcome<R>>) {
  const before = new URL(request.url).searchParams.get("before") || undefined;
  const [newest, older] = await Promise.all([load(), before ? load(before) : null]);
  const shown = older ?? newest;
  const runs = shown.ok ? shown.data.runs : [];
  const page: RunPage = { older: shown.ok && shown.data.hasMore ? (runs.at(-1)?.id ?? null) : null, paged: !!before };
  return {
    runs: newest.ok ? newest.data.runs : [],
    failing: newest.ok ? newest.data.failing : null,
    history: { runs, page } as RunsPage<R> | null,
    runsError: shown.ok ? null : shown.message,
  };
}

export interface RunsPage<R> {
  runs: R[];
  page: RunPage;
}

/**
 * A connector's or a transform's run history as charts (records and duration per day over 30 days), drawn by the backend
 * in the reader's time zone. A failure leaves the page without them (the table below still holds every run).
 */
export async function loadRunCharts(
  request: Request,
  base: "connectors" | "transforms",
  id: string,
  newest: { status: string } | undefined,
): Promise<{ list: TransformChart[]; error: string | null }> {
  // While a run is open the page refreshes itself (or polls) every few seconds, and the charts hold finished runs: they
  // are drawn once it ends, not on every refresh.
  if (newest?.status === "queued" || newest?.status === "running") return { list: [], error: null };
  const route = base === "connectors" ? "GET /connectors/:id/runs/charts" : "GET /transforms/:id/runs/charts";
  const outcome = await callBackend(request, route, { params: { id }, query: { tz: readTimeZone(request.headers.get("cookie")) } }, "Failed to draw the run history");
  return outcome.ok ? { list: outcome.data.charts, error: null } : { list: [], error: outcome.message };
}
