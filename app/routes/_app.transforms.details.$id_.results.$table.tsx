import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { resultColumnLabel } from "@contract/labels";
import { TRANSFORM_MESSAGES as M } from "@contract/transforms";
import { RowsTable, showResult, shownColumns } from "~/components/transform-results";
import { BackLink } from "~/components/ui/back-link";
import { ErrorBlock } from "~/components/ui/error-block";
import { Pagination } from "~/components/ui/pagination";
import { isRecordId, pageData } from "~/services/records.server";
import { requireUser } from "~/services/session.server";
import { loadResults, loadTransform, type ResultRows } from "~/services/transforms.server";
import { useTimeZone } from "~/root";

/**
 * One result table of a transform, every row of its latest successful run a page at a time (issue 54: "paging through
 * every row"): ?page=N of PAGE_ROWS rows, in the table's key order, so that paging neither repeats nor misses a row;
 * Previous and Next are plain links. The same words as the details page's Results: headings and values as a person
 * reads them, the technical columns left to the CSV.
 */

const PAGE_ROWS = 50;
const number = new Intl.NumberFormat("en-US");

/**
 * The columns in reading order: the identifier columns (…_id) after the others. On a page of its own the table is wider
 * than the screen and scrolls sideways; a person reads the owner, the time and the words first, and looks a row up by
 * its ids at the end.
 */
const IDENTIFIER = /(^|_)id$/;
const readingOrder = (columns: string[]) => [...columns.filter((c) => !IDENTIFIER.test(c)), ...columns.filter((c) => IDENTIFIER.test(c))];

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const label = data?.results?.label ?? "Result table";
  return [{ title: `${label}${data && data.page > 1 ? ` (page ${data.page})` : ""} · ${data?.transform?.name ?? "Transform"} · Tributary` }];
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  const table = params.table ?? "";
  const url = new URL(request.url);
  const asked = url.searchParams.get("page");
  const page = asked && /^\d{1,7}$/.test(asked) && Number(asked) >= 1 ? Number(asked) : 1;
  // An address the page's own links never make (?page=0, ?page=007, ?page=two) goes to the page it can mean.
  if (asked !== null && String(page) !== asked) throw redirect(page > 1 ? `${url.pathname}?page=${page}` : url.pathname);
  const shape = {
    id,
    table,
    page,
    transform: null as { id: string; name: string } | null,
    results: null as ResultRows | null,
    /** The page's own failure (no such transform or table); `resultsError`: the rows' alone, shown where they would be. */
    error: null as string | null,
    resultsError: null as string | null,
  };
  if (!isRecordId(id)) return pageData({ ...shape, error: M.notFound }, true);
  const [transform, rows] = await Promise.all([loadTransform(request, id), loadResults(request, id, table, PAGE_ROWS, (page - 1) * PAGE_ROWS)]);
  if (!transform.ok) return pageData({ ...shape, error: transform.status === 404 ? M.notFound : M.loadFailed }, transform.status === 404);
  const named = { ...shape, transform: { id: transform.data.id, name: transform.data.name } };
  // The backend refuses a table that is not one of the transform's (400): for this page, no such page.
  if (!rows.ok && (rows.status === 400 || rows.status === 404)) return pageData({ ...named, error: M.unknownResultTable }, true);
  if (!rows.ok) return pageData({ ...named, resultsError: rows.message }, false);
  return pageData({ ...named, results: rows.data }, false);
}

/** A page number past the table's end: says so, and links to its last page. */
function PastTheEnd({ page, total, label }: { page: number; total: number; label: string }) {
  const last = Math.max(1, Math.ceil(total / PAGE_ROWS));
  return (
    <div className="px-4 py-6 text-sm text-slate-700" data-testid="past-the-end">
      <p>
        There is no page {number.format(page)}: {label} has {number.format(total)} {total === 1 ? "row" : "rows"}, on {number.format(last)} {last === 1 ? "page" : "pages"}.
      </p>
      <p className="mt-3">
        <Link to={`?page=${last}`} className="btn-secondary">
          Go to the last page
        </Link>
      </p>
    </div>
  );
}

export default function ResultTablePage() {
  const { id, table, page, transform, results, resultsError, error } = useLoaderData<typeof loader>();
  const timeZone = useTimeZone();
  const base = `/transforms/details/${id}`;
  if (!transform || error) {
    return (
      <div className="mx-auto max-w-7xl">
        {transform ? <BackLink to={base}>{transform.name}</BackLink> : <BackLink to="/transforms">Transforms</BackLink>}
        <ErrorBlock message={error ?? M.loadFailed} />
      </div>
    );
  }
  const label = results?.label ?? table;
  const first = (page - 1) * PAGE_ROWS + 1;
  const last = first + (results?.rows.length ?? 0) - 1;
  return (
    <div className="mx-auto max-w-7xl">
      <BackLink to={base}>{transform.name}</BackLink>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{label}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {results && results.total > 0
              ? `${number.format(results.total)} ${results.total === 1 ? "row" : "rows"} from the latest successful run of ${transform.name}, ${PAGE_ROWS} a page.`
              : `Results of ${transform.name}.`}
          </p>
          <p className="mt-1 truncate font-mono text-xs text-slate-500" data-table-name>
            {table}
          </p>
        </div>
        {results && results.total > 0 ? (
          <a href={`${base}/results/${encodeURIComponent(table)}/download`} download={`${table}.csv`} className="btn-secondary">
            Download CSV<span className="sr-only"> of {label}</span>
          </a>
        ) : null}
      </div>
      <div className="card overflow-hidden" data-result-table={table}>
        {resultsError ? (
          <p role="alert" className="px-4 py-6 text-sm text-red-800">
            {resultsError}
          </p>
        ) : !results || results.total === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">This table is empty.</p>
        ) : results.rows.length === 0 ? (
          <PastTheEnd page={page} total={results.total} label={label} />
        ) : (
          <>
            <RowsTable
              label={`Rows of ${label}`}
              caption={`Rows ${number.format(first)} to ${number.format(last)} of ${label} (${table})`}
              columns={readingOrder(shownColumns(results.columns))}
              rows={results.rows}
              timeZone={timeZone}
              heading={resultColumnLabel}
              headClass=""
              format={showResult}
              layout="wide"
              clampLines={2}
              firstRow={first}
            />
            <Pagination page={page} pageSize={PAGE_ROWS} total={results.total} noun="rows" />
          </>
        )}
      </div>
    </div>
  );
}
