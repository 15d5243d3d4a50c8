import type { DestinationSetup, SetupProps } from "./types";

/** The local folder has no settings: it says where data lands instead. */
function LocalSetup({ manifest }: SetupProps) {
  return (
    <section className="card space-y-2 p-6" aria-labelledby="local-heading">
      <h2 id="local-heading" className="text-base font-semibold text-slate-900">
        {manifest.label}
      </h2>
      <p className="text-sm text-slate-600">
        Files land in a folder of this server's data directory, laid out as in a bucket, and rows in an embedded DuckDB warehouse next to them that
        transforms can query. No account or test is needed.
      </p>
    </section>
  );
}

function LocalNoGrants() {
  return (
    <div className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900" data-testid="no-grants">
      This connector writes to a local folder on this server, which transforms can read directly. Nothing has to be granted: continue to the next step.
    </div>
  );
}

export const localSetup: DestinationSetup = { Component: LocalSetup, NoGrants: LocalNoGrants };
