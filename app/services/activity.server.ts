import { ACTIVITY_MESSAGES as M, type ActivityPage, type ActivityRecordType, type RecordAuthors } from "@contract/activity";
import { callBackend, type Outcome } from "./backend.server";

/** The activity log's calls (issue 51): a page of the workspace's log, and who created and last changed one record. */

/** A page of the log: `query` is the page's own ?actor=, ?type= and ?before= (empty ones left out). */
export function loadActivity(request: Request, query: { actor?: string | null; type?: string | null; before?: string | null }): Promise<Outcome<ActivityPage>> {
  return callBackend(request, "GET /activity", { query: { actor: query.actor || undefined, type: query.type || undefined, before: query.before || undefined } }, M.fetchFailed);
}

/** Who created the record and who changed it last; none when the log cannot be read (the details page shows without them). */
export async function loadRecordAuthors(request: Request, type: ActivityRecordType, id: string): Promise<RecordAuthors | null> {
  const outcome = await callBackend(request, "GET /activity/record", { query: { type, id } }, M.fetchFailed);
  return outcome.ok ? outcome.data : null;
}
