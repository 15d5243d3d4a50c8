import { runLogFileName, runLogText, RUN_MESSAGES, type RunLogLine } from "@contract/runs";
import type { Outcome } from "./backend.server";
import { isRecordId } from "./records.server";
import { requireUser } from "./session.server";

/**
 * The "Download log" answer of a run page: the run's log as a text file (text/plain, as an attachment), or a plain
 * 404 for a run that is not the user's. `load` is the run's kind's call (a sync run, a transform run).
 */
export async function runLogDownload(
  request: Request,
  params: { id?: string; runId?: string },
  kind: "sync" | "transform",
  load: (request: Request, id: string, runId: string) => Promise<Outcome<{ id: string; log: RunLogLine[] }>>,
): Promise<Response> {
  await requireUser(request);
  const { id = "", runId = "" } = params;
  const outcome = isRecordId(id) && isRecordId(runId) ? await load(request, id, runId) : ({ ok: false, status: 404, message: RUN_MESSAGES.notFound } as const);
  const text = { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" };
  if (!outcome.ok) {
    const notFound = outcome.status === 404;
    return new Response(`${notFound ? RUN_MESSAGES.notFound : RUN_MESSAGES.loadFailed}\n`, { status: notFound ? 404 : 502, headers: text });
  }
  return new Response(runLogText(outcome.data.log), {
    headers: { ...text, "content-disposition": `attachment; filename="${runLogFileName(kind, outcome.data.id)}"` },
  });
}
