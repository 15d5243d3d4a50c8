import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadSyncRun } from "~/services/connectors.server";
import { runLogDownload } from "~/services/run-log.server";

/** A sync run's log as a text file (the run page's "Download log"). */
export const loader = ({ request, params }: LoaderFunctionArgs) => runLogDownload(request, params, "sync", loadSyncRun);
