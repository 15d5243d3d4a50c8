import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadTransformRun } from "~/services/transforms.server";
import { runLogDownload } from "~/services/run-log.server";

/** A transform run's log as a text file (the run page's "Download log"). */
export const loader = ({ request, params }: LoaderFunctionArgs) => runLogDownload(request, params, "transform", loadTransformRun);
