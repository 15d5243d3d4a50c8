import { Link } from "@remix-run/react";
import type { RunFailure } from "@contract/runs";
import { DateTime } from "./date-time";
import { useTimeZone } from "~/root";

/**
 * A connector's or transform's details page, when its latest finished run failed: the last error, and since when it
 * has been failing (the first failed run since its last success), each linking to its run's page; what to do next
 * (`retry` names the page's button that runs it again), and for a connector, where to be told of the next failure.
 */
export function FailureBanner({
  failing,
  noun,
  retry,
  alerts = false,
  runHref,
}: {
  failing: RunFailure | null;
  noun: string;
  retry: string;
  alerts?: boolean;
  runHref(runId: string): string;
}) {
  const timeZone = useTimeZone();
  if (!failing) return null;
  const many = failing.failures > 1;
  return (
    <section aria-labelledby="failing-heading" data-testid="failure-banner" className="mb-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
      <h2 id="failing-heading" className="font-semibold">
        {`This ${noun} is failing`}
      </h2>
      <p className="mt-1">
        {many ? `${failing.failures} runs in a row have failed, ` : "Its latest run failed, "}
        <Link to={runHref(failing.first_run_id)} className="font-medium underline">
          {many ? "the first on " : "on "}
          <DateTime value={failing.since} timeZone={timeZone} />
        </Link>
        .
      </p>
      {failing.last_error ? (
        <p className="mt-1 break-words">
          <span className="font-medium">Last error: </span>
          {failing.last_error}
        </p>
      ) : null}
      <p className="mt-2">
        {many ? (
          <>
            <Link to={runHref(failing.last_run_id)} className="font-medium underline">
              Open the latest failed run
            </Link>{" "}
            to read its log.
          </>
        ) : (
          "Open that run to read its log."
        )}{" "}
        {`Once what the error names is fixed, use ${retry} to try again.`}
      </p>
      {alerts ? (
        <p className="mt-1">
          {"To hear of the next failure by e-mail or webhook, set up "}
          <Link to="/settings/alerts" className="font-medium underline">
            alerts
          </Link>
          .
        </p>
      ) : null}
    </section>
  );
}
