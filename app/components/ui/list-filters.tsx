import { Form, Link, useLocation } from "@remix-run/react";
import type { Choice, ListChoices, ListFind } from "@contract/list-find";
import { fieldClasses } from "./field";

/**
 * Search, filters and sort above a list: a plain GET form, so the state lives in the address (shareable, and it
 * works without JavaScript); paging keeps it (Pagination). Choosing again starts at page 1.
 */
export function ListFilters({ find, choices, noun }: { find: ListFind; choices: ListChoices; noun: string }) {
  const { pathname } = useLocation();
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
      {choices.statuses.length ? <ChoiceSelect name="status" label="Status" any="Any status" choices={choices.statuses} value={find.status} /> : null}
      <ChoiceSelect name="type" label="Type" any="Any type" choices={choices.types} value={find.type} />
      <div>
        <label htmlFor={id("sort")} className={fieldClasses.label}>
          Sort by
        </label>
        <select id={id("sort")} name="sort" defaultValue={find.sort} className={select}>
          {choices.sorts.map((sort) => (
            <option key={sort.value} value={sort.value}>
              {sort.label}
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

/** One filter: its label, "any" first, then the list's choices. */
function ChoiceSelect(props: { name: string; label: string; any: string; choices: readonly Choice[]; value: string }) {
  return (
    <div>
      <label htmlFor={`list-${props.name}`} className={fieldClasses.label}>
        {props.label}
      </label>
      <select id={`list-${props.name}`} name={props.name} defaultValue={props.value} className={`${fieldClasses.input} mt-1`}>
        <option value="">{props.any}</option>
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
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
