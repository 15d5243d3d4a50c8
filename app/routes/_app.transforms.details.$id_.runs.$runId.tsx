import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RUN_MESSAGES, type TransformRunDetails } from "@contract/runs";
import { OutputsTable, RunDetailsPage } from "~/components/run-details";
import { loadTransformRun } from "~/services/transforms.server";
import { isRecordId, pageData } from "~/services/records.server";
import { requireUser } from "~/services/session.server";

/** One transform run (issue 27): its attempts, the result tables it wrote, and its log. */

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Transform run${data?.run ? ` · ${data.run.transform_name}` : ""} · Tributary` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  const runId = params.runId ?? "";
  const outcome = isRecordId(id) && isRecordId(runId) ? await loadTransformRun(request, id, runId) : ({ ok: false, status: 404 } as const);
  if (!outcome.ok) {
    const notFound = outcome.status === 404;
    return pageData({ id, run: null as TransformRunDetails | null, error: notFound ? RUN_MESSAGES.notFound : RUN_MESSAGES.loadFailed }, notFound);
  }
  return pageData({ id, run: outcome.data, error: null as string | null }, false);
}

export default function TransformRunPage() {
  const { id, run, error } = useLoaderData<typeof loader>();
  const base = `/transforms/details/${id}`;
  return (
    <RunDetailsPage
      kind="Transform run"
      back={{ to: base, label: run?.transform_name ?? "Transform" }}
      run={run}
      error={error ?? RUN_MESSAGES.loadFailed}
      wrote={(r, open) => <OutputsTable outputs={r.outputs} open={open} />}
      logHref={`${base}/runs/${run?.id ?? ""}/log`}
    />
  );
}
