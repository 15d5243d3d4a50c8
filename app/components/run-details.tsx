import { formatBytes, logRemovedMessage, type Landed, type RunAttempt, type RunLogLine } from "@contract/runs";
import { integrationLabel } from "@contract/destinations";
import { BackLink } from "~/components/ui/back-link";
import { DetailRow } from "~/components/ui/detail-row";
import { ErrorBlock } from "~/components/ui/error-block";
import { shownRunStatus, StatusBadge, titleCase } from "~/components/ui/status-badge";
import { useTimeZone } from "~/root";
import { DateTime, formatDateTime } from "./date-time";
import { RefreshWithoutScript } from "./refresh-without-script";
import { runDuration, useRefreshWhile } from "./run-timing";
import { TableHead } from "./table-head";
import { runTriggeredByLabel } from "@contract/labels";

/**
 * A run's details page (a sync's or a transform's): its status and counts, each attempt, what it wrote (a sync's
 * destinations and where their data landed, a transform's result tables), and its own log with a download. While the
 * run is queued or running the page follows it live (server-sent events with JS; a self-refresh without).
 */

/** What both kinds of run show. */
export interface RunView {
  id: string;
  status: string;
  trigger: string;
  /** Who asked for it (issue 51): a member's or an API key's name, and which; null: the schedule, its creation. */
  triggered_by?: string | null;
  triggered_via?: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  records: number;
  error: string | null;
  attempts: RunAttempt[];
  log: RunLogLine[];
  log_kept_days: number | null;
}

const isOpen = (status: string) => status === "queued" || status === "running";

