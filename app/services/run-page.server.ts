import type { Params } from "@remix-run/react";
import { RUN_MESSAGES } from "@contract/runs";
import type { Outcome } from "./backend.server";
import { isRecordId, pageData } from "./records.server";
import { requireUser } from "./session.server";

/**
 * A run page's loader (a sync run's, a transform run's): the signed-in user's run of the path's record, or the page
 * with a 404 (a bad id, another user's run, a run of another record) or the load failure's sentence.
 */
export async function runPageData<Run>(request: Request, params: Params, load: (request: Request, id: string, runId: string) => Promise<Outcome<Run>>) {
  await requireUser(request);
  const id = params.id ?? "";
  const runId = params.runId ?? "";
  const outcome = isRecordId(id) && isRecordId(runId) ? await load(request, id, runId) : ({ ok: false, status: 404 } as const);
  if (!outcome.ok) {
    const notFound = outcome.status === 404;
    return pageData({ id, run: null as Run | null, error: notFound ? RUN_MESSAGES.notFound : RUN_MESSAGES.loadFailed }, notFound);
  }
  return pageData({ id, run: outcome.data as Run | null, error: null as string | null }, false);
}
