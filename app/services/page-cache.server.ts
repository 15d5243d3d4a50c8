import type { AppLoadContext } from "@remix-run/server-runtime";
import { DATA_VERSION_HEADER } from "@contract/auth";

/**
 * Set by the web server's page cache (scripts/page-cache.ts) on the list pages: the data version a loader read its
 * data under. A page is kept only when its loader filled it in, after reading everything it shows.
 */
export interface PageCacheSlot {
  version: string | null;
}

declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    pageCache?: PageCacheSlot;
  }
}

/**
 * Lets the page cache keep this page: its data came with `headers`, whose data version the backend read before the
 * data (DATA_VERSION_HEADER). Call it only when the page renders that data as it is (not an error block).
 */
export function vouchForPage(context: AppLoadContext, headers: Headers): void {
  if (context.pageCache) context.pageCache.version = headers.get(DATA_VERSION_HEADER);
}

/** Keeps this page out of the page cache: part of it shows a failed call, not the data. */
export function withholdPage(context: AppLoadContext): void {
  if (context.pageCache) context.pageCache.version = null;
}
