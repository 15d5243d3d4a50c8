import { parse, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import { chartPoints, timeStep, type ChartPoint } from "./data.js";
import type { ChartAxis, ChartDeclaration, ChartUnit } from "./types.js";

/**
 * A declared chart drawn on the server (docs/decisions/2026-12-03-charts.md): the points (data.ts) as a Vega-Lite
 * specification, compiled and rendered to SVG by Vega with no browser. The SVG scales to its container, carries its
 * title and description for assistive technology, and each point or bar its values in words (Vega's ARIA labels).
 */

export interface RenderedChart {
  id: string;
  title: string;
  description: string;
  table: string;
  svg: string;
  /** The same chart drawn for a phone's width (a page shows it below 640 px). */
  svgCompact: string;
  points: ChartPoint[];
  /** The points as columns of a CSV: the axis titles. */
  columns: { x: string; y: string; series?: string };
  /** A sentence the chart shows above its picture: "None: …" when every count or sum it draws is zero. */
  note: string | null;
}

/** "None: …" when there are points and every one is a zero count, sum or share (a mean of zero is a value, not none). */
function noteOf(chart: ChartDeclaration, points: readonly ChartPoint[]): string | null {
  const adds = chart.y.aggregate === "count" || chart.y.aggregate === "sum" || chart.y.aggregate === "share";
  if (!adds || points.length === 0 || points.some((p) => p.y !== 0)) return null;
  return chart.none ?? `None: no ${chart.y.title.toLowerCase()} in these results.`;
}

/** The plot's size on a wide screen, and on a phone (drawn narrower, so that its words keep their size). */
const SIZES = { wide: { width: 640, height: 260, labelLimit: 220, ticks: 10 }, compact: { width: 250, height: 200, labelLimit: 150, ticks: 4 } } as const;
type Size = (typeof SIZES)[keyof typeof SIZES];
const BRAND = ["#1d4ed8", "#0d9488", "#b45309", "#7c3aed", "#be123c", "#4d7c0f", "#0369a1", "#a16207"];

/** Vega's number format for a unit, and the words the axis title adds. */
const FORMAT: Record<ChartUnit, { format: string; suffix: string }> = {
  number: { format: ",~r", suffix: "" },
  percent: { format: ".0%", suffix: "" },
  minutes: { format: ",.0f", suffix: " (minutes)" },
  milliseconds: { format: ",.1f", suffix: " (seconds)" },
  sentiment: { format: "+.2f", suffix: " (0 is neutral)" },
};

/**
 * Minutes drawn in the unit a person would say for the largest of them: a reply time of 2,890 minutes is two days. The
 * axis is in that unit; the tooltips and the CSV keep the minutes.
 */
function minutesAxis(chart: ChartDeclaration, points: readonly ChartPoint[], ticks: number) {
  const most = Math.max(0, ...points.map((p) => p.y));
  const [divisor, unit] = most >= 2 * 1440 ? [1440, "days"] : most >= 120 ? [60, "hours"] : [1, "minutes"];
  // Ticks at round numbers of that unit (0, 0.5, 1, 1.5 days), the axis ending on the last.
  const rough = Math.max(most / divisor / Math.max(1, ticks), 1e-9);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((k) => k * power >= rough) ?? 10) * power;
  const last = Math.max(1, Math.ceil(most / divisor / step)) * step;
  const values = Array.from({ length: Math.round(last / step) + 1 }, (_, i) => i * step * divisor);
  return {
    title: `${chart.y.title} (${unit})`,
    axis: { values, format: ",.0f", labelExpr: `format(datum.value / ${divisor}, ',~g')` },
    scale: { domain: [0, last * divisor], nice: false },
  };
}

/** The dates under a line: the steps the points sit on (every k-th when there are more than the width allows). */
function timeTicks(points: readonly ChartPoint[], most: number): number[] {
  const steps = [...new Set(points.map((p) => p.x))].sort();
  const every = Math.max(1, Math.ceil(steps.length / most));
  return steps.filter((_, i) => i % every === 0).map((day) => Date.parse(`${day}T00:00:00Z`));
}

