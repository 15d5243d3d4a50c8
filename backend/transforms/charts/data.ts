import type { ChartAxis, ChartDeclaration } from "./types.js";

/**
 * The numbers behind a chart: the declaration's rows combined per category or time step (and per series), as the chart
 * draws them and as its "Download CSV" gives them. Time steps are cut in the reader's time zone.
 */

export interface ChartPoint {
  /** The category, or the time step's start as a local date ("2026-11-02"). */
  x: string;
  y: number;
  series?: string;
}

type Row = Record<string, unknown>;

const DAY_MS = 86_400_000;

/** A date or timestamp value as an instant (warehouses answer Date objects, ISO text or "2026-11-02 10:00:00+00"). */
function instant(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== "string" || !value) return null;
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00");
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** One formatter per zone: making one costs far more than using it (a chart may cut thousands of rows into days). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The local calendar date of an instant in a time zone ("2026-11-02"). */
function localDate(date: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) dayFormats.set(timeZone, (format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })));
  return format.format(date);
}

/** The day (or the Monday of the week) a time value falls in, in the reader's zone; a bare date is its own day. */
export function timeStep(value: unknown, step: ChartAxis["step"], timeZone: string): string | null {
  const date = instant(value);
  if (!date) return null;
  const day = typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : localDate(date, timeZone);
  if (step !== "week") return day;
  const midnight = new Date(`${day}T00:00:00Z`);
  const sinceMonday = (midnight.getUTCDay() + 6) % 7;
  return new Date(midnight.getTime() - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

const numeric = (value: unknown): number | null => {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

function combine(values: number[], aggregate: ChartAxis["aggregate"]): number {
  if (aggregate === "count") return values.length;
  if (values.length === 0) return 0;
  if (aggregate === "mean") return values.reduce((a, b) => a + b, 0) / values.length;
  if (aggregate === "median") {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  }
  return values.reduce((a, b) => a + b, 0);
}

/** The chart's points from the result table's rows: per category or time step (and series), the measure combined. */
export function chartPoints(chart: ChartDeclaration, rows: readonly Row[], timeZone: string): ChartPoint[] {
  const groups = new Map<string, { x: string; series?: string; values: number[] }>();
  for (const row of rows) {
    const x = chart.x.type === "time" ? timeStep(row[chart.x.field], chart.x.step, timeZone) : row[chart.x.field] == null ? null : String(row[chart.x.field]);
    if (x === null || x === "") continue;
    const series = chart.series ? String(row[chart.series.field] ?? "") : undefined;
    const value = chart.y.aggregate === "count" ? 1 : numeric(row[chart.y.field]);
    if (value === null) continue;
    const key = JSON.stringify([x, series ?? null]);
    const group = groups.get(key) ?? { x, ...(series !== undefined ? { series } : {}), values: [] };
    group.values.push(value);
    groups.set(key, group);
  }
  const share = chart.y.aggregate === "share";
  const points = [...groups.values()].map(({ values, ...rest }) => ({ ...rest, y: combine(values, share ? "sum" : (chart.y.aggregate ?? "sum")) }));
  if (share) {
    const total = points.reduce((sum, p) => sum + p.y, 0);
    for (const p of points) p.y = total > 0 ? p.y / total : 0;
  }
  if (chart.mark === "line") return points.sort((a, b) => a.x.localeCompare(b.x) || (a.series ?? "").localeCompare(b.series ?? ""));
  // Bars: the largest first, the rest left out past the limit (the table and the CSV of the table keep every row).
  const limit = chart.limit ?? 12;
  return points.sort((a, b) => b.y - a.y || a.x.localeCompare(b.x)).slice(0, limit);
}
