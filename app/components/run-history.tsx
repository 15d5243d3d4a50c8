import type { ReactNode } from "react";
import { Link, useLocation } from "@remix-run/react";
import { DateTime } from "./date-time";
import { ErrorBlock } from "~/components/ui/error-block";
import { runDuration, useRefreshWhile } from "./run-timing";
import { TableHead } from "./table-head";
import { useTimeZone } from "~/root";
import { shownRunStatus, StatusBadge } from "~/components/ui/status-badge";
import { runTriggeredByLabel } from "@contract/labels";

/** What the run histories of connectors (sync runs) and transforms share: one run of the runs engine. */
export interface RunRow {
  id: string;
  status: string;
  started_at: string | null;
  finished_at: string | null;
  records: number;
  error: string | null;
  /** manual | schedule | backfill | create; with who asked for it (issue 51): a member's or an API key's name, and which. */
  trigger?: string;
  triggered_by?: string | null;
  triggered_via?: string | null;
}

/**
 * Whether one of the runs is queued or running: while it is, the page re-loads its data each time the run event
 * stream says the runs changed, with JavaScript (and, without it, refreshes itself through <RefreshWithoutScript>,
 * refresh-without-script.tsx).
 */
export function useRunsInProgress(runs: readonly { status: string }[]): boolean {
  const inProgress = runs.some((r) => r.status === "queued" || r.status === "running");
  useRefreshWhile(inProgress);
  return inProgress;
}

/** A column a history has beyond status, start, duration and records (a sync's trigger and bytes, a transform run's trigger). */
export interface RunColumn<R> {
  label: string;
  className: string;
  value(run: R): React.ReactNode;
}

/** Where a page of a run history sits: the run to page past for older runs (null on the last page), and whether it is not the newest page. */
export interface RunPage {
  older: string | null;
  paged: boolean;
}

/** What a run's status alone does not tell: a transform run that succeeded without reading one record reads "No input". */
export interface RunOutcome {
  label: string;
  note: string;
}

/**
 * A connector's or a transform's runs, newest first: status, start, duration, records, its own column and the error.
 * `emptyHint` names the button that runs the first one. The table scrolls sideways on a phone, so its box is a named,
 * focusable region (keyboard users can scroll it).
 * `outcome` names a run's outcome where its status would mislead (shown instead of the status, its note in the last
 * column). `href` is a run's details page: its start (or "Not started") links there.
 */
export function RunHistory<R extends RunRow>(props: {
  runs: R[];
  error: string | null;
  caption: string;
  emptyHint: string;
  column: RunColumn<R> | RunColumn<R>[];
  outcome?(run: R): RunOutcome | null;
  href?(run: R): string;
  /** Which page of the history this is (50 runs a page): links to older runs and back to the newest. */
  page?: RunPage;
  /** The history as charts (the last 30 days), drawn above the table once there are runs. */
  charts?: ReactNode;
}) {
  const { runs, error, page } = props;
  const { pathname } = useLocation();
  const columns = Array.isArray(props.column) ? props.column : [props.column];
  const timeZone = useTimeZone();
  const region = { tabIndex: 0, role: "region", "aria-label": "Run history" } as const;
  return (
    <section aria-labelledby="runs" className="mt-8">
      <h2 id="runs" className="mb-3 text-lg font-semibold text-slate-900">
        Run history
      </h2>
      {error ? <ErrorBlock message={error} /> : null}
      {!error && runs.length === 0 && !page?.paged ? <p className="text-sm text-slate-600">{`No runs yet. Use ${props.emptyHint} to run the first one.`}</p> : null}
      {runs.length && props.charts ? <div className="mb-4">{props.charts}</div> : null}
      {runs.length ? (
        <div className="card overflow-x-auto" {...region}>
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">{props.caption}</caption>
            <TableHead cell="px-4 py-3" labels={["Status", "Started", "Duration", "Records", ...columns.map((c) => c.label), "Triggered by", "Error"]} />
            <tbody className="divide-y divide-slate-100">
              {runs.map((run) => {
                const outcome = props.outcome?.(run) ?? null;
                return (
                  <tr key={run.id} data-run-status={run.status} data-run-outcome={outcome?.label}>
                    <td className="px-4 py-3 whitespace-nowrap">
                      <StatusBadge status={outcome?.label ?? shownRunStatus(run)} />
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      <RunStart run={run} href={props.href?.(run)} timeZone={timeZone} />
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">{runDuration(run)}</td>
                    <td className="px-4 py-3">{run.records.toLocaleString("en-US")}</td>
                    {columns.map((column) => (
                      <td key={column.label} className={column.className}>
                        {column.value(run)}
                      </td>
                    ))}
                    <td className="px-4 py-3 whitespace-nowrap text-slate-600" data-triggered-by>
                      {run.trigger ? runTriggeredByLabel({ trigger: run.trigger, triggered_by: run.triggered_by, triggered_via: run.triggered_via }) : "—"}
                    </td>
                    {outcome && !run.error ? (
                      <td className="max-w-xs px-4 py-3 break-words text-slate-700">{outcome.note}</td>
                    ) : (
                      <td className="max-w-xs px-4 py-3 break-words text-red-800">{run.error ?? ""}</td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {page && (page.paged || page.older) ? (
        <nav aria-label="Run history pages" className="mt-3 flex items-center justify-between gap-4 text-sm">
          {page.paged ? (
            <Link to={`${pathname}#runs`} className="link font-medium">
              Newest runs
            </Link>
          ) : (
            <span />
          )}
          {page.older ? (
            <Link to={`${pathname}?before=${encodeURIComponent(page.older)}#runs`} className="link font-medium">
              Older runs
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

/** A run's start in its history; a link to its details page when it has one. */
function RunStart({ run, href, timeZone }: { run: RunRow; href: string | undefined; timeZone: string }) {
  const start = run.started_at ? <DateTime value={run.started_at} timeZone={timeZone} /> : null;
  if (!href) return start ?? <>—</>;
  return (
    <Link to={href} className="link" title="Open this run: its attempts, where its data landed and its log">
      {start ?? "Not started"}
    </Link>
  );
}
