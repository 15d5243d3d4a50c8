import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { ACTIVITY_FILTER_TYPES, ACTIVITY_MESSAGES as M, type ActivityEntry, type ActivityPage as ActivityAnswer } from "@contract/activity";
import { activityActionLabel, activityRecordTypeLabel } from "@contract/labels";
import { DateTime } from "~/components/date-time";
import { TableHead } from "~/components/table-head";
import { ErrorBlock } from "~/components/ui/error-block";
import { loadActivity } from "~/services/activity.server";
import { requireUser } from "~/services/session.server";
import { useTimeZone } from "~/root";

export const meta: MetaFunction = () => [{ title: "Activity · Tributary" }];

/**
 * Who did what in the workspace (issue 51 item 4): every change and every sync, backfill, cancel or run started by hand,
 * newest first, 50 a page, filtered by who (a member or an API key) and by the kind of record. The filters are a plain
 * GET form, so the page works the same without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const query = new URL(request.url).searchParams;
  const filters = { actor: query.get("actor") ?? "", type: query.get("type") ?? "", before: query.get("before") ?? "" };
  const outcome = await loadActivity(request, filters);
  if (outcome.ok) return data({ page: outcome.data as ActivityAnswer | null, filters, error: null as string | null });
  return data({ page: null, filters, error: outcome.status === 400 ? outcome.message : M.fetchFailed }, { status: outcome.status === 400 ? 400 : 502 });
}

/** Where a record of the entry can be seen, when it is one that has a page (and was not deleted). */
function recordHref(entry: ActivityEntry): string | null {
  const { type, id } = entry.record;
  if (entry.action === "deleted") return null;
  if (type === "alert_settings") return "/settings/alerts";
  if (type === "api_key") return "/settings/api-keys";
  if (!id || !["source", "destination", "connector", "transform"].includes(type)) return null;
  return `/${type}s/details/${encodeURIComponent(id)}`;
}

function RecordCell({ entry }: { entry: ActivityEntry }) {
  const href = recordHref(entry);
  const name = entry.record.name;
  return (
    <>
      <span className="text-slate-600">{activityRecordTypeLabel(entry.record.type)}</span>
      {name ? (
        <>
          {" "}
          {href ? (
            <Link to={href} className="link font-medium">
              {name}
            </Link>
          ) : (
            <span className="font-medium text-slate-900">{name}</span>
          )}
        </>
      ) : null}
    </>
  );
}

/** The page's address with these filters (empty ones left out) and, for an older page, the entry to page past. */
function pageHref(filters: { actor: string; type: string }, before?: string): string {
  const query = new URLSearchParams();
  if (filters.actor) query.set("actor", filters.actor);
  if (filters.type) query.set("type", filters.type);
  if (before) query.set("before", before);
  const text = query.toString();
  return text ? `/activity?${text}` : "/activity";
}

export default function ActivityPage() {
  const { page, filters, error } = useLoaderData<typeof loader>();
  const timeZone = useTimeZone();
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname === "/activity";
  const filtered = !!(filters.actor || filters.type);
  const actors = page?.actors ?? [];
  return (
    <div className="mx-auto max-w-5xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Activity</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">
        Who changed what in this workspace, and who started each sync, backfill or run by hand, newest first. Entries are kept as long as run history.
      </p>
      <Form method="get" action="/activity" className="card mb-6 flex flex-col gap-4 p-4 sm:flex-row sm:items-end" aria-label="Filter the activity">
        <div className="flex-1">
          <label htmlFor="activity-actor" className="block text-sm font-medium text-slate-800">
            Who
          </label>
          <select id="activity-actor" name="actor" defaultValue={filters.actor} className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm">
            <option value="">Every member and API key</option>
            {actors.map((a) => (
              <option key={a.value} value={a.value}>
                {a.kind === "key" ? `${a.name} (API key)` : a.name}
              </option>
            ))}
            {filters.actor && !actors.some((a) => a.value === filters.actor) ? <option value={filters.actor}>Someone no longer in the log</option> : null}
          </select>
        </div>
        <div className="flex-1">
          <label htmlFor="activity-type" className="block text-sm font-medium text-slate-800">
            Record type
          </label>
          <select id="activity-type" name="type" defaultValue={filters.type} className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm">
            <option value="">Every record type</option>
            {ACTIVITY_FILTER_TYPES.map((type) => (
              <option key={type} value={type}>
                {activityRecordTypeLabel(type)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-center gap-3">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Filtering..." : "Filter"}
          </button>
          {filtered ? (
            <Link to="/activity" className="link text-sm font-medium">
              Clear filters
            </Link>
          ) : null}
        </div>
      </Form>
      {error ? <ErrorBlock message={error} /> : null}
      {page && page.entries.length === 0 ? <p className="text-sm text-slate-600">{filtered || filters.before ? M.emptyFiltered : M.empty}</p> : null}
      {page && page.entries.length ? (
        <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label="Activity">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="activity">
            <caption className="sr-only">Activity in this workspace, newest first</caption>
            <TableHead cell="px-4 py-3" labels={["When", "Who", "What", "Record"]} />
            <tbody className="divide-y divide-slate-100">
              {page.entries.map((entry) => (
                <tr key={entry.id} data-action={entry.action} data-record-type={entry.record.type}>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-600">
                    <DateTime value={entry.at} timeZone={timeZone} />
                  </td>
                  <td className="px-4 py-3">
                    <span className="font-medium text-slate-900">{entry.actor.name}</span>
                    {entry.actor.kind === "key" ? (
                      <>
                        {" "}
                        <span className="ml-1 rounded-md bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">API key</span>
                      </>
                    ) : null}
                  </td>
                  <td className="px-4 py-3">{activityActionLabel(entry.action)}</td>
                  <td className="px-4 py-3 break-words">
                    <RecordCell entry={entry} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {page && (filters.before || page.next_before) ? (
        <nav aria-label="Activity pages" className="mt-3 flex items-center justify-between gap-4 text-sm">
          {filters.before ? (
            <Link to={pageHref(filters)} className="link font-medium">
              Newest
            </Link>
          ) : (
            <span />
          )}
          {page.next_before ? (
            <Link to={pageHref(filters, page.next_before)} className="link font-medium">
              Show older
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
