import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalWriter } from "../../backend/integrations/destinations/local/index.js";
import { LocalWarehouse } from "../../backend/integrations/destinations/local/warehouse.js";
import type { Row } from "../../backend/integrations/destinations/writer.js";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import { datagenPlugin } from "../../backend/integrations/sources/datagen/plugin.js";
import { gmailPlugin } from "../../backend/integrations/sources/gmail/plugin.js";
import { batchMaker, writeRecords } from "../../backend/sync/index.js";
import { allDefinitions } from "../../backend/transforms/catalogue.js";
import { renderChart } from "../../backend/transforms/charts/render.js";
import { runProgram } from "../support/programs.js";
import { EMAIL_SAMPLE } from "../support/emails.js";

/**
 * Issue 54: every template's charts, drawn from its results over synced data, show the result table's numbers. Each
 * chart's expected points are worked out here from the table's rows, column by column, as a reader of the table would;
 * the drawn SVG names each point or bar with its values (its ARIA labels) and carries the chart's title and description.
 */

const SOURCE = "0f2e4d6c-8a1b-4c3d-9e5f-a0b1c2d3e4f5";
const RUN = { id: "chart-run", at: new Date("2026-11-20T06:00:00.000Z") };
const UNTIL = new Date("2026-11-20T00:00:00.000Z");
const ZONE = "America/New_York";

