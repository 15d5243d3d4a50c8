import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { DEFAULT_PAGE_SIZE, TOTAL_COUNT_HEADER } from "@contract/pagination";
import { isFiltered, listAddress, listChoices, listQuerySchema, type ListChoices, type ListFind, type ListKind } from "@contract/lists";
import type { BackendAnswer, BackendRoute } from "@contract/responses";
import { callBackendWithHeaders } from "./backend.server";
import { vouchForPage } from "./page-cache.server";

export interface ListPage<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
  error: string | null;
  find: ListFind;
  /** What the filter bar offers, in words (the page's script never loads the registry they come from). */
  choices: ListChoices;
  /** 400 when the address's search or filters are not ones the page could have sent (`error` says why). */
  status: 200 | 400;
}

/** Each list's backend call (contract/responses.ts): the rows of a page, the total in X-Total-Count. */
const LIST_ROUTES = {
  sources: "GET /sources/list",
  destinations: "GET /destinations/list",
  connectors: "GET /connectors/list",
  transforms: "GET /transforms/list",
} as const satisfies Record<ListKind, BackendRoute>;
type ListRow<Kind extends ListKind> = BackendAnswer<(typeof LIST_ROUTES)[Kind]>[number];

/** A list page as the loader's answer, with its HTTP status. */
export const listData = <P extends { status: number }>(page: P) => data(page, { status: page.status });

/**
 * One page of the signed-in user's records of a kind, from the backend's list call, narrowed and ordered by the
 * address's ?q=&status=&type=&sort=. A failure is returned as the spec's message, not thrown, so the page shows
 * the error block inside the shell (and the filter bar, with what was typed).
 */
export async function loadListPage<Kind extends ListKind, R = ListRow<Kind>>(
  { request, context }: { request: Request; context: AppLoadContext },
  resource: Kind,
  failure: string,
  /** Keep only what the page shows: every field costs serialisation into the HTML. */
  pick: (row: ListRow<Kind>) => R = (row) => row as unknown as R,
): Promise<ListPage<R>> {
  const url = new URL(request.url);
  const asked = url.searchParams.get("page");
  const page = asked && /^\d{1,7}$/.test(asked) && Number(asked) >= 1 ? Number(asked) : 1;
  // The search, filters and sort: the same words and rules as the backend's list call (contract/lists.ts).
  const words = Object.fromEntries(["q", "status", "type", "sort"].map((key) => [key, url.searchParams.get(key) ?? ""]));
  const parsed = listQuerySchema(resource).omit({ page: true, page_size: true }).safeParse(words);
  const find: ListFind = parsed.success
    ? { q: parsed.data.q ?? "", status: parsed.data.status ?? "", type: parsed.data.type ?? "", sort: parsed.data.sort, filtered: isFiltered(parsed.data) }
    : { q: words.q!, status: "", type: "", sort: "newest", filtered: true };
  const at = (n: number) => listAddress(url.pathname, find, n);
  if (asked !== null && String(page) !== asked) throw redirect(at(page));
  // The filter form sends every field: an empty one, or the default order, is left out of the address.
  const unset = ["q", "status", "type", "sort"].filter((key) => url.searchParams.has(key) && (url.searchParams.get(key)!.trim() === "" || (key === "sort" && words.sort === "newest")));
  if (parsed.success && unset.length) {
    const kept = new URLSearchParams(url.searchParams);
    for (const key of unset) kept.delete(key);
    throw redirect(kept.size ? `${url.pathname}?${kept}` : url.pathname);
  }
  const choices = listChoices(resource);
  const failed: ListPage<R> = { rows: [], total: 0, page, pageSize: DEFAULT_PAGE_SIZE, error: failure, find, choices, status: 200 };
  // A search or filter the page itself could not have sent: its sentence where the list would be, with a 400.
  if (!parsed.success) return { ...failed, error: parsed.error.issues[0]!.message, status: 400 };
  const query = new URLSearchParams(at(page).split("?")[1] ?? "");
  query.set("page", String(page));
  query.set("page_size", String(DEFAULT_PAGE_SIZE));
  // This call is what proves the session on a list page (the layout does not ask /validate-session for these): a 401
  // is the redirect to sign in (thrown).
  const route: (typeof LIST_ROUTES)[ListKind] = LIST_ROUTES[resource];
  const outcome = await callBackendWithHeaders(request, route, { query }, failure);
  if (!outcome.ok) return failed;
  const rows = outcome.data as ListRow<Kind>[];
  const total = Number(outcome.headers.get(TOTAL_COUNT_HEADER) ?? rows.length);
  const lastPage = Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE));
  if (page > lastPage) throw redirect(at(lastPage));
  vouchForPage(context, outcome.headers);
  return { rows: rows.map(pick), total, page, pageSize: DEFAULT_PAGE_SIZE, error: null, find, choices, status: 200 };
}