/** A small table in a card that scrolls sideways on a phone (a named region the keyboard can reach). */
function SmallTable({ label, caption, head, children }: { label: string; caption: string; head: string[]; children: React.ReactNode }) {
  return (
    <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label={label}>
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <TableHead cell="px-4 py-3" labels={head} />
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

function Section({ id, title, action, children }: { id: string; title: string; action?: React.ReactNode; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-8">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

function Attempts({ attempts }: { attempts: RunAttempt[] }) {
  const timeZone = useTimeZone();
  return (
    <Section id="attempts" title="Attempts">
      {attempts.length === 0 ? (
        <p className="text-sm text-slate-600">No attempt has started yet.</p>
      ) : (
        <SmallTable label="Attempts" caption="Each attempt of the run, first first" head={["Attempt", "Started", "Finished", "Duration", "Outcome", "Error"]}>
          {attempts.map((a) => (
            <tr key={a.attempt} data-attempt-outcome={a.outcome}>
              <td className="px-4 py-3">{a.attempt}</td>
              <td className="px-4 py-3 whitespace-nowrap">
                <DateTime value={a.started_at} timeZone={timeZone} />
              </td>
              <td className="px-4 py-3 whitespace-nowrap">{a.finished_at ? <DateTime value={a.finished_at} timeZone={timeZone} /> : "—"}</td>
              <td className="px-4 py-3 whitespace-nowrap">{runDuration(a)}</td>
              <td className="px-4 py-3 whitespace-nowrap">
                <StatusBadge status={a.outcome} />
              </td>
              <td className="max-w-sm px-4 py-3 break-words text-red-800">{a.error ?? ""}</td>
            </tr>
          ))}
        </SmallTable>
      )}
    </Section>
  );
}

/** A sync's destinations: records, bytes and where the data landed. */
export function LandedTable({ landed, open }: { landed: Landed[]; open: boolean }) {
  return (
    <Section id="destinations" title="Destinations">
      {landed.length === 0 ? (
        <p className="text-sm text-slate-600">{open ? "Nothing has landed yet." : "Nothing was written."}</p>
      ) : (
        <SmallTable label="Destinations" caption="Where each destination's data landed" head={["Destination", "Type", "Records", "Bytes", "Where it landed"]}>
          {landed.map((l) => (
            <tr key={`${l.name}-${l.type}`}>
              <td className="px-4 py-3 font-medium text-slate-900">{l.name}</td>
              <td className="px-4 py-3 whitespace-nowrap">{integrationLabel(l.type)}</td>
              <td className="px-4 py-3">{l.records.toLocaleString("en-US")}</td>
              <td className="px-4 py-3 whitespace-nowrap">{formatBytes(l.bytes)}</td>
              <td className="max-w-md px-4 py-3 font-mono text-xs break-all text-slate-700">{l.location}</td>
            </tr>
          ))}
        </SmallTable>
      )}
    </Section>
  );
}

/** A transform run's result tables and their rows. */
export function OutputsTable({ outputs, open }: { outputs: { table: string; rows: number }[]; open: boolean }) {
  return (
    <Section id="outputs" title="Result tables">
      {outputs.length === 0 ? (
        <p className="text-sm text-slate-600">{open ? "No result table has been written yet." : "No result table was written."}</p>
      ) : (
        <SmallTable label="Result tables" caption="The result tables the run wrote" head={["Table", "Rows"]}>
          {outputs.map((o) => (
            <tr key={o.table}>
              <td className="px-4 py-3 font-mono text-xs">{o.table}</td>
              <td className="px-4 py-3">{o.rows.toLocaleString("en-US")}</td>
            </tr>
          ))}
        </SmallTable>
      )}
    </Section>
  );
}

const LEVEL_CLASS: Record<string, string> = { info: "text-slate-500", warn: "text-amber-800", error: "text-red-800" };

function Log({ lines, downloadHref, open, keptDays }: { lines: RunLogLine[]; downloadHref: string; open: boolean; keptDays: number | null }) {
  const timeZone = useTimeZone();
  return (
    <Section
      id="log"
      title="Log"
      action={
        lines.length ? (
          <a href={downloadHref} download className="btn-secondary">
            Download log
          </a>
        ) : null
      }
    >
      {lines.length === 0 ? (
        <p className="text-sm text-slate-600">{open ? "No line yet." : keptDays ? logRemovedMessage(keptDays) : "This run wrote no log."}</p>
      ) : (
        <div className="card max-h-[32rem] overflow-auto bg-slate-50" tabIndex={0} role="region" aria-label="Run log">
          <ol className="min-w-full px-4 py-3 font-mono text-xs leading-relaxed" data-testid="run-log">
            {lines.map((line, i) => (
              <li key={i} className="flex gap-3 whitespace-pre-wrap" data-level={line.level}>
                <time dateTime={line.at} className="shrink-0 text-slate-600" title={line.at}>
                  {formatDateTime(line.at, timeZone)}
                </time>
                <span className={`w-12 shrink-0 font-semibold uppercase ${LEVEL_CLASS[line.level] ?? ""}`}>{line.level}</span>
                <span className="break-words text-slate-900">{line.message}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </Section>
  );
}

/** The run's page: `kind` names it ("Sync run"), `back` is its connector's or transform's page. */
export function RunDetailsPage<R extends RunView>(props: {
  kind: string;
  back: { to: string; label: string };
  run: R | null;
  error: string;
  /** The rows a kind adds to the summary (a sync's bytes). */
  rows?(run: R): React.ReactNode;
  /** What the run wrote (a sync's destinations, a transform's tables). */
  wrote(run: R, open: boolean): React.ReactNode;
  logHref: string;
}) {
  const { run } = props;
  const timeZone = useTimeZone();
  const open = !!run && isOpen(run.status);
  useRefreshWhile(open);
  return (
    <div className="mx-auto max-w-5xl">
      <RefreshWithoutScript active={open} />
      <BackLink to={props.back.to}>{props.back.label}</BackLink>
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{props.kind}</h1>
        {run ? <StatusBadge status={shownRunStatus(run)} /> : null}
      </div>
      {run ? (
        <>
          {run.error ? (
            <p className="mb-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm break-words text-red-800" data-testid="run-error">
              {run.error}
            </p>
          ) : null}
          <div className="card overflow-hidden">
            <dl className="divide-y divide-slate-100" data-testid="run-summary">
              <DetailRow label="Status">
                <span data-run-status={run.status}>{titleCase(shownRunStatus(run))}</span>
              </DetailRow>
              <DetailRow label="Trigger">{titleCase(run.trigger)}</DetailRow>
              <DetailRow label="Triggered by">
                <span data-triggered-by>{runTriggeredByLabel(run)}</span>
              </DetailRow>
              <DetailRow label="Created">
                <DateTime value={run.created_at} timeZone={timeZone} />
              </DetailRow>
              <DetailRow label="Started">{run.started_at ? <DateTime value={run.started_at} timeZone={timeZone} /> : "Not yet"}</DetailRow>
              <DetailRow label="Finished">{run.finished_at ? <DateTime value={run.finished_at} timeZone={timeZone} /> : "Not yet"}</DetailRow>
              <DetailRow label="Duration">{runDuration(run)}</DetailRow>
              <DetailRow label="Records">
                <span data-testid="run-records">{run.records.toLocaleString("en-US")}</span>
              </DetailRow>
              {props.rows?.(run)}
            </dl>
          </div>
          <Attempts attempts={run.attempts} />
          {props.wrote(run, open)}
          <Log lines={run.log} downloadHref={props.logHref} open={open} keptDays={run.log_kept_days} />
        </>
      ) : (
        <ErrorBlock message={props.error} />
      )}
    </div>
  );
}
