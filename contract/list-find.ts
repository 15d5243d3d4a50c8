/**
 * What a list page's filter bar and paging need in the browser: the kinds of list, their orders in words, and a list's
 * address. Free of schemas and of the integrations' registry (contract/lists.ts has those), so a list page's script
 * stays small; the choices a filter offers come from the page's loader (listChoices).
 */

export type ListKind = "sources" | "destinations" | "connectors" | "transforms";

export interface Choice {
  value: string;
  label: string;
}

export const SORTS = {
  newest: "Newest first",
  oldest: "Oldest first",
  name: "Name A–Z",
  name_desc: "Name Z–A",
  last_sync: "Last sync",
} as const;
export type ListSort = keyof typeof SORTS;

export const sortLabel = (sort: ListSort, kind: ListKind): string => (sort === "last_sync" && kind === "transforms" ? "Last run" : SORTS[sort]);

/** What a list's filter bar offers, in words: its statuses, its types and its orders. */
export interface ListChoices {
  statuses: readonly Choice[];
  types: readonly Choice[];
  sorts: readonly Choice[];
}

/** The list's search, filters and sort as the address has them ("" when not set), for the filter bar and paging. */
export interface ListFind {
  q: string;
  status: string;
  type: string;
  sort: ListSort;
  /** Whether the search or a filter narrows the list (an empty list then is "nothing matches", not a first visit). */
  filtered: boolean;
}

/** A list's address for page `n`, keeping its search, filters and sort (the defaults left out). */
export function listAddress(pathname: string, find: Pick<ListFind, "q" | "status" | "type" | "sort">, n: number): string {
  const params = new URLSearchParams();
  if (find.q) params.set("q", find.q);
  if (find.status) params.set("status", find.status);
  if (find.type) params.set("type", find.type);
  if (find.sort !== "newest") params.set("sort", find.sort);
  if (n > 1) params.set("page", String(n));
  return params.size ? `${pathname}?${params}` : pathname;
}
