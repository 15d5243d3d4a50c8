export interface ResultTable {
  table: string;
  total: number | null;
  columns: string[];
  rows: Record<string, string | number | boolean | null>[];
  error: string | null;
}

type Cell = string | number | boolean | null | undefined;

const scalar = (value: Cell) => (value === null || value === undefined ? "—" : typeof value === "number" ? value.toLocaleString("en-US") : String(value));

/** One item of a listed value: a plain value, or a flat record ({ word, weight } reads "roadmap (0.215)"). */
function itemText(item: unknown): string | null {
  if (item === null || typeof item !== "object") return scalar(item as Cell);
  if (Array.isArray(item)) return null;
  const values = Object.values(item as Record<string, unknown>);
  if (values.some((v) => v !== null && typeof v === "object")) return null;
  const texts = values.filter((v): v is string => typeof v === "string");
  const rest = values.filter((v) => typeof v !== "string").map((v) => scalar(v as Cell));
  if (texts.length === 1 && rest.length > 0) return `${texts[0]} (${rest.join(", ")})`;
  return Object.entries(item as Record<string, Cell>)
    .map(([key, v]) => `${key}: ${scalar(v)}`)
    .join("; ");
}

/** A list (a JSON column such as a topic's top words), as the array or its JSON text, in words; else null. */
function listText(value: unknown): string | null {
  let list = value;
  if (typeof value === "string" && value.startsWith("[") && value.endsWith("]")) {
    try {
      list = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(list)) return null;
  const items = list.map(itemText);
  return items.every((item) => item !== null) ? items.join(", ") : null;
}

/** A result cell as words: numbers with separators, a list as "a, b, c" (never its JSON). */
const show = (value: Cell | Cell[]) => listText(value) ?? scalar(value as Cell);

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
