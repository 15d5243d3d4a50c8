import type { LoaderFunctionArgs } from "@remix-run/node";
import { TRANSFORM_MESSAGES as M } from "@contract/transforms";
import { isRecordId } from "~/services/records.server";
import { requireUser } from "~/services/session.server";
import { downloadResults } from "~/services/transforms.server";

/** A result table's every row as a CSV file (the Results section's "Download CSV"). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  if (!isRecordId(id)) return new Response(`${M.notFound}\n`, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return downloadResults(request, id, params.table ?? "");
}
