import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { parseWithZod } from "@conform-to/zod";
import { optionLabel, TRANSFORM_MESSAGES as M, transformTypeLabel, type Transform, type TransformRun } from "@contract/transforms";
import { foundNoInput, INPUT_MESSAGES, inputWords } from "@contract/transform-forms";
import { IntentButton } from "~/components/record-actions";
import { RunHistory, type RunColumn } from "~/components/run-history";
import { StatusBadge, titleCase } from "~/components/ui/status-badge";
import { RunnableDetails } from "~/components/runnable-details";
import { FailureBanner } from "~/components/failure-banner";
import type { RunFailure } from "@contract/runs";
import { DateTime } from "~/components/date-time";
import { DetailRow, DetailsCard } from "~/components/ui/detail-row";
import { ScheduleRows } from "~/components/schedule-rows";
import { TransformResults, type ResultTable } from "~/components/transform-results";
import { TransformCharts } from "~/components/transform-charts";
import { readTimeZone } from "~/components/date-time";
import type { TransformChart } from "@contract/transforms";
import { readForm } from "~/services/form.server";
import { isRecordId, pageData } from "~/services/records.server";
import { loadRunsPage, type RunsPage } from "~/services/runs.server";
import { requireUser } from "~/services/session.server";
import { loadRunCharts } from "~/services/runs.server";
import { cancelTransformRun, deleteTransform, loadChartsAndResults, loadTransform, loadTransformRuns, runTransform } from "~/services/transforms.server";
import { useTimeZone } from "~/root";
import { recordAuthorsWords } from "@contract/labels";
import { loadRecordAuthors } from "~/services/activity.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.transform?.name ?? "Transform"} · Tributary` }];

/** Rows shown of each result table: five, or up to MORE_ROWS once the user asks (?rows=). */
const RESULT_ROWS = 5;
const MORE_ROWS = 100;
const shownRows = (request: Request) => (new URL(request.url).searchParams.get("rows") === String(MORE_ROWS) ? MORE_ROWS : RESULT_ROWS);

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  // The runs first, then the transform: a run that ends between the two reads is still open in the first, so the
  // page looks again, instead of showing the run succeeded beside the transform's status from before it.
  const page = isRecordId(id) ? await loadRunsPage(request, (before) => loadTransformRuns(request, id, before)) : null;
  // The result tables of the latest successful run, first rows of each (none when it found no input: they are empty),
  // and the charts over them, in one call beside the others: the warehouse is opened once for the page.
  const latest = page?.runs.find((r) => r.status === "succeeded");
  const shown = shownRows(request);
  const reading = latest && !foundNoInput(latest) ? loadChartsAndResults(request, id, readTimeZone(request.headers.get("cookie")), shown) : null;
  const [transform, authors, runCharts, drawn] = page
    ? await Promise.all([loadTransform(request, id), loadRecordAuthors(request, "transform", id), loadRunCharts(request, "transforms", id, page.runs[0]), reading])
    : ([{ ok: false, status: 404 } as const, null, null, null] as const);
  if (!transform.ok)
    return pageData(
      {
        transform: null,
        runs: [] as TransformRun[],
        failing: null as RunFailure | null,
        history: null as RunsPage<TransformRun> | null,
        runsError: null as string | null,
        results: [] as ResultTable[],
        charts: { list: [] as TransformChart[], error: null as string | null },
        runCharts: { list: [] as TransformChart[], error: null as string | null },
        shown: RESULT_ROWS,
        error: transform.status === 404 ? M.notFound : M.loadFailed,
      },
      transform.status === 404,
    );
  const { runs: list, failing, history, runsError } = page!;
  const results: ResultTable[] = latest && !foundNoInput(latest)
    ? latest.outputs.map((output) => {
        const read = drawn?.ok ? drawn.data.results.find((r) => r.table === output.table) : undefined;
        return read
          ? { table: output.table, label: read.label, total: read.total ?? output.rows, columns: read.columns, rows: read.rows, error: null }
          : { table: output.table, label: output.table, total: output.rows, columns: [], rows: [], error: drawn && !drawn.ok ? drawn.message : null };
      })
    : [];
  const charts = { list: drawn?.ok ? drawn.data.charts : [], error: drawn && !drawn.ok ? drawn.message : null };
  return pageData({ transform: transform.data, runs: list, failing, history, runsError, results, charts, runCharts: runCharts!, shown, authors: recordAuthorsWords(authors), error: null as string | null }, false);
}

/** The page's buttons: Run now, Cancel run, and the confirmation's Delete. */
const intentSchema = z.object({ intent: z.enum(["run", "cancel", "delete"]).default("delete") });

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  const submission = parseWithZod(await readForm(request), { schema: intentSchema });
  if (submission.status !== "success") return Response.json({ error: "This button is not one of this page's.", intent: "" }, { status: 400 });
  const { intent } = submission.value;
  if (intent === "cancel") {
    const outcome = await cancelTransformRun(request, id);
    if (!outcome.ok) return Response.json({ error: "Failed to cancel the run", intent }, { status: outcome.status === 404 ? 404 : 400 });
    return redirect(`/transforms/details/${encodeURIComponent(id)}`);
  }
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
const formatSetting = (value: unknown): string => {
  if (Array.isArray(value)) return value.length ? value.map(String).join(", ") : "—";
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return optionLabel(value);
  return typeof value === "object" ? JSON.stringify(value) : String(value);
};

const TRIGGER: RunColumn<TransformRun> = { label: "Trigger", className: "px-4 py-3 text-slate-600", value: (run) => titleCase(run.trigger) };