type Point = { x: string; y: number; series?: string };
const num = (v: unknown) => Number(v);
const day = (v: unknown) => String(v instanceof Date ? v.toISOString() : v).slice(0, 10);
/** The Monday (a date) of the week an instant falls in, in New York. */
function mondayInNewYork(v: unknown): string {
  const local = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(v as string | Date));
  const d = new Date(`${local}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}
function byKey(rows: Row[], key: (r: Row) => string, value: (rs: Row[]) => number, series?: (r: Row) => string): Point[] {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const k = JSON.stringify([key(r), series?.(r) ?? null]);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.entries()].map(([k, rs]) => {
    const [x, s] = JSON.parse(k) as [string, string | null];
    return { x, y: value(rs), ...(s !== null ? { series: s } : {}) };
  });
}
const sum = (field: string) => (rs: Row[]) => rs.reduce((a, r) => a + num(r[field]), 0);
const mean = (field: string) => (rs: Row[]) => sum(field)(rs) / rs.length;
const largestFirst = (points: Point[], limit = 12) => [...points].sort((a, b) => b.y - a.y || a.x.localeCompare(b.x)).slice(0, limit);
const inTime = (points: Point[]) => [...points].sort((a, b) => a.x.localeCompare(b.x) || (a.series ?? "").localeCompare(b.series ?? ""));

/** What each chart must show, from its table's rows. */
const EXPECTED: Record<string, (rows: Row[]) => Point[]> = {
  topic_share: (rows) => {
    const total = rows.reduce((a, r) => a + num(r.documents), 0);
    return largestFirst(rows.map((r) => ({ x: String(r.label), y: num(r.documents) / total })));
  },
  sentiment_trend: (rows) => inTime(rows.map((r) => ({ x: day(r.period_start), y: num(r.avg_sentiment), series: String(r.speaker_side) }))),
  items_per_owner: (rows) => largestFirst(byKey(rows, (r) => String(r.owner_name), (rs) => rs.length)),
  items_per_week: (rows) => inTime(byKey(rows, (r) => mondayInNewYork(r.spoken_at), (rs) => rs.length)),
  talk_ratio: (rows) => largestFirst(byKey(rows, (r) => String(r.speaker_name), mean("talk_ratio"))),
  long_monologues: (rows) => largestFirst(byKey(rows, (r) => String(r.speaker_name), sum("monologues_over_threshold"))),
  mentions_per_week: (rows) => inTime(byKey(rows, (r) => mondayInNewYork(r.spoken_at), (rs) => rs.length, (r) => String(r.keyword))),
  mentions_per_keyword: (rows) => largestFirst(rows.map((r) => ({ x: String(r.keyword), y: num(r.mentions) }))),
  risk_ranking: (rows) => largestFirst(rows.map((r) => ({ x: String(r.account), y: num(r.risk_score), series: String(r.risk_level) })), 15),
  reply_time_by_correspondent: (rows) => largestFirst(rows.filter((r) => r.median_their_reply_minutes !== null).map((r) => ({ x: String(r.correspondent), y: num(r.median_their_reply_minutes) }))),
  email_sentiment_trend: (rows) => inTime(rows.map((r) => ({ x: day(r.period_start), y: num(r.avg_sentiment) }))),
  top_domains: (rows) => largestFirst(rows.map((r) => ({ x: String(r.domain), y: num(r.messages) })), 10),
};

const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-charts-"));
let warehouse: LocalWarehouse;

beforeAll(async () => {
  const writer = new LocalWriter(folder);
  const meetings = generateMeetings({ sourceId: SOURCE, company: "Acme Rockets", from: new Date(UTC(UNTIL) - 14 * 86_400_000), to: UNTIL, meetingsPerDay: 12 });
  await writeRecords([{ name: "warehouse", writer }], meetings, batchMaker(datagenPlugin, { platform: "zoom", sourceId: SOURCE }));
  await writeRecords([{ name: "warehouse", writer }], EMAIL_SAMPLE, batchMaker(gmailPlugin, { platform: "gmail", sourceId: SOURCE }));
  await writer.close();
  warehouse = new LocalWarehouse(new LocalWriter(folder));
}, 120_000);

function UTC(d: Date) {
  return d.getTime();
}

afterAll(async () => {
  await warehouse?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("each template's charts", () => {
  it("every template declares at least one chart, each over one of its outputs, with a unique id", () => {
    for (const d of allDefinitions()) {
      expect(d.charts.length, d.id).toBeGreaterThan(0);
      for (const chart of d.charts) {
        expect(d.outputs.map((o) => o.suffix), `${d.id}: ${chart.id}`).toContain(chart.table);
        expect(EXPECTED[chart.id], `an expectation for ${chart.id}`).toBeDefined();
      }
      expect(new Set(d.charts.map((c) => c.id)).size).toBe(d.charts.length);
    }
  });

  it.each(allDefinitions().map((d) => [d.name, d.id] as const))("%s: its charts show its result table's numbers", async (_name, id) => {
    const definition = allDefinitions().find((d) => d.id === id)!;
    const emails = definition.category === "email_insights";
    const outputs = await runProgram(id, { warehouse, sourceId: SOURCE, platforms: emails ? [] : ["zoom"] }, RUN);
    // The results page reads each table in its declared order: columns its program writes.
    for (const output of definition.outputs) {
      const written = Object.keys(outputs.find((o) => o.suffix === output.suffix)?.rows[0] ?? {});
      if (written.length) for (const term of [...(output.order ?? []), ...output.key]) expect(written, `${output.suffix}: order by ${term}`).toContain(term.replace(/^-/, ""));
    }
    for (const chart of definition.charts) {
      const rows = outputs.find((o) => o.suffix === chart.table)!.rows;
      expect(rows.length, `${chart.id}: rows to draw`).toBeGreaterThan(0);
      const drawn = await renderChart(chart, rows, ZONE);
      const expected = EXPECTED[chart.id]!(rows);
      expect(drawn.points.map((p) => ({ ...p, y: Number(p.y.toFixed(9)) })), chart.id).toEqual(expected.map((p) => ({ ...p, y: Number(p.y.toFixed(9)) })));
      // The picture: its title and description, and one labelled mark per point naming its category or date.
      expect(drawn.svg.startsWith("<svg"), chart.id).toBe(true);
      expect(drawn.svg).toContain(`<title>${chart.title}</title>`);
      const marks = [...drawn.svg.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1]!).filter((label) => label.includes(`${drawn.columns.y}: `));
      // A line also names its first point once more, as the line itself.
      const lines = chart.mark === "line" ? new Set(expected.map((p) => p.series ?? "")).size : 0;
      expect(marks.length, `${chart.id}: a labelled mark per point`).toBe(expected.length + lines);
      if (chart.mark === "bar") for (const p of expected) expect(marks.some((m) => m.includes(`: ${p.x.replace(/&/g, "&amp;")}`)), `${chart.id}: ${p.x}`).toBe(true);
      if (chart.x.type === "time") expect(drawn.columns.x).toBe(`${chart.x.title} (${ZONE})`);
      // A pointer on a bar or a point shows its words: each such mark carries them as its title.
      const titled = [...drawn.svg.matchAll(/<path aria-label="([^"]*)"[^>]*><title>([^<]*)<\/title><\/path>/g)];
      expect(titled.length, `${chart.id}: a title per bar or point`).toBe(expected.length);
      for (const [, label, title] of titled) expect(title).toBe(label);
    }
  });

  it("sentiment over time, split by side: a line per side, each the table's numbers, under the sides' words", async () => {
    const definition = allDefinitions().find((d) => d.id === "sentiment_over_time")!;
    const [output] = await runProgram("sentiment_over_time", { warehouse, sourceId: SOURCE, platforms: ["zoom"] }, RUN, { split_by_side: true, granularity: "day" });
    const rows = output!.rows;
    expect(new Set(rows.map((r) => r.speaker_side))).toEqual(new Set(["internal", "external"]));
    // Every line is on one side: the sides' lines add up to everyone's, period by period.
    const [everyone] = await runProgram("sentiment_over_time", { warehouse, sourceId: SOURCE, platforms: ["zoom"] }, RUN, { granularity: "day" });
    for (const all of everyone!.rows) {
      const sides = rows.filter((r) => day(r.period_start) === day(all.period_start));
      expect(sides.reduce((a, r) => a + num(r.utterances), 0), day(all.period_start)).toBe(num(all.utterances));
    }
    const drawn = await renderChart(definition.charts[0]!, rows, ZONE);
    expect(drawn.points).toEqual(EXPECTED.sentiment_trend!(rows));
    expect(drawn.svg).toContain("Speakers: Our side");
    expect(drawn.svg).toContain("Speakers: Their side");
  });

  it("draws minutes in the unit a person would say, keeps the minutes in the tooltips, and lists only the series present", async () => {
    const reply = allDefinitions().find((d) => d.id === "email_response_time")!.charts[0]!;
    const rows = [
      { correspondent: "frank@stark.example", median_their_reply_minutes: 2890 },
      { correspondent: "ann@globex.example", median_their_reply_minutes: 40 },
    ];
    const days = await renderChart(reply, rows, ZONE);
    expect(days.svg).toContain(">Median reply time (days)</text>");
    expect(days.svg).toMatch(/aria-label="[^"]*Median reply time \(minutes\): 2,890[^"]*"/);
    expect(days.svg).toContain(">1.5</text>");
    expect(days.columns.y).toBe("Median reply time (minutes)");
    expect((await renderChart(reply, rows.slice(1), ZONE)).svg).toContain(">Median reply time (minutes)</text>");
    expect((await renderChart(reply, [{ correspondent: "a@b.example", median_their_reply_minutes: 300 }], ZONE)).svg).toContain(">Median reply time (hours)</text>");
    const risk = allDefinitions().find((d) => d.id === "deal_risk")!.charts[0]!;
    const drawn = await renderChart(risk, [{ account: "Globex", risk_score: 82, risk_level: "high" }, { account: "Hooli", risk_score: 20, risk_level: "low" }], ZONE);
    expect(drawn.svg).toContain(">High</text>");
    expect(drawn.svg).toContain(">Low</text>");
    expect(drawn.svg).not.toContain(">Medium</text>");
  });

  it("a chart of counts that are all zero says so in words; a mean of zero is a value", async () => {
    const speakers = allDefinitions().find((d) => d.id === "speaker_metrics")!;
    const monologues = speakers.charts.find((c) => c.id === "long_monologues")!;
    const none = await renderChart(monologues, [{ speaker_name: "Ann", monologues_over_threshold: 0 }, { speaker_name: "Bob", monologues_over_threshold: 0 }], ZONE);
    expect(none.note).toBe("None: no speaker talked past the monologue threshold in these meetings.");
    expect(none.svg).toContain(`<desc>${monologues.description} ${none.note}</desc>`);
    const some = await renderChart(monologues, [{ speaker_name: "Ann", monologues_over_threshold: 2 }], ZONE);
    expect(some.note).toBeNull();
    const keyword = allDefinitions().find((d) => d.id === "keyword_tracker")!.charts.find((c) => c.id === "mentions_per_keyword")!;
    expect((await renderChart(keyword, [{ keyword: "Stitch", mentions: 0 }], ZONE)).note).toBe("None: no mentions in these results.");
    const sentiment = allDefinitions().find((d) => d.id === "sentiment_over_time")!.charts[0]!;
    expect((await renderChart(sentiment, [{ period_start: "2026-11-02", speaker_side: "all", avg_sentiment: 0 }], ZONE)).note).toBeNull();
    expect((await renderChart(monologues, [], ZONE)).note).toBeNull();
  });
});
