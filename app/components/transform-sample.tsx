import { plainWords } from "@contract/labels";
import type { PreviewSample } from "@contract/transforms";
import { RowsTable } from "./transform-results";

/**
 * The preview's sample: the template run on the connector's first records, a few rows of each result table it would
 * write (nothing is written). Column names in words; values as the results page shows them.
 */
export function TransformSample({ tables, records, timeZone = "UTC" }: { tables: PreviewSample[]; records: number; timeZone?: string }) {
  return (
    <div className="mt-6 space-y-4" data-testid="preview-sample">
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Sample of the results</h3>
        <p className="mt-1 text-sm text-slate-600">
          What the template gives on the first {records.toLocaleString("en-US")} {records === 1 ? "record" : "records"} (nothing is written until it runs).
        </p>
      </div>
      {tables.map((t) => (
        <div key={t.table} className="overflow-hidden rounded-lg border border-slate-200" data-sample-table={t.table}>
          <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2">
            <p className="text-sm font-medium text-slate-900">{plainWords(t.table)}</p>
            <p className="text-xs text-slate-600">
              {t.rows.length.toLocaleString("en-US")} of {t.total.toLocaleString("en-US")} {t.total === 1 ? "row" : "rows"} · {t.description}
            </p>
          </div>
          {t.rows.length === 0 ? (
            <p className="px-3 py-2 text-sm text-slate-600">No rows from these records.</p>
          ) : (
            <RowsTable label={`Sample rows of ${plainWords(t.table)}`} columns={t.columns} rows={t.rows} timeZone={timeZone} heading={plainWords} headClass="" cell="px-3 py-2" clampLines={2} />
          )}
        </div>
      ))}
    </div>
  );
}
