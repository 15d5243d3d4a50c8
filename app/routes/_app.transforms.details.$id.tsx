import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { TRANSFORM_MESSAGES as M, type TransformRun } from "@contract/transforms";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { runDuration, useRefreshWhile } from "~/components/run-timing";
import { DateTime } from "~/components/date-time";
import { DetailRow } from "~/components/detail-row";
import { ErrorBlock } from "~/components/error-block";
import { BackLink } from "~/components/source-create-form";
import { TransformResults, type ResultTable } from "~/components/transform-results";
import { readForm } from "~/services/form.server";
import { isRecordId, pageData } from "~/services/records.server";
import { requireUser } from "~/services/session.server";
import { deleteTransform, loadResults, loadTransform, loadTransformRuns, runTransform } from "~/services/transforms.server";
import { useTimeZone } from "~/root";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.transform?.name ?? "Transform"} · Tributary` }];

/** Rows shown of each result table. */
const RESULT_ROWS = 5;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  const transform = isRecordId(id) ? await loadTransform(request, id) : ({ ok: false, status: 404 } as const);
  if (!transform.ok)
    return pageData(
      {
        transform: null,
        runs: [] as TransformRun[],
        runsError: null as string | null,
        results: [] as ResultTable[],
        error: transform.status === 404 ? M.notFound : M.loadFailed,
      },
      transform.status === 404,
    );
  const runs = await loadTransformRuns(request, id);
  const list = runs.ok ? runs.data : [];
  // The result tables of the latest successful run, first rows of each.
  const latest = list.find((r) => r.status === "succeeded");
  const results: ResultTable[] = latest
    ? await Promise.all(
        latest.outputs.map(async (output) => {
          const rows = await loadResults(request, id, output.table, RESULT_ROWS);
          return rows.ok
            ? { table: output.table, total: rows.data.total ?? output.rows, columns: rows.data.columns, rows: rows.data.rows, error: null }
            : { table: output.table, total: output.rows, columns: [], rows: [], error: rows.message };
        })
      )
    : [];
  return pageData({ transform: transform.data, runs: list, runsError: runs.ok ? null : runs.message, results, error: null as string | null }, false);
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "delete");
  if (intent === "run") {
    const outcome = await runTransform(request, id);
    if (!outcome.ok)
      return Response.json(
        { error: outcome.status === 409 ? outcome.message : "Failed to start a transform run", intent },
        { status: outcome.status === 404 ? 404 : 400 }
      );
    return redirect(`/transforms/details/${encodeURIComponent(id)}`);
  }
  const outcome = await deleteTransform(request, id);
  if (outcome.ok) return redirect("/transforms");
  return Response.json({ error: M.deleteFailed, intent: "delete" }, { status: outcome.status === 404 ? 404 : 502 });
}

const FREQUENCY_LABEL: Record<string, string> = { daily: "Daily", hourly: "Hourly" };
const STATUS_STYLE: Record<string, string> = {
  queued: "bg-slate-100 text-slate-700",
  running: "bg-blue-100 text-blue-800",
  succeeded: "bg-green-100 text-green-800",
  failed: "bg-red-100 text-red-800",
  PENDING: "bg-slate-100 text-slate-700",
  RUNNING: "bg-blue-100 text-blue-800",
  SUCCEEDED: "bg-green-100 text-green-800",
  FAILED: "bg-red-100 text-red-800",
};
const formatSetting = (value: unknown): string => {
  if (Array.isArray(value)) return value.length ? value.map(String).join(", ") : "—";
  if (value === null || value === undefined || value === "") return "—";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
};
const titleCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

function StatusBadge({ status }: { status: string }) {
  return <span className={`rounded-md px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[status] ?? "bg-slate-100 text-slate-700"}`}>{titleCase(status)}</span>;
}

function RunHistory({ runs, error }: { runs: TransformRun[]; error: string | null }) {
  const timeZone = useTimeZone();
  return (
    <section aria-labelledby="runs" className="mt-8">
      <h2 id="runs" className="mb-3 text-lg font-semibold text-slate-900">
        Run history
      </h2>
      {error ? <ErrorBlock message={error} /> : null}
      {!error && runs.length === 0 ? <p className="text-sm text-slate-600">No runs yet. Use Run now to run the first one.</p> : null}
      {runs.length ? (
        <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label="Run history">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">Transform runs, newest first</caption>
            <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th className="px-4 py-3">Status</th>
                <th className="px-4 py-3">Started</th>
                <th className="px-4 py-3">Duration</th>
                <th className="px-4 py-3">Records</th>
                <th className="px-4 py-3">Trigger</th>
                <th className="px-4 py-3">Error</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {runs.map((run) => (
                <tr key={run.id} data-run-status={run.status}>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <StatusBadge status={run.status} />
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{run.started_at ? <DateTime value={run.started_at} timeZone={timeZone} /> : "—"}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{runDuration(run)}</td>
                  <td className="px-4 py-3">{run.records.toLocaleString("en-US")}</td>
                  <td className="px-4 py-3 text-slate-600">{titleCase(run.trigger)}</td>
                  <td className="max-w-xs px-4 py-3 break-words text-red-800">{run.error ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

export default function TransformDetails() {
  const { transform, runs, runsError, results, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ error: string; intent: string }>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const timeZone = useTimeZone();
  const inProgress = runs.some((r) => r.status === "queued" || r.status === "running");
  useRefreshWhile(inProgress);
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  return (
    <div className="mx-auto max-w-5xl">
      {inProgress ? (
        <noscript>
          <meta httpEquiv="refresh" content="3" />
        </noscript>
      ) : null}
      <BackLink to="/transforms">Transforms</BackLink>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-3">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{transform?.name ?? "Transform"}</h1>
          {transform ? <StatusBadge status={transform.status} /> : null}
        </div>
        {transform ? (
          <div className="flex flex-wrap gap-3">
            <Form method="post">
              <input type="hidden" name="intent" value="run" />
              <button type="submit" className="btn-primary" disabled={inProgress || busyIntent === "run"}>
                {inProgress ? "Running..." : "Run now"}
              </button>
            </Form>
            <Link to={`/transforms/edit/${transform.id}`} className="btn-secondary">
              Edit
            </Link>
            <Link to="?delete=1" preventScrollReset className="btn-danger">
              Delete
            </Link>
          </div>
        ) : null}
      </div>
      {actionData?.error && actionData.intent !== "delete" ? (
        <p role="alert" className="mb-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {actionData.error}
        </p>
      ) : null}
      {transform ? (
        <>
          <div className="card overflow-hidden">
            <dl className="divide-y divide-slate-100">
              <DetailRow label="Name">{transform.name}</DetailRow>
              <DetailRow label="Description">{transform.description || <span className="text-slate-600">No description provided</span>}</DetailRow>
              <DetailRow label="Type">
                <span className="rounded-md bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">{transform.transform_type}</span>
              </DetailRow>
              <DetailRow label="Connector">
                <Link to={`/connectors/details/${transform.connector_id}`} className="link">
                  {transform.connector_name ?? "Unknown Connector"}
                </Link>
              </DetailRow>
              {transform.frequency ? <DetailRow label="Frequency">{FREQUENCY_LABEL[transform.frequency] ?? transform.frequency}</DetailRow> : null}
              {transform.file_types?.length ? <DetailRow label="File types">{transform.file_types.join(", ")}</DetailRow> : null}
              {transform.inputs && Object.keys(transform.inputs).length ? (
                <DetailRow label="Settings">
                  <ul className="space-y-0.5">
                    {Object.entries(transform.inputs).map(([key, value]) => (
                      <li key={key}>
                        <span className="text-slate-600">{key}:</span> {formatSetting(value)}
                      </li>
                    ))}
                  </ul>
                </DetailRow>
              ) : null}
              <DetailRow label="Created">
                <DateTime value={transform.created_at} timeZone={timeZone} />
              </DetailRow>
            </dl>
          </div>
          <RunHistory runs={runs} error={runsError} />
          <TransformResults results={results} />
        </>
      ) : (
        <ErrorBlock message={error ?? M.loadFailed} />
      )}
      {transform && params.get("delete") ? (
        <ConfirmDialog
          title="Delete transform?"
          body={
            <>
              <strong className="font-semibold text-slate-900">{transform.name}</strong>, its schedule and its run history will be deleted. This cannot be
              undone.
            </>
          }
          confirmLabel="Delete"
          cancelTo={`/transforms/details/${transform.id}`}
          hidden={{ intent: "delete" }}
          error={actionData?.intent === "delete" ? actionData.error : null}
        />
      ) : null}
    </div>
  );
}
