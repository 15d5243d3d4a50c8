import type { TransformChart } from "@contract/transforms";

/**
 * The Results section's charts (issue 54): each drawn on the server as SVG (backend/transforms/charts/), so it reads the
 * same without JavaScript; the picture scales to the card, carries its title and description for screen readers, and
 * each chart offers its SVG and the CSV of the points behind it.
 */
export function TransformCharts({
  charts,
  error,
  downloadHref,
  label,
}: {
  charts: TransformChart[];
  error: string | null;
  /** Each chart's "Download SVG" and "Download CSV" (none: no downloads). */
  downloadHref?: (chart: string, format: "svg" | "csv") => string;
  /** The charts' group name, for a group of its own (the run history's). */
  label?: string;
}) {
  if (charts.length === 0 && !error) return null;
  return (
    <div
      className="space-y-4"
      data-charts
      role={label ? "group" : undefined}
      aria-label={label}
    >
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className={label ? "grid gap-4 lg:grid-cols-2" : "grid gap-4"}>
        {charts.map((chart) => (
          <figure
            key={chart.id}
            className="card overflow-hidden"
            data-chart={chart.id}
            aria-labelledby={`chart-${chart.id}`}
          >
            <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 border-b border-slate-200 bg-slate-50 px-4 py-3">
              <div className="min-w-0">
                <h3
                  id={`chart-${chart.id}`}
                  className="text-sm font-semibold text-slate-900"
                >
                  {chart.title}
                </h3>
                <p className="mt-0.5 text-xs text-slate-600">
                  {chart.description}
                </p>
              </div>
              {downloadHref ? (
                <div className="flex shrink-0 gap-x-4 text-xs">
                  <a
                    href={downloadHref(chart.id, "svg")}
                    download={`${chart.id}.svg`}
                    className="link font-medium"
                    data-download-chart={`${chart.id}.svg`}
                  >
                    Download SVG
                    <span className="sr-only"> of {chart.title}</span>
                  </a>
                  <a
                    href={downloadHref(chart.id, "csv")}
                    download={`${chart.id}.csv`}
                    className="link font-medium"
                    data-download-chart={`${chart.id}.csv`}
                  >
                    Download CSV
                    <span className="sr-only"> of {chart.title}</span>
                  </a>
                </div>
              ) : null}
            </div>
            {chart.points.length > 0 ? (
              // The backend's renderer escapes every text it draws (Vega's SVG writer, and the title and description it adds).
              <>
                {chart.note ? (
                  <p className="px-4 pt-3 text-sm font-medium text-slate-700" data-chart-note>
                    {chart.note}
                  </p>
                ) : null}
                {/* The run history's charts sit two to a row on a wide screen: each is drawn at its phone size, which fits
                    there at full size, instead of the wide drawing shrunk to two-thirds (axis words of 7 px). */}
                {label ? (
                  <div
                    className="px-2 py-3"
                    dangerouslySetInnerHTML={{ __html: chart.svgCompact }}
                  />
                ) : (
                  <>
                    <div
                      className="hidden px-3 py-3 sm:block"
                      dangerouslySetInnerHTML={{ __html: chart.svg }}
                    />
                    <div
                      className="px-2 py-3 sm:hidden"
                      dangerouslySetInnerHTML={{ __html: chart.svgCompact }}
                    />
                  </>
                )}
              </>
            ) : (
              <p className="px-4 py-6 text-sm text-slate-600">
                No rows to draw yet.
              </p>
            )}
          </figure>
        ))}
      </div>
    </div>
  );
}
