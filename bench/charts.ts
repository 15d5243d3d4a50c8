/**
 * Charts (issue 54): the time the server takes to draw all of a template's charts (each at a wide and at a phone's
 * width, as a results page asks for them) over the template's results at the benchmark's 1× data: 140 data-generator
 * meetings a day for 7 days (bench/sync.ts's 1×), and 1,000 e-mail messages (the e-mail sample of the tests, repeated
 * as 111 mailboxes' worth). The results are computed once by the real programs over a local warehouse (DuckDB); then
 * each template's charts are drawn 30 times after 5 unmeasured draws. Target: p50 ≤ 150 ms per template's page of charts.
 *
 * `npx tsx bench/charts.ts` prints a Markdown table. bench/run.ts runs it in its "charts" part, after the whole results
 * pages through the product (bench/results-pages.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { LocalWriter } from "../backend/integrations/destinations/local/index.js";
import { LocalWarehouse } from "../backend/integrations/destinations/local/warehouse.js";
import { generateMeetings } from "../backend/integrations/sources/datagen/index.js";
import { datagenPlugin } from "../backend/integrations/sources/datagen/plugin.js";
import { gmailPlugin } from "../backend/integrations/sources/gmail/plugin.js";
import { batchMaker, writeRecords } from "../backend/sync/index.js";
import { allDefinitions } from "../backend/transforms/catalogue.js";
import { renderChart } from "../backend/transforms/charts/render.js";
import { runProgram } from "../tests/support/programs.js";
import { EMAIL_SAMPLE } from "../tests/support/emails.js";
import { mdTable } from "./lib/report.js";

const SOURCE = "0c4a7e2b-5d3f-4a1b-9c8d-7e6f5a4b3c2d";
const UNTIL = new Date("2026-11-20T00:00:00.000Z");
const RUN = { id: "bench-charts", at: UNTIL };
const TARGET_MS = 150;
const WARM = 5;
const MEASURED = 30;

const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-charts-"));
try {
  const writer = new LocalWriter(folder);
  const meetings = generateMeetings({ sourceId: SOURCE, company: "Acme Rockets", from: new Date(UNTIL.getTime() - 7 * 86_400_000), to: UNTIL, meetingsPerDay: 140 });
  await writeRecords([{ name: "warehouse", writer }], meetings, batchMaker(datagenPlugin, { platform: "zoom", sourceId: SOURCE }));
  const messages = Array.from({ length: 111 }, (_, i) =>
    EMAIL_SAMPLE.map((m) => ({ ...m, id: `${m.id}-${i}`, thread_id: m.thread_id ? `${m.thread_id}-${i}` : "", mailbox: `user${i}@acme.example` })),
  ).flat();
  await writeRecords([{ name: "warehouse", writer }], messages, batchMaker(gmailPlugin, { platform: "gmail", sourceId: SOURCE }));
  await writer.close();
  const warehouse = new LocalWarehouse(new LocalWriter(folder));
  const rows: string[][] = [];
  let worst = 0;
  for (const d of allDefinitions()) {
    const emails = d.category === "email_insights";
    const outputs = await runProgram(d.id, { warehouse, sourceId: SOURCE, platforms: emails ? [] : ["zoom"] }, RUN);
    const tables = d.charts.map((chart) => outputs.find((o) => o.suffix === chart.table)?.rows ?? []);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < WARM + MEASURED; i++) {
      const started = performance.now();
      const drawn = await Promise.all(d.charts.map((chart, n) => renderChart(chart, tables[n]!, "Europe/Paris")));
      if (i >= WARM) times.push(performance.now() - started);
      bytes = drawn.reduce((sum, c) => sum + c.svg.length + c.svgCompact.length, 0);
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor(times.length / 2)]!;
    const p95 = times[Math.floor(times.length * 0.95)]!;
    worst = Math.max(worst, p50);
    rows.push([d.name, String(d.charts.length), tables.map((t) => t.length.toLocaleString("en-US")).join(" / "), `${p50.toFixed(1)} ms`, `${p95.toFixed(1)} ms`, `${(bytes / 1024).toFixed(1)} KB`, p50 <= TARGET_MS ? "ok" : "OVER"]);
  }
  await warehouse.close();
  console.log(mdTable(["template", "charts", "rows drawn from", "all its charts, p50", "p95", "SVG (wide + phone)", `≤ ${TARGET_MS} ms`], rows));
  console.log(`\n${worst <= TARGET_MS ? "Every template's charts are drawn within the target." : "Some template's charts are over the target."} The slowest p50: ${worst.toFixed(1)} ms.`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
