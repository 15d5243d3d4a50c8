import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatBytes, RUN_MESSAGES, type SyncRunDetails } from "@contract/runs";
import { DetailRow } from "~/components/ui/detail-row";
import { LandedTable, RunDetailsPage } from "~/components/run-details";
import { loadSyncRun } from "~/services/connectors.server";
import { isRecordId, pageData } from "~/services/records.server";
import { requireUser } from "~/services/session.server";

/** One sync run (issue 27): its attempts, where each destination's data landed, and its log. */

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Sync run${data?.run ? ` · ${data.run.connector_name}` : ""} · Tributary` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  const runId = params.runId ?? "";
  const outcome = isRecordId(id) && isRecordId(runId) ? await loadSyncRun(request, id, runId) : ({ ok: false, status: 404 } as const);
  if (!outcome.ok) {
    const notFound = outcome.status === 404;
    return pageData({ id, run: null as SyncRunDetails | null, error: notFound ? RUN_MESSAGES.notFound : RUN_MESSAGES.loadFailed }, notFound);
  }
  return pageData({ id, run: outcome.data, error: null as string | null }, false);
}

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