/** A run that succeeded without reading one record reads "No input", not a plain success. */
const outcome = (run: TransformRun) => (foundNoInput(run) ? { label: INPUT_MESSAGES.noInputStatus, note: INPUT_MESSAGES.runNote } : null);

/**
 * Why the latest run found no input and what to do: the transform's file types are not in the connector's data
 * (create it again with one that is), or the connector had synced none of them (sync it, run again).
 */
function NoInputNotice({ transform }: { transform: Transform }) {
  const types = transform.file_types ?? [];
  const available = transform.connector_file_types ?? [];
  const connector = transform.connector_name ?? "the connector";
  const wrongType = available.length > 0 && !types.some((t) => available.includes(t));
  return (
    <div role="status" data-testid="no-input" className="mt-8 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p>{wrongType ? INPUT_MESSAGES.runWrongType(types, connector, available) : INPUT_MESSAGES.runNotSynced(types, connector)}</p>
      <p className="mt-2">
        {wrongType ? (
          <Link to="/transforms/add" className="link font-medium">
            Create a transform
          </Link>
        ) : (
          <Link to={`/connectors/details/${transform.connector_id}`} className="link font-medium">
            Open the connector
          </Link>
        )}
      </p>
    </div>
  );
}

function Details({ transform, authors }: { transform: Transform; authors: string }) {
  const timeZone = useTimeZone();
  return (
    <DetailsCard record={transform}>
      <DetailRow label="Type">
        <span className="rounded-md bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">{transformTypeLabel(transform.transform_type)}</span>
      </DetailRow>
      <DetailRow label="Connector">
        <Link to={`/connectors/details/${transform.connector_id}`} className="link">
          {transform.connector_name ?? "Unknown Connector"}
        </Link>
      </DetailRow>
      {transform.frequency ? <DetailRow label="Frequency">{FREQUENCY_LABEL[transform.frequency] ?? transform.frequency}</DetailRow> : null}
      <ScheduleRows record={transform} paused={!transform.next_run_at && transform.schedule?.kind !== "manual"} scheduleTo={`/transforms/details/${transform.id}/schedule`} timeZone={timeZone} />
      {transform.file_types?.length ? <DetailRow label="File types">{transform.file_types.join(", ")}</DetailRow> : null}
      {transform.inputs && Object.keys(transform.inputs).length ? (
        <DetailRow label="Settings">
          <ul className="space-y-0.5">
            {Object.entries(transform.inputs).map(([key, value]) => (
              <li key={key}>
                <span className="text-slate-600">{inputWords(key)}:</span> {formatSetting(value)}
              </li>
            ))}
          </ul>
        </DetailRow>
      ) : null}
      <DetailRow label="Created">
        <DateTime value={transform.created_at} timeZone={timeZone} />
      </DetailRow>
      {authors ? <DetailRow label="Who">{authors}</DetailRow> : null}
    </DetailsCard>
  );
}

export default function TransformDetails() {
  const data = useLoaderData<typeof loader>();
  const { transform, runs, failing, history, runsError, results, charts, runCharts, shown, error } = data;
  const authors = "authors" in data ? data.authors : "";
  const timeZone = useTimeZone();
  return (
    <RunnableDetails
      noun="transform"
      width="max-w-5xl"
      record={transform}
      runs={runs}
      badge={(record) => <StatusBadge status={runs[0] && foundNoInput(runs[0]) ? INPUT_MESSAGES.noInputStatus : record.status} />}
      buttons={(_record, { inProgress, busyIntent }) => (
        <>
          <IntentButton intent="run" className="btn-primary" disabled={inProgress || busyIntent === "run"}>
            {inProgress ? "Running..." : "Run now"}
          </IntentButton>
          {inProgress ? (
            <IntentButton intent="cancel" className="btn-secondary" disabled={busyIntent === "cancel" || !!runs[0]?.cancel_requested_at}>
              {runs[0]?.cancel_requested_at ? "Cancelling..." : "Cancel run"}
            </IntentButton>
          ) : null}
        </>
      )}
      error={error ?? M.loadFailed}
      consequences=", its schedule and its run history will be deleted. This cannot be undone."
    >
      {(record) => (
        <>
          <FailureBanner failing={failing} noun="transform" retry="Run now" runHref={(runId) => `/transforms/details/${record.id}/runs/${runId}`} />
          <Details transform={record} authors={authors} />
          {runs[0] && foundNoInput(runs[0]) ? <NoInputNotice transform={record} /> : null}
          <RunHistory
            runs={history?.runs ?? runs}
            page={history?.page}
            error={runsError}
            caption="Transform runs, newest first"
            emptyHint="Run now"
            column={TRIGGER}
            outcome={outcome}
            href={(run) => `/transforms/details/${record.id}/runs/${run.id}`}
            charts={<TransformCharts charts={runCharts.list} error={runCharts.error} label="Runs of the last 30 days" />}
          />
          <TransformResults
            charts={<TransformCharts charts={charts.list} error={charts.error} downloadHref={(chart, format) => `/transforms/details/${record.id}/charts/${encodeURIComponent(chart)}/${format}`} />}
            results={results}
            shown={shown}
            more={shown < MORE_ROWS ? { href: `?rows=${MORE_ROWS}#results`, rows: MORE_ROWS } : null}
            downloadHref={(table) => `/transforms/details/${record.id}/results/${encodeURIComponent(table)}/download`}
            pagesHref={(table) => `/transforms/details/${record.id}/results/${encodeURIComponent(table)}`}
            timeZone={timeZone}
          />
        </>
      )}
    </RunnableDetails>
  );
}
