import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatBytes, RUN_MESSAGES } from "@contract/runs";
import { DetailRow } from "~/components/ui/detail-row";
import { LandedTable, RunDetailsPage } from "~/components/run-details";
import { loadSyncRun } from "~/services/connectors.server";
import { runPageData } from "~/services/run-page.server";

/** One sync run (issue 27): its attempts, where each destination's data landed, and its log. */

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Sync run${data?.run ? ` · ${data.run.connector_name}` : ""} · Tributary` }];

export const loader = ({ request, params }: LoaderFunctionArgs) => runPageData(request, params, loadSyncRun);

export default function SyncRunPage() {
  const { id, run, error } = useLoaderData<typeof loader>();
  const base = `/connectors/details/${id}`;
  return (
    <RunDetailsPage
      kind="Sync run"
      back={{ to: base, label: run?.connector_name ?? "Connector" }}
      run={run}
      error={error ?? RUN_MESSAGES.loadFailed}
      rows={(r) => <DetailRow label="Bytes">{formatBytes(r.bytes)}</DetailRow>}
      wrote={(r, open) => <LandedTable landed={r.landed} open={open} />}
      logHref={`${base}/runs/${run?.id ?? ""}/log`}
    />
  );
}