/** A sentiment axis: symmetric around neutral, at least −1 to +1, wide enough for every point (scores can exceed 1). */
function sentimentDomain(points: readonly ChartPoint[]): [number, number] {
  const most = Math.max(1, ...points.map((p) => Math.abs(p.y)));
  const bound = most <= 1 ? 1 : Math.ceil(most);
  return [-bound, bound];
}

/** Milliseconds are drawn as seconds; every other unit as it is. */
const scaled = (axis: ChartAxis, value: number) => (axis.unit === "milliseconds" ? value / 1000 : value);

const axisTitle = (axis: ChartAxis, timeZone: string) => (axis.type === "time" ? `${axis.title} (${timeZone})` : `${axis.title}${FORMAT[axis.unit ?? "number"].suffix}`);

/** The first and the last of the last `days` days up to `now`'s day in the zone, as the axis' dates (UTC midnights). */
function lastDays(days: number, timeZone: string, now: Date): [number, number] {
  const today = Date.parse(`${timeStep(now, "day", timeZone)}T00:00:00Z`);
  return [today - (days - 1) * 86_400_000, today];
}

function specOf(chart: ChartDeclaration, points: ChartPoint[], timeZone: string, size: Size, now: Date): TopLevelSpec {
  const measure = FORMAT[chart.y.unit ?? "number"];
  const seriesWord = (value: string) => chart.series?.labels?.[value] ?? value;
  const values = points.map((p) => ({ x: p.x, y: scaled(chart.y, p.y), ...(p.series !== undefined ? { series: seriesWord(p.series) } : {}) }));
  // Only the series the points have, in the declared order (a legend of absent sides or levels says nothing).
  const present = new Set(points.map((p) => p.series));
  const declared = Object.entries(chart.series?.colors ?? {}).filter(([value]) => present.has(value));
  const yTitle = axisTitle(chart.y, timeZone);
  const xTitle = axisTitle(chart.x, timeZone);
  // Minutes on the axis in minutes, hours or days (its title says which); the tooltips and the CSV keep the minutes.
  const inUnit = chart.y.unit === "minutes" ? minutesAxis(chart, points, size.ticks) : null;
  const yAxis = inUnit ? { axis: { title: inUnit.title, ...inUnit.axis }, scale: inUnit.scale } : { axis: { format: measure.format } };
  const color = chart.series
    ? {
        field: "series",
        type: "nominal" as const,
        title: chart.series.title,
        ...(chart.series.colors ? { scale: { domain: declared.map(([value]) => seriesWord(value)), range: declared.map(([, colour]) => colour) } } : { scale: { range: BRAND } }),
      }
    : undefined;
  const config = {
    font: "Inter, ui-sans-serif, system-ui, sans-serif",
    background: "#ffffff",
    axis: { labelColor: "#334155", titleColor: "#0f172a", gridColor: "#e2e8f0", domainColor: "#94a3b8", tickColor: "#94a3b8", labelFontSize: 11, titleFontSize: 12, titleFontWeight: 600 },
    legend: { labelColor: "#334155", titleColor: "#0f172a", orient: "bottom" as const, ...(size === SIZES.compact ? { columns: 2 } : {}) },
    view: { stroke: null },
    line: { color: BRAND[0], strokeWidth: 2 },
    bar: { color: BRAND[0] },
    point: { color: BRAND[0], filled: true, size: 36 },
  };
  const base = { width: size.width, height: chart.mark === "bar" ? Math.max(100, Math.min(points.length, chart.limit ?? 12) * 24) : size.height, description: chart.description, config, data: { values } };
  if (chart.mark === "line") {
    return {
      ...base,
      mark: { type: "line", point: true },
      encoding: {
        x: {
          field: "x",
          type: "temporal",
          title: xTitle,
          timeUnit: "utcyearmonthdate",
          // The run history's last 30 days are ticked by Vega; a result's periods by the steps its points sit on.
          axis: { format: "%b %d", labelAngle: 0, ...(chart.x.lastDays ? { tickCount: size.ticks } : { values: timeTicks(points, size.ticks) }) },
          ...(chart.x.lastDays ? { scale: { domain: lastDays(chart.x.lastDays, timeZone, now) } } : {}),
        },
        y: {
          field: "y",
          type: "quantitative",
          title: yTitle,
          axis: { tickCount: 5, ...yAxis.axis },
          ...(chart.y.unit === "sentiment" ? { scale: { domain: sentimentDomain(points) } } : yAxis.scale ? { scale: yAxis.scale } : {}),
        },
        ...(color ? { color } : {}),
        tooltip: [
          { field: "x", type: "temporal", title: xTitle, timeUnit: "utcyearmonthdate", format: "%b %d, %Y" },
          { field: "y", type: "quantitative", title: yTitle, format: measure.format },
          ...(color ? [{ field: "series", type: "nominal" as const, title: chart.series!.title }] : []),
        ],
      },
    } as TopLevelSpec;
  }
  return {
    ...base,
    mark: { type: "bar", cornerRadiusEnd: 3 },
    encoding: {
      y: { field: "x", type: "nominal", title: xTitle, sort: { field: "y", order: "descending" }, axis: { labelLimit: size.labelLimit } },
      x: { field: "y", type: "quantitative", title: yTitle, axis: { tickCount: size.ticks, ...yAxis.axis }, ...(yAxis.scale ? { scale: yAxis.scale } : {}) },
      ...(color ? { color } : {}),
      tooltip: [
        { field: "x", type: "nominal", title: xTitle },
        { field: "y", type: "quantitative", title: yTitle, format: measure.format },
        ...(color ? [{ field: "series", type: "nominal" as const, title: chart.series!.title }] : []),
      ],
    },
  } as TopLevelSpec;
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Each bar's or point's words (Vega's ARIA label, "Week starting: Nov 02; Mentions: 12") as its SVG title too: a
 * pointer resting on it shows them, with or without JavaScript, and the picture stays the same. A line's own label
 * names its first point only, so a line keeps none.
 */
const withTooltips = (svg: string) =>
  svg.replace(/<path aria-label="([^"]*)"([^>]*?)(\/>|><\/path>)/g, (all, label: string, rest: string) =>
    rest.includes('aria-roledescription="line mark"') ? all : `<path aria-label="${label}"${rest}><title>${label}</title></path>`,
  );

