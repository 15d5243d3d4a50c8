import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { cancelledAfter, CONNECTOR_MESSAGES as M, connectorIntentSchema, connectorStreamBodySchema, connectorStreamResyncBodySchema, STREAM_MESSAGES, type Connector, type SyncRun } from "@contract/connectors";
import { platformLabel } from "@contract/labels";
import { BACKFILL_MESSAGES, backfillFormSchema } from "@contract/run-operations";
import { BackfillForm, RunTrigger } from "~/components/backfill-form";
import { IntentButton } from "~/components/record-actions";
import { RunHistory, type RunColumn } from "~/components/run-history";
import { RunnableDetails } from "~/components/runnable-details";
import { FailureBanner } from "~/components/failure-banner";
import { formatBytes, type RunFailure } from "@contract/runs";
import { DateTime, readTimeZone } from "~/components/date-time";
import { requireUser } from "~/services/session.server";
import { backfillConnector, connectorCommand, deleteConnector, loadConnector, loadRuns, resyncConnectorStream, setConnectorStream } from "~/services/connectors.server";
import { ConnectorSchema } from "~/components/connector-schema";
import { readForm } from "~/services/form.server";
import { isRecordId, pageData } from "~/services/records.server";
import { loadRunCharts, loadRunsPage, type RunsPage } from "~/services/runs.server";
import { TransformCharts } from "~/components/transform-charts";
import type { TransformChart } from "@contract/transforms";
import { useTimeZone } from "~/root";
import { recordAuthorsWords } from "@contract/labels";
import { loadRecordAuthors } from "~/services/activity.server";
import { DetailRow, DetailsCard, TimestampRows } from "~/components/ui/detail-row";
import { ScheduleRows } from "~/components/schedule-rows";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.connector?.name ?? "Connector"} · Tributary` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  // The runs first, then the connector: a run that ends between the two reads is still open in the first, so the
  // page looks again (a refresh without JavaScript). The other way round, the page could show the run succeeded
  // beside "Last synced: Never", and keep it.
  const history = isRecordId(id) ? await loadRunsPage(request, (before) => loadRuns(request, id, before)) : null;
  const [outcome, authors, runCharts] = history
    ? await Promise.all([loadConnector(request, id), loadRecordAuthors(request, "connector", id), loadRunCharts(request, "connectors", id, history.runs[0])])
    : ([{ ok: false, status: 404 } as const, null, null] as const);
  if (!outcome.ok) {
    const notFound = outcome.status === 404;
    return pageData(
      {
        connector: null,
        runs: [] as SyncRun[],
        failing: null as RunFailure | null,
        history: null as RunsPage<SyncRun> | null,
        runsError: null as string | null,
        runCharts: { list: [] as TransformChart[], error: null as string | null },
        authors: "",
        error: notFound ? M.notFound : M.fetchConnectorFailed,
      },
      notFound,
    );
  }
  return pageData({ connector: outcome.data, ...history!, runCharts: runCharts!, authors: recordAuthorsWords(authors), error: null }, false);
}

/** What a failed Sync now, Pause or Resume says (a 409's own sentence says why instead). */
const FAILURES = {
  sync: "Failed to start a sync",
  cancel: "Failed to cancel the sync",
  pause: "Failed to pause the connector",
  resume: "Failed to resume the connector",
} as const;

/** The Backfill form: its days checked in the reader's time zone, then queued (a 409's sentence says a run is open). */
async function backfill(request: Request, rawId: string, form: FormData) {
  const timeZone = readTimeZone(request.headers.get("cookie"));
  const submission = parseWithZod(form, { schema: backfillFormSchema(timeZone) });
  if (submission.status !== "success") return Response.json({ result: submission.reply(), intent: "backfill" }, { status: 400 });
  const outcome = await backfillConnector(request, rawId, { ...submission.value, time_zone: timeZone });
  if (outcome.ok) return redirect(`/connectors/details/${encodeURIComponent(rawId)}`);
  const message = outcome.status === 400 || outcome.status === 409 ? outcome.message : BACKFILL_MESSAGES.failed;
  return Response.json({ result: submission.reply({ formErrors: [message] }), intent: "backfill" }, { status: outcome.status === 404 || outcome.status === 409 ? outcome.status : 400 });
}

/** A Schema section switch: stops syncing a stream or syncs it again; a refusal is said at that stream. */
async function stream(request: Request, rawId: string, form: FormData) {
  const name = String(form.get("stream") ?? "");
  const submission = parseWithZod(form, { schema: connectorStreamBodySchema });
  if (submission.status !== "success") {
    const message = Object.values(submission.error ?? {}).flat()[0] ?? STREAM_MESSAGES.unknown;
    return Response.json({ error: message, intent: "stream", stream: name }, { status: 400 });
  }
  const outcome = await setConnectorStream(request, rawId, submission.value);
  if (outcome.ok) return redirect(`/connectors/details/${encodeURIComponent(rawId)}#schema`);
  const message = outcome.status === 400 ? outcome.message : STREAM_MESSAGES.failed;
  return Response.json({ error: message, intent: "stream", stream: name }, { status: outcome.status === 404 ? 404 : 400 });
}

