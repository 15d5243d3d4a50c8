import { redirect, type AppLoadContext } from "@remix-run/node";
import { DEFAULT_PAGE_SIZE, TOTAL_COUNT_HEADER } from "@contract/pagination";
import { backendFetch } from "./http.server";
import { vouchForPage } from "./page-cache.server";
import { sessionEnded } from "./session.server";

export interface ListPage<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
  error: string | null;
}

/**
 * One page (newest first) of the signed-in user's records of a kind, from the
 * backend's list call. A failure is returned as the spec's message, not thrown,
 * so the page shows the error block inside the shell.
 */
export async function loadListPage<T, R = T>(
  { request, context }: { request: Request; context: AppLoadContext },
  resource: string,
  failure: string,
  /** Keep only what the page shows: every field costs serialisation into the HTML. */
  pick: (row: T) => R = (row) => row as unknown as R,
): Promise<ListPage<R>> {
  const url = new URL(request.url);
  const asked = url.searchParams.get("page");
  const page = asked && /^\d{1,7}$/.test(asked) && Number(asked) >= 1 ? Number(asked) : 1;
  if (asked !== null && String(page) !== asked) throw redirect(page === 1 ? url.pathname : `${url.pathname}?page=${page}`);
  const failed: ListPage<R> = { rows: [], total: 0, page, pageSize: DEFAULT_PAGE_SIZE, error: failure };
  let response: Response;
  try {
    response = await backendFetch(request, `/${resource}/list?page=${page}&page_size=${DEFAULT_PAGE_SIZE}`);
  } catch {
    return failed;
  }
  // This call is what proves the session on a list page (the layout does not ask /validate-session for these).
  if (response.status === 401) throw await sessionEnded(request);
  if (!response.ok) {
    await response.body?.cancel();
    return failed;
  }
  const rows = (await response.json()) as T[];
  const total = Number(response.headers.get(TOTAL_COUNT_HEADER) ?? rows.length);
  const lastPage = Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE));
  if (page > lastPage) throw redirect(lastPage === 1 ? url.pathname : `${url.pathname}?page=${lastPage}`);
  vouchForPage(context, response);
  return { rows: rows.map(pick), total, page, pageSize: DEFAULT_PAGE_SIZE, error: null };
}
