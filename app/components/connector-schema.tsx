import { Form, Link, useSearchParams } from "@remix-run/react";
import type { ConnectorStream } from "@contract/connectors";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { DateTime } from "~/components/date-time";
import { useTimeZone } from "~/root";
import { columnTypeLabel } from "@contract/labels";
import { StatusBadge } from "~/components/ui/status-badge";
import { useSubmittingIntent } from "~/components/record-actions";

/**
 * Issue 37, a connector's Schema section: each stream its source declares (its key, the time it is read by, its
 * columns), where it lands at each destination, and a button that stops syncing it or syncs it again (a form: it works
 * without JavaScript). Issue 52: how far each stream is synced, in the reader's time zone, and Re-sync, whose
 * confirmation is a link (`?resync=<stream>`) so that it works without JavaScript too. `error` is a refused switch's or
 * Re-sync's sentence, shown at its stream (and in the confirmation).
 */
export function ConnectorSchema({ connectorId, lookbackDays, streams, error }: { connectorId: string; lookbackDays: number; streams: ConnectorStream[]; error: { stream: string; message: string } | null }) {
  const submitting = useSubmittingIntent();
  const busy = submitting === "stream" || submitting === "resync";
  const timeZone = useTimeZone();
  const [params] = useSearchParams();
  if (streams.length === 0) return null;
  const confirming = streams.find((s) => s.name === params.get("resync") && s.enabled) ?? null;
  // A refusal naming no stream of the list (a forged or stale form) is said above them all.
  const orphan = error && !streams.some((s) => s.name === error.stream) ? error.message : null;
  return (
    <section id="schema" aria-labelledby="schema-heading" className="mt-8">
      <h2 id="schema-heading" className="mb-1 text-lg font-semibold text-slate-900">
        Schema
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        What each sync moves, stream by stream. Each sync reads what is new since the last one; a stream you re-sync, or stop and turn back on, gets its whole lookback window again.
      </p>
      {orphan ? (
        <p role="alert" className="mb-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {orphan}
        </p>
      ) : null}
      <ul className="space-y-4">
        {streams.map((stream) => (
          <li key={stream.name} className="card p-5" aria-labelledby={`stream-${stream.name}`} data-stream={stream.name}>
            <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
              <div className="min-w-0">
                <h3 id={`stream-${stream.name}`} className="flex flex-wrap items-center gap-2 text-base font-semibold text-slate-900">
                  {stream.label}
                  <StatusBadge status={stream.enabled ? "syncing" : "not_synced"} />
                </h3>
                <p className="mt-1 text-sm text-slate-600">
                  Key <code className="font-mono text-slate-800">{stream.primary_key.join(", ")}</code> · read by <code className="font-mono text-slate-800">{stream.cursor_field}</code>
                </p>
                {stream.enabled ? (
                <p className="mt-1 text-sm text-slate-700">
                  {stream.synced_to ? (
                    <>
                      Synced up to <DateTime value={stream.synced_to} timeZone={timeZone} />
                    </>
                  ) : (
                    "Not synced yet: the next sync reads its whole lookback window."
                  )}
                </p>
                ) : null}
              </div>
              <div className="flex shrink-0 flex-wrap gap-2">
                {stream.enabled ? (
                  <Link to={`?resync=${encodeURIComponent(stream.name)}`} preventScrollReset className="btn-secondary" aria-label={`Re-sync: ${stream.label}`}>
                    Re-sync
                  </Link>
                ) : null}
                <Form method="post" preventScrollReset>
                  <input type="hidden" name="intent" value="stream" />
                  <input type="hidden" name="stream" value={stream.name} />
                  <input type="hidden" name="enabled" value={stream.enabled ? "false" : "true"} />
                  <button type="submit" className="btn-secondary" disabled={busy} aria-label={`${stream.enabled ? "Stop syncing" : "Sync again"}: ${stream.label}`}>
                    {stream.enabled ? "Stop syncing" : "Sync again"}
                  </button>
                </Form>
              </div>
            </div>
            {error?.stream === stream.name && !confirming ? (
              <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
                {error.message}
              </p>
            ) : null}
            {/* Paths as they are on disk or in the warehouse (a folder's name is the platform's): to look the data up. */}
            <ul className="mt-3 space-y-1 text-sm">
              {stream.lands.map((l) => (
                <li key={l.destination} className="break-words text-slate-900">
                  <span className="font-medium text-slate-700">Lands at {l.destination}:</span> {l.location}
                </li>
              ))}
            </ul>
            <details className="mt-3">
              <summary className="cursor-pointer text-sm font-medium text-blue-700">{stream.columns.length} columns</summary>
              <div className="mt-2 overflow-x-auto">
                <table className="min-w-full text-left text-sm">
                  <caption className="sr-only">Columns of {stream.label}</caption>
                  <thead className="text-slate-600">
                    <tr>
                      <th scope="col" className="py-2 pr-4 font-medium">Column</th>
                      <th scope="col" className="py-2 pr-4 font-medium">Type</th>
                      <th scope="col" className="py-2 font-medium">What it holds</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {stream.columns.map((c) => (
                      <tr key={c.name}>
                        <td className="py-2 pr-4 font-mono whitespace-nowrap text-slate-900">{c.name}</td>
                        <td className="py-2 pr-4 text-slate-700">{columnTypeLabel(c.type)}</td>
                        <td className="py-2 text-slate-700">{c.description}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </li>
        ))}
      </ul>
      {confirming ? (
        <ConfirmDialog
          title={`Re-sync ${confirming.label}?`}
          body={
            <>
              The next sync reads the whole lookback window of <strong className="font-semibold text-slate-900">{confirming.label}</strong> again ({lookbackDays === 1 ? "1 day" : `${lookbackDays} days`}) and writes it to every destination, replacing its rows by key: nothing is doubled. A sync is queued now, unless the connector is paused or a sync is running.
            </>
          }
          confirmLabel="Re-sync"
          busyLabel="Re-syncing..."
          cancelTo={`/connectors/details/${connectorId}#schema`}
          hidden={{ intent: "resync", stream: confirming.name }}
          error={error?.stream === confirming.name ? error.message : null}
        />
      ) : null}
    </section>
  );
}