/** Re-sync's confirmation posted: the stream's state goes (a sync is queued); a refusal is said in the confirmation. */
async function resync(request: Request, rawId: string, form: FormData) {
  const name = String(form.get("stream") ?? "");
  const submission = parseWithZod(form, { schema: connectorStreamResyncBodySchema });
  if (submission.status !== "success") return Response.json({ error: STREAM_MESSAGES.unknown, intent: "resync", stream: name }, { status: 400 });
  const outcome = await resyncConnectorStream(request, rawId, submission.value);
  if (outcome.ok) return redirect(`/connectors/details/${encodeURIComponent(rawId)}#schema`);
  const message = outcome.status === 400 ? outcome.message : STREAM_MESSAGES.resyncFailed;
  return Response.json({ error: message, intent: "resync", stream: name }, { status: outcome.status === 404 ? 404 : 400 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const rawId = params.id ?? "";
  const id = encodeURIComponent(rawId);
  const form = await readForm(request);
  if (form.get("intent") === "backfill") return backfill(request, rawId, form);
  if (form.get("intent") === "stream") return stream(request, rawId, form);
  if (form.get("intent") === "resync") return resync(request, rawId, form);
  const submission = parseWithZod(form, { schema: connectorIntentSchema });
  if (submission.status !== "success") return Response.json({ error: M.intentInvalid, intent: "" }, { status: 400 });
  const { intent } = submission.value;
  if (intent !== "delete") {
    const failure = FAILURES[intent];
    const outcome = await connectorCommand(request, rawId, intent, failure);
    if (!outcome.ok) return Response.json({ error: outcome.status === 409 ? outcome.message : failure, intent }, { status: outcome.status === 404 ? 404 : 400 });
    return redirect(`/connectors/details/${id}`);
  }
  const outcome = await deleteConnector(request, rawId);
  if (outcome.ok) return redirect("/connectors");
  const detail = outcome.status === 409 ? ` ${outcome.message}` : "";
  return Response.json({ error: `${M.deleteFailed}.${detail}`, intent }, { status: outcome.status === 404 ? 404 : outcome.status === 409 ? 409 : 502 });
}

const frequencyLabel = (f: string) => (f === "daily" ? "Daily" : f === "hourly" ? "Hourly" : f);

function Details({ connector, authors }: { connector: Connector; authors: string }) {
  const timeZone = useTimeZone();
  return (
    <DetailsCard record={connector}>
      <DetailRow label="Source">{connector.source_name ?? "Unknown Source"}</DetailRow>
      <DetailRow label="Destinations">{connector.destinations.length ? connector.destinations.map((d) => d.name).join(", ") : "Unknown Destination"}</DetailRow>
      {connector.platform ? <DetailRow label="Platform">{platformLabel(connector.platform)}</DetailRow> : null}
      {/* A schedule of its own replaces the frequency: both side by side would say two things. */}
      {connector.schedule ? null : <DetailRow label="Frequency">{frequencyLabel(connector.frequency)}</DetailRow>}
      <DetailRow label="Lookback days">{connector.lookback_days}</DetailRow>
      <DetailRow label="Status">{connector.paused ? "Paused" : "Active"}</DetailRow>
      <ScheduleRows record={connector} paused={connector.paused ?? false} scheduleTo={`/connectors/details/${connector.id}/schedule`} timeZone={timeZone} />
      <DetailRow label="Last synced">{connector.last_synced_at ? <DateTime value={connector.last_synced_at} timeZone={timeZone} /> : "Never"}</DetailRow>
      {cancelledAfter(connector.last_run) ? (
        <DetailRow label="Last run">
          {cancelledAfter(connector.last_run)}, <DateTime value={connector.last_run!.finished_at ?? connector.last_run!.created_at} timeZone={timeZone} />
        </DetailRow>
      ) : null}
      <TimestampRows createdAt={connector.created_at} updatedAt={connector.updated_at} timeZone={timeZone} />
      {authors ? <DetailRow label="Who">{authors}</DetailRow> : null}
    </DetailsCard>
  );
}

const BYTES: RunColumn<SyncRun> = { label: "Bytes", className: "px-4 py-3 whitespace-nowrap", value: (run) => formatBytes(run.bytes) };
const TRIGGER: RunColumn<SyncRun> = { label: "Trigger", className: "px-4 py-3 whitespace-nowrap text-slate-600", value: (run) => <RunTrigger run={run} /> };

export default function ConnectorDetails() {
  const { connector, runs, failing, history, runsError, runCharts, authors, error } = useLoaderData<typeof loader>();
  const result = useActionData<{ error?: string; intent?: string; stream?: string }>();
  const streamError = (result?.intent === "stream" || result?.intent === "resync") && result.error ? { stream: result.stream ?? "", message: result.error } : null;
  return (
    <RunnableDetails
      noun="connector"
      width="max-w-4xl"
      record={connector}
      runs={runs}
      buttons={(record, { inProgress, busyIntent }) => (
        <>
          <IntentButton intent="sync" className="btn-primary" disabled={inProgress || busyIntent === "sync"}>
            {inProgress ? "Syncing..." : "Sync now"}
          </IntentButton>
          {inProgress ? (
            <IntentButton intent="cancel" className="btn-secondary" disabled={busyIntent === "cancel" || !!runs[0]?.cancel_requested_at}>
              {runs[0]?.cancel_requested_at ? "Cancelling..." : "Cancel sync"}
            </IntentButton>
          ) : null}
          <IntentButton intent={record.paused ? "resume" : "pause"} className="btn-secondary" disabled={busyIntent === "pause" || busyIntent === "resume"}>
            {record.paused ? "Resume" : "Pause"}
          </IntentButton>
        </>
      )}
      error={error ?? M.fetchConnectorFailed}
      localIntents={["stream", "resync"]}
      consequences=" and its run history will be deleted. Data already written to its destinations stays. This cannot be undone."
    >
      {(record) => {
        const runHref = (runId: string) => `/connectors/details/${record.id}/runs/${runId}`;
        return (
          <>
            <FailureBanner failing={failing} noun="connector" retry="Sync now" alerts runHref={runHref} />
            <RunHistory
              runs={history?.runs ?? runs}
              page={history?.page}
              error={runsError}
              caption="Sync runs, newest first"
              emptyHint="Sync now"
              column={[TRIGGER, BYTES]}
              href={(run) => runHref(run.id)}
              charts={<TransformCharts charts={runCharts.list} error={runCharts.error} label="Runs of the last 30 days" />}
            />
            <h2 className="mt-8 mb-3 text-lg font-semibold text-slate-900">Details</h2>
            <Details connector={record} authors={authors} />
            <ConnectorSchema connectorId={record.id} lookbackDays={record.lookback_days} streams={record.streams ?? []} error={streamError} />
            <BackfillForm />
          </>
        );
      }}
    </RunnableDetails>
  );
}
