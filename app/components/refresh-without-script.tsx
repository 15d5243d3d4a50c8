import { useLocation } from "@remix-run/react";
import { useNoScriptRefreshSeconds } from "~/root";

/**
 * Without JavaScript, a run's page (nothing to type into) refreshes itself every few seconds (NO_SCRIPT_REFRESH_SECONDS)
 * while the run is in progress. It names its address without the fragment: a refresh to an address with one
 * (`#schema`, where a Schema switch comes back to) is a move within the page, which loads nothing.
 */
export function RefreshWithoutScript({ active }: { active: boolean }) {
  const seconds = useNoScriptRefreshSeconds();
  const location = useLocation();
  return active ? (
    <noscript>
      <meta httpEquiv="refresh" content={`${seconds}; url=${location.pathname}${location.search}`} />
    </noscript>
  ) : null;
}

/**
 * Without JavaScript, a list with a run in progress offers a link that reloads it instead of reloading itself: a
 * page that refreshes every few seconds would throw away what the user is typing into its search form, and cancel a
 * click on the way to another page.
 */
export function RefreshLinkWithoutScript({ active, what }: { active: boolean; what: string }) {
  const location = useLocation();
  return active ? (
    <noscript>
      <p className="mb-4 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900" data-refresh-link>
        {what} is in progress.{" "}
        <a href={location.pathname + location.search} className="link">
          Refresh
        </a>{" "}
        to see how it ends.
      </p>
    </noscript>
  ) : null;
}