/** Vega's SVG made to scale to its container, named by its title and described for assistive technology. */
function finish(svg: string, chart: ChartDeclaration, empty: boolean, note: string | null): string {
  const open = svg.match(/^<svg[^>]*>/)?.[0] ?? "<svg>";
  const width = Number(open.match(/ width="([\d.]+)"/)?.[1] ?? SIZES.wide.width);
  const height = Number(open.match(/ height="([\d.]+)"/)?.[1] ?? SIZES.wide.height);
  const description = empty ? `${chart.description} No rows to draw yet.` : note ? `${chart.description} ${note}` : chart.description;
  const root =
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `role="img" aria-label="${escapeXml(`${chart.title}. ${description}`)}" style="max-width:100%;height:auto">` +
    `<title>${escapeXml(chart.title)}</title><desc>${escapeXml(description)}</desc>`;
  return root + withTooltips(svg.slice(open.length));
}

/** A chart's points and its SVG, from its result table's rows, times in the reader's zone. */
export async function renderChart(chart: ChartDeclaration, rows: readonly Record<string, unknown>[], timeZone: string, now = new Date()): Promise<RenderedChart> {
  const points = chartPoints(chart, rows, timeZone);
  const note = noteOf(chart, points);
  const draw = async (size: Size) => {
    const view = new View(parse(compile(specOf(chart, points, timeZone, size, now)).spec), { renderer: "none" });
    try {
      return finish(await view.toSVG(), chart, points.length === 0, note);
    } finally {
      view.finalize();
    }
  };
  const [svg, svgCompact] = [await draw(SIZES.wide), await draw(SIZES.compact)];
  {
    return {
      id: chart.id,
      title: chart.title,
      description: chart.description,
      table: chart.table,
      svg,
      svgCompact,
      points,
      columns: { x: axisTitle(chart.x, timeZone), y: axisTitle(chart.y, timeZone), ...(chart.series ? { series: chart.series.title } : {}) },
      note,
    };
  }
}
