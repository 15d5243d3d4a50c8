export interface ResultTable {
  table: string;
  total: number | null;
  columns: string[];
  rows: Record<string, string | number | boolean | null>[];
  error: string | null;
}

const show = (value: string | number | boolean | null | undefined) =>
  value === null || value === undefined ? "—" : typeof value === "number" ? value.toLocaleString("en-US") : String(value);

/** The first rows of each table the latest successful run wrote. */
export function TransformResults({ results }: { results: ResultTable[] }) {
  if (results.length === 0) return null;
  return (
    <section aria-labelledby="results" className="mt-8 space-y-4">
      <h2 id="results" className="text-lg font-semibold text-slate-900">
        Results
      </h2>
      {results.map((result) => (
        <div key={result.table} className="card overflow-hidden" data-result-table={result.table}>
          <div className="flex items-center justify-between gap-3 border-b border-slate-200 bg-slate-50 px-4 py-3">
            <h3 className="font-mono text-sm font-semibold text-slate-900">{result.table}</h3>
            {result.total !== null ? (
              <p className="text-xs text-slate-600">
                {Math.min(result.rows.length, result.total).toLocaleString("en-US")} of {result.total.toLocaleString("en-US")} rows
              </p>
            ) : null}
          </div>
          {result.error ? (
            <p className="px-4 py-3 text-sm text-red-800">{result.error}</p>
          ) : result.rows.length === 0 ? (
            <p className="px-4 py-3 text-sm text-slate-600">This table is empty.</p>
          ) : (
            <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`Rows of ${result.table}`}>
              <table className="min-w-full divide-y divide-slate-200 text-sm">
                <caption className="sr-only">First rows of {result.table}</caption>
                <thead className="text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
                  <tr>
                    {result.columns.map((column) => (
                      <th key={column} className="px-4 py-2 whitespace-nowrap">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {result.rows.map((row, i) => (
                    <tr key={i}>
                      {result.columns.map((column) => (
                        <td key={column} className="max-w-xs px-4 py-2 align-top break-words text-slate-700">
                          <span className="line-clamp-3" title={show(row[column])}>
                            {show(row[column])}
                          </span>
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      ))}
    </section>
  );
}
