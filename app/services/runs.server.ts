import { z } from "zod";
import type { RunFailure } from "@contract/runs";
import type { RunPage } from "~/components/run-history";
import { callBackend, type Outcome } from "./backend.server";

const versionSchema = z.object({ version: z.string() }).transform((o) => o.version);

/** The signed-in user's data version: it moves on every write of their runs (the run event stream polls it). */
export function loadRunsVersion(request: Request): Promise<Outcome<string>> {
  return callBackend(request, "/runs/version", { schema: versionSchema }, "Failed to check the runs");
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
