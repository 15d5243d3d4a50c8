import type { LoaderFunctionArgs } from "@remix-run/node";
import { TRANSFORM_MESSAGES as M } from "@contract/transforms";
import { readTimeZone } from "~/components/date-time";
import { isRecordId } from "~/services/records.server";
import { requireUser } from "~/services/session.server";
import { downloadChart } from "~/services/transforms.server";

const notFound = (text: string) => new Response(`${text}\n`, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

/** A chart of the Results section as a file: "Download SVG" (the picture) and "Download CSV" (the points behind it). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  if (!isRecordId(id)) return notFound(M.notFound);
  const format = params.format;
  if (format !== "svg" && format !== "csv") return notFound("This download does not exist. Choose SVG or CSV.");
  return downloadChart(request, id, params.chart ?? "", format, readTimeZone(request.headers.get("cookie")));
}
