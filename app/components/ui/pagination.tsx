import { Link, useLocation } from "@remix-run/react";
import { listAddress, type ListFind } from "@contract/list-find";

const number = new Intl.NumberFormat("en-US");

/** Plain ?page= links, so paging works without JavaScript and pages can be bookmarked; they keep the list's search, filters and sort. */
export function Pagination({ page, pageSize, total, noun, find }: { page: number; pageSize: number; total: number; noun: string; find?: ListFind }) {
  const { pathname } = useLocation();
  const to = (n: number) => (find ? listAddress(pathname, find, n) : `?page=${n}`);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav aria-label="Pagination" className="flex flex-col items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-600 sm:flex-row">
      <p>
        Showing <span className="font-medium text-slate-900">{number.format(first)}</span>–
        <span className="font-medium text-slate-900">{number.format(last)}</span> of{" "}
        <span className="font-medium text-slate-900">{number.format(total)}</span> {noun}
      </p>
      {pages > 1 ? (
        <div className="flex items-center gap-2">
          {page > 1 ? (
            <Link to={to(page - 1)} className="btn-secondary px-3 py-1.5" rel="prev">
              Previous
            </Link>
          ) : (
            <span className="btn-secondary pointer-events-none px-3 py-1.5 opacity-50" aria-disabled="true">
              Previous
            </span>
          )}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages ? (
            <Link to={to(page + 1)} className="btn-secondary px-3 py-1.5" rel="next">
              Next
            </Link>
          ) : (
            <span className="btn-secondary pointer-events-none px-3 py-1.5 opacity-50" aria-disabled="true">
              Next
            </span>
          )}
        </div>
      ) : null}
    </nav>
  );
}
