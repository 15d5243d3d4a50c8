import { Form, Link, useLocation } from "@remix-run/react";
import { LIST_FILTERS, sortLabel, type ListFind, type ListKind } from "@contract/lists";
import { fieldClasses } from "./field";

/**
 * Search, filters and sort above a list: a plain GET form, so the state lives in the address (shareable, and it
 * works without JavaScript); paging keeps it (Pagination). Choosing again starts at page 1.
 */
export function ListFilters({ kind, find, noun }: { kind: ListKind; find: ListFind; noun: string }) {
  const { pathname } = useLocation();
  const choices = LIST_FILTERS[kind];
  const id = (name: string) => `list-${name}`;
  const select = `${fieldClasses.input} mt-1`;
  return (
    <Form method="get" role="search" aria-label={`Find ${noun}`} className="card mb-4 grid grid-cols-2 items-end gap-3 p-4 sm:flex sm:flex-wrap">
      <div className="col-span-2 min-w-0 sm:flex-1">
        <label htmlFor={id("q")} className={fieldClasses.label}>
          Search by name
        </label>
        <input id={id("q")} name="q" type="search" defaultValue={find.q} maxLength={200} autoComplete="off" className={select} placeholder={`Part of a ${noun.replace(/s$/, "")}'s name`} />
      </div>
      {choices.statuses.length ? (
        <div>
          <label htmlFor={id("status")} className={fieldClasses.label}>
            Status
          </label>
          <select id={id("status")} name="status" defaultValue={find.status} className={select}>
            <option value="">Any status</option>
            {choices.statuses.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div>
        <label htmlFor={id("type")} className={fieldClasses.label}>
          Type
        </label>
        <select id={id("type")} name="type" defaultValue={find.type} className={select}>
          <option value="">Any type</option>
          {choices.types.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={id("sort")} className={fieldClasses.label}>
          Sort by
        </label>
        <select id={id("sort")} name="sort" defaultValue={find.sort} className={select}>
          {choices.sorts.map((sort) => (
            <option key={sort} value={sort}>
              {sortLabel(sort, kind)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-center gap-3 sm:h-[38px]">
        <button type="submit" className="btn-primary">
          Apply
        </button>
        {find.filtered || find.sort !== "newest" ? (
          <Link to={pathname} className="text-sm font-medium text-slate-600 hover:text-slate-900">
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** A search or filter that matches nothing: say so, and offer the whole list. */
export function NoMatches({ noun }: { noun: string }) {
  const { pathname } = useLocation();
  return (
    <div className="card px-6 py-12 text-center">
      <h2 className="text-lg font-semibold text-slate-900">No {noun} match</h2>
      <p className="mt-1 text-sm text-slate-600">Try another search or filter.</p>
      <Link to={pathname} className="btn-secondary mt-6 inline-flex">
        Show all {noun}
      </Link>
    </div>
  );
}
