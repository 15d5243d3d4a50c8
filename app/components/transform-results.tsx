export interface ResultTable {
  table: string;
  /** What the page calls it ("Topics"); the table's name is shown beneath, as the warehouse knows it. */
  label: string;
  total: number | null;
  columns: string[];
  rows: Record<string, string | number | boolean | null>[];
  error: string | null;
}

import type { ReactNode } from "react";
import { Link } from "@remix-run/react";
import prettyMilliseconds from "pretty-ms";
import { resultColumnLabel, riskLevelLabel, speakerSideLabel, TECHNICAL_RESULT_COLUMNS } from "@contract/labels";
import { formatDateTime } from "./date-time";

type Cell = string | number | boolean | null | undefined;

/** A timestamp as warehouses answer it: "2025-01-05T15:04:05Z", "2025-01-05 15:04:05.123+00", … */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

/** A value as words: numbers with separators and at most three decimals, timestamps in the reader's zone, "—" for none. */
const scalar = (value: Cell, timeZone = "UTC") =>
  value === null || value === undefined
    ? "—"
    : typeof value === "number"
      ? value.toLocaleString("en-US", { maximumFractionDigits: 3 })
      : typeof value === "string" && TIMESTAMP.test(value)
        ? formatDateTime(value.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00"), timeZone) || value
        : String(value);

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
const show = (value: Cell | Cell[], timeZone: string) => listText(value) ?? scalar(value as Cell, timeZone);

const PERCENT = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
const SIGNED = new Intl.NumberFormat("en-US", { signDisplay: "exceptZero", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const SENTIMENT = /(^|_)sentiment(_trend)?$/;

/**
 * A result cell as a person reads it, by what its column holds: a share or a ratio as a percent, milliseconds and
 * minutes as a duration, a sentiment signed with two decimals, a risk level and a speaker side in words; anything else as `show` says.
 */
export function showResult(column: string, value: Cell | Cell[], timeZone: string): string {
  const n = typeof value === "number" ? value : null;
  if (n !== null && /(_share|_ratio)$/.test(column)) return PERCENT.format(n);
  if (n !== null && /_ms$/.test(column)) return prettyMilliseconds(Math.round(n), { secondsDecimalDigits: 0, unitCount: 2 });
  if (n !== null && /(^|_)(reply_)?minutes(_us|_them)?$/.test(column)) return prettyMilliseconds(Math.round(n * 60_000), { unitCount: 2 });
  if (n !== null && SENTIMENT.test(column)) return SIGNED.format(n);
  if (column === "risk_level" && typeof value === "string") return riskLevelLabel(value);
  if (column === "speaker_side" && typeof value === "string") return speakerSideLabel(value);
  return show(value, timeZone);
}

/** The columns a results page shows: every one but the technical ones (run id, computed at), which the CSV keeps. */
export const shownColumns = (columns: string[]) => columns.filter((column) => !TECHNICAL_RESULT_COLUMNS.includes(column));

/** In the "wide" layout, a value this long or shorter stays on one line (a date, an id, a name). */
const ONE_LINE = 32;

/**
 * Rows of a result table under its columns (`heading` names them), each cell in words, a long one cut to
 * `clampLines` lines with the whole in its title; the table scrolls sideways inside its region on a narrow screen.
 * The "fit" layout wraps every cell to fit the width it has; "wide" (a page of its own) keeps short values on one line
 * and long ones at a reading width, scrolling sideways instead. `firstRow` numbers the rows from it (a page of a longer
 * table).
 */
export function RowsTable({
  label,
  caption,
  columns,
  rows,
  timeZone,
  heading = (column) => column,
  format = (_column, value, zone) => show(value, zone),
  headClass = "tracking-wide uppercase",
  cell = "px-4 py-2",
  clampLines = 3,
  layout = "fit",
  firstRow,
}: {
  label: string;
  caption?: string;
  columns: string[];
  rows: Record<string, Cell | Cell[]>[];
  timeZone: string;
  heading?: (column: string) => string;
  /** A cell in words (default: `show`). */
  format?: (column: string, value: Cell | Cell[], timeZone: string) => string;
  headClass?: string;
  cell?: string;
  clampLines?: 2 | 3;
  layout?: "fit" | "wide";
  firstRow?: number;
}) {
  const width = (text: string) => (layout === "fit" ? "max-w-xs" : text.length <= ONE_LINE ? "whitespace-nowrap" : "min-w-64 max-w-sm");
  return (
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={label}>
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className={`text-left text-xs font-semibold text-slate-600 ${headClass}`}>
          <tr>
            {firstRow !== undefined ? (
              <th scope="col" className={`${cell} text-right whitespace-nowrap`}>
                <span aria-hidden="true">#</span>
                <span className="sr-only">Row</span>
              </th>
            ) : null}
            {columns.map((column) => (
              <th key={column} scope="col" className={`${cell} whitespace-nowrap`}>
                {heading(column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row, i) => (
            <tr key={i}>
              {firstRow !== undefined ? <td className={`${cell} text-right align-top whitespace-nowrap text-slate-500 tabular-nums`}>{(firstRow + i).toLocaleString("en-US")}</td> : null}
              {columns.map((column) => {
                const text = format(column, row[column] as Cell, timeZone);
                return (
                  <td key={column} className={`${width(text)} ${cell} align-top break-words text-slate-700`}>
                    <span className={clampLines === 2 ? "line-clamp-2" : "line-clamp-3"} title={text}>
                      {text}
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The first rows of each table the latest successful run wrote (`shown` rows at most), a link to show up to `more`
 * rows, a link to the table's own pages of every row, and each table's every row as a CSV download. Plain links: they
 * work without JavaScript.
 */
export function TransformResults({
  results,
  charts,
  downloadHref,
  pagesHref,
  shown,
  more,
  timeZone,
}: {
  results: ResultTable[];
  /** The template's charts, drawn above the tables. */
  charts?: ReactNode;
  downloadHref: (table: string) => string;
  /** The table's own pages, every row a page at a time ("See all 4,561 rows"), when it has more rows than shown. */
  pagesHref?: (table: string) => string;
  shown: number;
  more: { href: string; rows: number } | null;
  timeZone: string;
}) {
  if (results.length === 0) return null;
  return (
    <section aria-labelledby="results" className="mt-8 space-y-4">
      <h2 id="results" className="text-lg font-semibold text-slate-900">
        Results
      </h2>
      {charts}
      {results.map((result) => (
        <div key={result.table} className="card overflow-hidden" data-result-table={result.table}>
          <div className="flex items-center justify-between gap-3 border-b border-slate-200 bg-slate-50 px-4 py-3">
            <div className="min-w-0">
              <h3 className="text-sm font-semibold text-slate-900">{result.label}</h3>
              <p className="truncate font-mono text-xs text-slate-500" data-table-name>
                {result.table}
              </p>
            </div>
            <div className="flex flex-wrap items-center justify-end gap-x-4 gap-y-1 text-xs">
              {result.total !== null ? (
                <p className="text-slate-600">
                  {Math.min(result.rows.length, result.total).toLocaleString("en-US")} of {result.total.toLocaleString("en-US")} rows
                </p>
              ) : null}
              {more && result.total !== null && result.total > shown && result.rows.length >= shown ? (
                <Link to={more.href} className="link font-medium" data-show-more={result.table}>
                  Show {Math.min(more.rows, result.total).toLocaleString("en-US")} rows
                </Link>
              ) : null}
              {pagesHref && !result.error && result.total !== null && result.total > result.rows.length ? (
                <Link to={pagesHref(result.table)} className="link font-medium" data-all-rows={result.table}>
                  See all {result.total.toLocaleString("en-US")} rows<span className="sr-only"> of {result.label}</span>
                </Link>
              ) : null}
              {!result.error && result.rows.length > 0 ? (
                <a href={downloadHref(result.table)} download={`${result.table}.csv`} className="link font-medium" data-download={result.table}>
                  Download CSV<span className="sr-only"> of {result.label}</span>
                </a>
              ) : null}
            </div>
          </div>
          {result.error ? (
            <p className="px-4 py-3 text-sm text-red-800">{result.error}</p>
          ) : result.rows.length === 0 ? (
            <p className="px-4 py-3 text-sm text-slate-600">This table is empty.</p>
          ) : (
            <RowsTable
              label={`Rows of ${result.label}`}
              caption={`First rows of ${result.label} (${result.table})`}
              columns={shownColumns(result.columns)}
              rows={result.rows}
              timeZone={timeZone}
              heading={resultColumnLabel}
              headClass=""
              format={showResult}
            />
          )}
        </div>
      ))}
    </section>
  );
}
