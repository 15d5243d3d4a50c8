/**
 * A template's charts (issue 54), declared beside its result tables in the catalogue: which table a chart reads, what
 * it draws (a line over time, bars per category) and each axis in words with its unit. The renderer (render.ts) turns a
 * declaration and the table's rows into an SVG on the server; a new template gets charts by declaring them.
 */

/** How an axis' values read: a plain number, a share (0.25 → 25 %), minutes, milliseconds as a duration, a sentiment. */
export type ChartUnit = "number" | "percent" | "minutes" | "milliseconds" | "sentiment";

export interface ChartAxis {
  /** The result table's column. */
  field: string;
  /** The axis title in words ("Average sentiment"). */
  title: string;
  /** time: dates and timestamps (shown in the reader's time zone); category: names; quantity: numbers. */
  type: "time" | "category" | "quantity";
  /** Rows per category or time step are combined: a count of rows, a sum, a mean, a median, or a sum as a share of all. */
  aggregate?: "count" | "sum" | "mean" | "median" | "share";
  /** Time steps: a day or a week. */
  step?: "day" | "week";
  /** A time axis that always spans the last this-many days up to today (the run history's 30), in the reader's zone. */
  lastDays?: number;
  unit?: ChartUnit;
}

export interface ChartDeclaration {
  /** Unique within its template ("sentiment_trend"). */
  id: string;
  title: string;
  /** The result table's suffix (an output of the template). */
  table: string;
  /** What the chart shows, in a sentence: the chart's accessible description. */
  description: string;
  /** line: a value over time; bar: a horizontal bar per category, the largest first. */
  mark: "line" | "bar";
  /** The category (bars) or the time (lines). */
  x: ChartAxis;
  /** The measure. */
  y: ChartAxis;
  /** A line or colour per value of this column (a keyword, a risk level). */
  series?: {
    field: string;
    title: string;
    /** A colour per stored value, in the legend's order. */
    colors?: Readonly<Record<string, string>>;
    /** The words for its stored values (contract/labels.ts), shown in the legend. */
    labels?: Readonly<Record<string, string>>;
  };
  /** Bars: at most this many categories, the largest first (default 12). */
  limit?: number;
  /**
   * What the chart says in words when every count or sum it draws is zero ("None: no speaker talked past the
   * monologue threshold…"); without it, a sentence from the measure's title.
   */
  none?: string;
}
