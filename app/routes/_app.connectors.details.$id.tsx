import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { CONNECTOR_MESSAGES as M, type Connector, type SyncRun } from "@contract/connectors";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { runDuration, useRefreshWhile } from "~/components/run-timing";
import { DateTime } from "~/components/date-time";
import { ErrorBlock } from "~/components/error-block";
import { BackLink } from "~/components/source-create-form";
import { requireUser } from "~/services/session.server";
import { callBackend, loadConnector, loadRuns } from "~/services/connectors.server";
import { readForm } from "~/services/form.server";
import { isRecordId, pageData } from "~/services/records.server";
import { useTimeZone } from "~/root";
import { DetailRow, TimestampRows } from "~/components/detail-row";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.connector?.name ?? "Connector"} · Tributary` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  const outcome = isRecordId(id) ? await loadConnector(request, id) : ({ ok: false, status: 404 } as const);
  if (!outcome.ok) {
    const notFound = outcome.status === 404;
    return pageData({ connector: null, runs: [] as SyncRun[], runsError: null as string | null, error: notFound ? M.notFound : M.fetchConnectorFailed }, notFound);
  }
  const runs = await loadRuns(request, id);
  return pageData({ connector: outcome.data, runs: runs.ok ? runs.data : [], runsError: runs.ok ? null : runs.message, error: null }, false);
}

const INTENTS = {
  sync: { path: "sync", method: "POST", failure: "Failed to start a sync" },
  pause: { path: "pause", method: "POST", failure: "Failed to pause the connector" },
  resume: { path: "resume", method: "POST", failure: "Failed to resume the connector" },
} as const;

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const id = encodeURIComponent(params.id ?? "");
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "delete");
  if (intent in INTENTS) {
    const spec = INTENTS[intent as keyof typeof INTENTS];
    const outcome = await callBackend(request, `/connectors/${id}/${spec.path}`, { method: spec.method, json: {} }, spec.failure);
    if (!outcome.ok) return Response.json({ error: outcome.status === 409 ? outcome.message : spec.failure, intent }, { status: outcome.status === 404 ? 404 : 400 });
    return redirect(`/connectors/details/${id}`);
  }
  const outcome = await callBackend(request, `/connectors/delete/${id}`, { method: "DELETE" }, M.deleteFailed);
  if (outcome.ok) return redirect("/connectors");
  const detail = outcome.status === 409 ? ` ${outcome.message}` : "";
  return Response.json({ error: `${M.deleteFailed}.${detail}`, intent: "delete" }, { status: outcome.status === 404 ? 404 : outcome.status === 409 ? 409 : 502 });
}

const frequencyLabel = (f: string) => (f === "daily" ? "Daily" : f === "hourly" ? "Hourly" : f);

function Details({ connector }: { connector: Connector }) {
  const timeZone = useTimeZone();
  return (
    <div className="card overflow-hidden">
      <dl className="divide-y divide-slate-100">
        <DetailRow label="Name">{connector.name}</DetailRow>
        <DetailRow label="Description">{connector.description || <span className="text-slate-600">No description provided</span>}</DetailRow>
        <DetailRow label="Source">{connector.source_name ?? "Unknown Source"}</DetailRow>
        <DetailRow label="Destinations">{connector.destinations.length ? connector.destinations.map((d) => d.name).join(", ") : "Unknown Destination"}</DetailRow>
        {connector.platform ? <DetailRow label="Platform">{connector.platform.toUpperCase()}</DetailRow> : null}
        <DetailRow label="Frequency">{frequencyLabel(connector.frequency)}</DetailRow>
        <DetailRow label="Lookback days">{connector.lookback_days}</DetailRow>
        <DetailRow label="Schedule">{connector.paused ? "Paused" : "Active"}</DetailRow>
        <DetailRow label="Last synced">{connector.last_synced_at ? <DateTime value={connector.last_synced_at} timeZone={timeZone} /> : "Never"}</DetailRow>
        <TimestampRows createdAt={connector.created_at} updatedAt={connector.updated_at} timeZone={timeZone} />
      </dl>
    </div>
  );
}

const STATUS_STYLE: Record<string, string> = {
  queued: "bg-slate-100 text-slate-700",
  running: "bg-blue-100 text-blue-800",
  succeeded: "bg-green-100 text-green-800",
  failed: "bg-red-100 text-red-800",
};
const STATUS_LABEL: Record<string, string> = { queued: "Queued", running: "Running", succeeded: "Succeeded", failed: "Failed" };

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function RunHistory({ runs, error }: { runs: SyncRun[]; error: string | null }) {
  const timeZone = useTimeZone();
  return (
    <section aria-labelledby="runs" className="mt-8">
      <h2 id="runs" className="mb-3 text-lg font-semibold text-slate-900">
        Run history
      </h2>
      {error ? <ErrorBlock message={error} /> : null}
      {!error && runs.length === 0 ? <p className="text-sm text-slate-600">No runs yet. Use Sync now to run the first one.</p> : null}
      {runs.length ? (
        <div className="card overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">Sync runs, newest first</caption>
            <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th className="px-4 py-3">Status</th>
                <th className="px-4 py-3">Started</th>
                <th className="px-4 py-3">Duration</th>
                <th className="px-4 py-3">Records</th>
                <th className="px-4 py-3">Bytes</th>
                <th className="px-4 py-3">Error</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {runs.map((run) => (
                <tr key={run.id} data-run-status={run.status}>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <span className={`rounded-md px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[run.status] ?? ""}`}>{STATUS_LABEL[run.status] ?? run.status}</span>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{run.started_at ? <DateTime value={run.started_at} timeZone={timeZone} /> : "—"}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{runDuration(run)}</td>
                  <td className="px-4 py-3">{run.records.toLocaleString("en-US")}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{bytes(run.bytes)}</td>
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

export default function ConnectorDetails() {
  const { connector, runs, runsError, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ error: string; intent: string }>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const inProgress = runs.some((r) => r.status === "queued" || r.status === "running");
  useRefreshWhile(inProgress);
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  return (
    <div className="mx-auto max-w-4xl">
      {inProgress ? (
        <noscript>
          <meta httpEquiv="refresh" content="3" />
        </noscript>
      ) : null}
      <BackLink to="/connectors">Connectors</BackLink>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{connector?.name ?? "Connector"}</h1>
        {connector ? (
          <div className="flex flex-wrap gap-3">
            <Form method="post">
              <input type="hidden" name="intent" value="sync" />
              <button type="submit" className="btn-primary" disabled={inProgress || busyIntent === "sync"}>
                {inProgress ? "Syncing..." : "Sync now"}
              </button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value={connector.paused ? "resume" : "pause"} />
              <button type="submit" className="btn-secondary" disabled={busyIntent === "pause" || busyIntent === "resume"}>
                {connector.paused ? "Resume" : "Pause"}
              </button>
            </Form>
            <Link to={`/connectors/edit/${connector.id}`} className="btn-secondary">
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
      {connector ? (
        <>
          <Details connector={connector} />
          <RunHistory runs={runs} error={runsError} />
        </>
      ) : (
        <ErrorBlock message={error ?? M.fetchConnectorFailed} />
      )}
      {connector && params.get("delete") ? (
        <ConfirmDialog
          title="Delete connector?"
          body={
            <>
              <strong className="font-semibold text-slate-900">{connector.name}</strong> and its run history will be deleted. Data already written to its destinations stays. This
              cannot be undone.
            </>
          }
          confirmLabel="Delete"
          cancelTo={`/connectors/details/${connector.id}`}
          hidden={{ intent: "delete" }}
          error={actionData?.intent === "delete" ? actionData.error : null}
        />
      ) : null}
    </div>
  );
}
