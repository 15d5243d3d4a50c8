import { providersInWords } from "@contract/integrations/sources";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { cancelledAfter, type Connector } from "@contract/connectors";
import { destinationKindsInWords } from "@contract/integrations/destination-words";
import { notScheduledReason } from "@contract/schedule-words";
import { DataTable, type Column } from "~/components/ui/data-table";
import { DateTime, SoonTime } from "~/components/date-time";
import { ErrorBlock } from "~/components/ui/error-block";
import { PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { loadAllDestinations, loadSources } from "~/services/connectors.server";
import { listData, loadListPage } from "~/services/lists.server";
import { ListFilters, NoMatches } from "~/components/ui/list-filters";
import { StatusBadge } from "~/components/ui/status-badge";
import { RefreshLinkWithoutScript } from "~/components/refresh-without-script";
import { useRefreshWhile } from "~/components/run-timing";
import { useTimeZone } from "~/root";
import { useUser } from "./_app";

export const meta: MetaFunction = () => [{ title: "Connectors · Tributary" }];

/** What the table shows of a connector: every field costs serialisation into the page. */
const pickConnector = (c: Connector) => ({
  id: c.id,
  name: c.name,
  description: c.description,
  source_name: c.source_name,
  destinations: c.destinations,
  last_synced_at: c.last_synced_at,
  health: c.health ?? null,
  next_run_at: c.next_run_at ?? null,
  not_scheduled: notScheduledReason(c.schedule),
  last_run: c.last_run ? { status: c.last_run.status, error: c.last_run.error, at: c.last_run.finished_at ?? c.last_run.started_at ?? c.last_run.created_at } : null,
  cancelled_after: cancelledAfter(c.last_run),
});
type ConnectorRow = ReturnType<typeof pickConnector>;

export async function loader(args: LoaderFunctionArgs) {
  const page = await loadListPage(args, "connectors", "Failed to fetch connectors", pickConnector);
  // No connector yet: the welcome's steps say which are done (a source, a destination) from the user's own records.
  if (page.error || page.total > 0 || page.find.filtered) return listData({ ...page, onboarding: null });
  const destinationKinds = destinationKindsInWords();
  const [sources, destinations] = await Promise.all([loadSources(args.request), loadAllDestinations(args.request)]);
  const onboarding = { sources: sources.ok ? sources.data.length : 0, destinations: destinations.ok ? destinations.data.length : 0 };
  return listData({ ...page, onboarding: { ...onboarding, destinationKinds, providers: providersInWords(",") } });
}

const steps = (destinationKinds: string, providers: string) => [
  { n: 1, title: "Create a source", body: `Connect ${providers} or the data generator.`, to: "/sources/add", cta: "Create source", more: "Add another source" },
  { n: 2, title: "Create a destination", body: `Choose where the data lands: ${destinationKinds}.`, to: "/destinations/add", cta: "Create destination", more: "Add another destination" },
  { n: 3, title: "Create a connector", body: "Link a source to its destinations and pick how often it syncs. Its first sync starts at once.", to: "/connectors/add", cta: "Create connector", more: "" },
];

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The three steps, each done once the user has what it makes; the next one to do is the one highlighted. */
function Welcome({ progress }: { progress: { sources: number; destinations: number; destinationKinds: string; providers: string } }) {
  const user = useUser();
  const firstName = user.given_name || user.name.split(/\s+/)[0] || "there";
  const done = [
    progress.sources > 0 ? `Done: ${plural(progress.sources, "source", "sources")}` : null,
    progress.destinations > 0 ? `Done: ${plural(progress.destinations, "destination", "destinations")}` : null,
    null,
  ];
  const next = done.findIndex((d) => d === null);
  const count = done.filter(Boolean).length;
  return (
    <section aria-labelledby="welcome" className="max-w-4xl">
      <h1 id="welcome" className="text-3xl font-bold tracking-tight">
        Hi {firstName}, let&apos;s get your data flowing
      </h1>
      <p className="mt-2 text-slate-600">
        You have no connectors yet. Three steps and your first sync is on its way.
        {count > 0 ? ` ${count} of 3 done.` : ""}
      </p>
      <ol className="mt-8 grid gap-4 md:grid-cols-3">
        {steps(progress.destinationKinds, progress.providers).map((step, i) => {
          const status = done[i];
          return (
            <li key={step.n} className={`card flex flex-col p-6 ${i === next ? "ring-2 ring-brand-600" : ""}`} data-step-done={status ? "true" : "false"}>
              <span
                className={`flex h-8 w-8 items-center justify-center rounded-full text-sm font-bold text-white ${status ? "bg-green-700" : "bg-brand-600"}`}
                aria-hidden="true"
              >
                {status ? "✓" : step.n}
              </span>
              <h2 className="mt-4 font-semibold text-slate-900">{step.title}</h2>
              {status ? <p className="mt-1 text-sm font-medium text-green-800">{status}</p> : null}
              <p className="mt-1 flex-1 text-sm text-slate-600">{step.body}</p>
              <Link to={step.to} className={`${i === next ? "btn-primary" : "btn-secondary"} mt-6 self-start`}>
                {status ? step.more : step.cta}
              </Link>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

const MARKS: Record<string, { mark: string; label: string; className: string }> = {
  succeeded: { mark: "✓", label: "Succeeded", className: "text-green-700" },
  failed: { mark: "✕", label: "Failed", className: "text-red-700" },
  running: { mark: "●", label: "Running", className: "text-blue-700" },
  queued: { mark: "○", label: "Queued", className: "text-slate-500" },
};

/** The last run's time and a status mark (the last sync's time when no run is recorded). */
function LastConnection({ connector, timeZone }: { connector: ConnectorRow; timeZone: string }) {
  const run = connector.last_run;
  const at = run ? run.at : connector.last_synced_at;
  if (!at) return <span className="text-slate-500">Never</span>;
  // A status mark only for a recorded run (a bare last_synced_at has no run behind it to judge).
  const mark = run ? MARKS[run.status] : undefined;
  return (
    <span className="inline-flex items-center gap-2" title={run?.error ?? undefined}>
      {mark ? (
        <span className={`font-bold ${mark.className}`} aria-label={mark.label} role="img">
          {mark.mark}
        </span>
      ) : null}
      <DateTime value={at} timeZone={timeZone} />
    </span>
  );
}

export default function Connectors() {
  const data = useLoaderData<typeof loader>();
  const timeZone = useTimeZone();
  // A sync queued or running: the list follows it live (its status, then its outcome).
  const live = data.rows.some((c) => c.health === "running" || c.health === "queued");
  useRefreshWhile(live);
  if (data.onboarding && !data.error && data.total === 0 && !data.find.filtered) return <Welcome progress={data.onboarding} />;
  const columns: Column<ConnectorRow>[] = [
    {
      header: "Name",
      cell: (c) => (
        <a href={`/connectors/details/${c.id}`} className="font-semibold text-slate-900 hover:text-brand-700">
          {c.name}
        </a>
      ),
      // The three columns of names break a long name anywhere (the others' words never break), down to their minimum
      // widths: with the status, description and two times beside them, they fit a 1280 px window's list.
      className: "min-w-40 max-w-xs wrap-anywhere",
    },
    {
      header: "Status",
      // A newest run that Cancel stopped after writing says so (with its time) instead of "Never run" or beside the health.
      cell: (c) =>
        c.cancelled_after && c.last_run ? (
          <span className="flex flex-col gap-1">
            {c.health !== "never_run" ? <StatusBadge status={c.health} /> : null}
            <span className="text-sm text-slate-700">
              {c.cancelled_after}, <DateTime value={c.last_run.at} timeZone={timeZone} />
            </span>
          </span>
        ) : (
          <StatusBadge status={c.health} />
        ),
      className: "whitespace-nowrap",
    },
    { header: "Description", cell: (c) => <span className="line-clamp-2 text-slate-600">{c.description}</span>, className: "max-w-xs" },
    { header: "Source", cell: (c) => c.source_name ?? "Unknown Source", className: "min-w-36 wrap-anywhere" },
    {
      header: "Destinations",
      cell: (c) =>
        c.destinations.length ? (
          <ul className="flex flex-wrap gap-1">
            {c.destinations.map((d) => (
              <li key={d.id} className="rounded-md bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
                {d.name}
              </li>
            ))}
          </ul>
        ) : (
          "Unknown Destination"
        ),
      className: "min-w-36 wrap-anywhere",
    },
    {
      header: "Last Connection",
      cell: (c) => <LastConnection connector={c} timeZone={timeZone} />,
      className: "whitespace-nowrap",
    },
    {
      header: "Next Sync",
      cell: (c) => (c.next_run_at ? <SoonTime value={c.next_run_at} timeZone={timeZone} /> : <span className="text-slate-500">{c.not_scheduled}</span>),
      className: "whitespace-nowrap",
    },
  ];
  return (
    <>
      <PageHeader title="Connectors" description="Each connector syncs one source into its destinations on a schedule." action={{ to: "/connectors/add", label: "New connector" }} />
      <RefreshLinkWithoutScript active={live} what="A sync" />
      <ListFilters find={data.find} choices={data.choices} noun="connectors" />
      {data.error ? (
        <ErrorBlock message={data.error} />
      ) : data.total === 0 ? (
        <NoMatches noun="connectors" />
      ) : (
        <DataTable
          caption="Connectors"
          columns={columns}
          rows={data.rows}
          rowHref={(c) => `/connectors/details/${c.id}`}
          footer={<Pagination page={data.page} pageSize={data.pageSize} total={data.total} noun="connectors" find={data.find} />}
        />
      )}
    </>
  );
}
