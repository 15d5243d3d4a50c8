import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RUN_MESSAGES } from "@contract/runs";
import { OutputsTable, RunDetailsPage } from "~/components/run-details";
import { loadTransformRun } from "~/services/transforms.server";
import { runPageData } from "~/services/run-page.server";

/** One transform run (issue 27): its attempts, the result tables it wrote, and its log. */

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Transform run${data?.run ? ` · ${data.run.transform_name}` : ""} · Tributary` }];

export const loader = ({ request, params }: LoaderFunctionArgs) => runPageData(request, params, loadTransformRun);

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
