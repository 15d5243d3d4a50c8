/**
 * Whole results pages (issue 54's "Done when"): the server renders a transform's results page, all of its template's
 * charts included, in ≤ 150 ms p50, measured beside the list pages; the list pages' first-load JavaScript stays ≤ 90 KB.
 *
 * The product runs as in the pages part of bench/run.ts (bench/lib/product.ts: the built app and the backend on the
 * embedded Postgres, fresh data folder, own ports). A user signs in through the local OpenID provider (Chromium), then,
 * through the backend's own routes with that session: a data-generator source at the benchmark's 1× (140 meetings a
 * day, bench/sync.ts's 1×), a local folder destination, a connector with a 7-day window, its "Sync now" run to
 * success. For the e-mail templates, whose real source (Gmail) needs Google, a Gmail source is stored straight into
 * the database and the e-mail sample of the tests (tests/support/emails.ts) is written 111 times over (1,000 messages,
 * as bench/charts.ts does) straight into its own local destination's warehouse; its connector is made through the
 * backend. Then one transform per template through POST /transforms/create, whose first run (queued by the product,
 * run by its worker) must succeed. Connectors and transforms are then set to manual only, so no scheduled run lands
 * during the measurements.
 *
 * Measured, per template, after waiting for a quiet machine (BENCH_QUIET_WAIT): GET /transforms/details/<id> as a
 * browser without JavaScript asks for it (its cookies, Accept: text/html, Accept-Encoding: gzip, deflate, br, zstd),
 * one request after another on one keep-alive connection, 5 warm-up and 30 measured; the time is from sending the
 * request to the last byte of the answer. Every answer must be 200 and hold each of the template's charts. Then the
 * backend calls the page's loader makes that charts and results add, alone and in the same way: GET
 * /transforms/:id/charts (the drawing), GET /transforms/:id/results of each result table (limit 5, as the page asks)
 * and GET /transforms/:id/runs/charts (the run history's pictures). And the first-load JavaScript (bench/lib/js-size.ts)
 * of each results page, of the four list pages, and which files the results page loads that the list pages do not.
 *
 * `npx tsx bench/results-pages.ts` starts the product, prints a Markdown report and stops it. bench/run.ts runs it in
 * its "charts" part (measureResultsPages, with the product it started). Environment: BENCH_QUIET_WAIT (default 60
 * seconds at most to wait for a quiet machine before each template; 0: none), BENCH_RESULTS_TZ (the reader's time zone,
 * default Europe/Paris, as bench/charts.ts draws), BENCH_KEEP_DATA=1 keeps the data folder.
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { connectDatabase } from "../backend/db/client.js";
import { insertCredential, insertSource } from "../backend/db/sources.js";
import { LocalWriter, resolveLocalRoot } from "../backend/integrations/destinations/local/index.js";
import { gmailPlugin } from "../backend/integrations/sources/gmail/plugin.js";
import { batchMaker, writeRecords } from "../backend/sync/index.js";
import { allDefinitions, type TemplateDefinition } from "../backend/transforms/catalogue.js";
import { EMAIL_SAMPLE } from "../tests/support/emails.js";
import { cpuDelta, outsideCores, sampleCpu, type CpuSample } from "./lib/cpu.js";
import { firstLoadJs, type PageJs } from "./lib/js-size.js";
import { APP_URL, BACKEND_URL, DATABASE_URL, startProduct, type Product } from "./lib/product.js";
import { waitForQuiet } from "./lib/quiet.js";
import { kb, mdTable, ms } from "./lib/report.js";
import { signIn } from "./lib/sign-in.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const RESULTS_PAGE_TARGETS = { p50Ms: 150, jsKb: 90 } as const;
const WARM = 5;
const MEASURED = 30;
/** The benchmark's 1×: bench/sync.ts's 140 meetings a day over a 7-day window. */
const MEETINGS_PER_DAY = 140;
const LOOKBACK_DAYS = 7;
/** The e-mail sample repeated as this many mailboxes' worth (bench/charts.ts: 1,000 messages). */
const MAILBOXES = 111;
const LIST_PAGES = ["/connectors", "/sources", "/destinations", "/transforms"];
const TIME_ZONE = process.env.BENCH_RESULTS_TZ ?? "Europe/Paris";
const QUIET_WAIT = Number(process.env.BENCH_QUIET_WAIT ?? 60);
const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

type Log = (line: string) => void;

/* ---- the backend's routes, as the signed-in user ----------------------------------------------------------- */

interface Answer {
  status: number;
  /** The backend's JSON answer, read by field name below. */
  body: any;
}

async function call(cookie: string, method: string, route: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${BACKEND_URL}${route}`, {
    method,
    headers: { cookie, accept: "application/json", ...(method === "GET" ? {} : { "content-type": "application/json" }) },
    body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text is the body
  }
  return { status: response.status, body: parsed };
}

async function must(cookie: string, method: string, route: string, body: unknown, expected: number[]): Promise<Answer> {
  const answer = await call(cookie, method, route, body);
  if (!expected.includes(answer.status)) throw new Error(`${method} ${route} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
  return answer;
}

/** Polls a connector's or transform's run history until the run is over; it must have succeeded. */
async function runSucceeded(cookie: string, base: "connectors" | "transforms", id: string, runId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = (await must(cookie, "GET", `/${base}/${id}/runs`, undefined, [200])).body.runs as { id: string; status: string; error: string | null; records: number; outputs?: { table: string; rows: number }[] }[];
    const run = runs.find((r) => r.id === runId);
    if (run && (run.status === "failed" || run.status === "cancelled")) throw new Error(`The ${base.slice(0, -1)} run ${runId} ended ${run.status}: ${run.error ?? "no error given"}`);
    if (run?.status === "succeeded") return run;
    if (Date.now() > deadline) throw new Error(`The ${base.slice(0, -1)} run ${runId} is still ${run?.status ?? "missing"} after ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/* ---- timed requests ------------------------------------------------------------------------------------------- */

interface Got {
  status: number;
  ms: number;
  /** Bytes as they came on the wire (compressed if the server compressed), and the decoded body. */
  wireBytes: number;
  body: Buffer;
}

/** One connection, kept alive, one request at a time: a reader reloading the page. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function decode(raw: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? "identity").trim().toLowerCase()) {
    case "identity":
      return raw;
    case "gzip":
      return zlib.gunzipSync(raw);
    case "deflate":
      return zlib.inflateSync(raw);
    case "br":
      return zlib.brotliDecompressSync(raw);
    case "zstd":
      return zlib.zstdDecompressSync(raw);
    default:
      throw new Error(`Unknown content-encoding ${encoding}`);
  }
}

/** GET `url`, timed from sending the request to the answer's last byte (decoding after, not timed). */
function timedGet(url: string, headers: Record<string, string>): Promise<Got> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const elapsed = performance.now() - started;
        const raw = Buffer.concat(chunks);
        try {
          resolve({ status: response.statusCode ?? 0, ms: elapsed, wireBytes: raw.length, body: decode(raw, response.headers["content-encoding"]) });
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    request.setTimeout(30_000, () => request.destroy(new Error(`GET ${url}: no answer within 30 s`)));
    request.on("error", reject);
  });
}

/** The nearest-rank q-quantile of sorted values. */
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

interface Timing {
  p50: number;
  p95: number;
  max: number;
}

function timing(times: number[]): Timing {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted[sorted.length - 1]! };
}

/** `work` WARM times unmeasured, then MEASURED times: the durations it returns. */
async function repeat(work: () => Promise<number>): Promise<Timing> {
  for (let i = 0; i < WARM; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < MEASURED; i++) times.push(await work());
  return timing(times);
}

/* ---- the seed ------------------------------------------------------------------------------------------------ */

interface Seeded {
  meetings: number;
  messages: number;
  transforms: { definition: TemplateDefinition; id: string; records: number; outputs: { table: string; rows: number }[]; runSeconds: number }[];
}

/** The e-mail templates' connector: a Gmail source stored as its create page stores one, its messages written straight into a local warehouse. */
async function seedEmail(cookie: string, dataDir: string, log: Log): Promise<{ connectorId: string; messages: number }> {
  const destination = (await must(cookie, "POST", "/destinations/create", { name: "Mail on disk", integration_name: "local" }, [201])).body.destination as { id: string; config: { folder: string } };
  const handle = connectDatabase(DATABASE_URL, 1);
  let sourceId: string;
  try {
    // The destination's owner is the session's workspace: the source goes to the same one.
    const owner = await handle.pool.query<{ owner_id: string }>("SELECT owner_id FROM destinations WHERE id = $1", [destination.id]);
    const ownerId = owner.rows[0]!.owner_id;
    const credential = await insertCredential(handle.db, ownerId, { integrationName: "gmail", secret: null, metadata: { mode: "service_account", service_account_email: "tributary-gmail@bench.iam.gserviceaccount.com" } });
    const source = await insertSource(handle.db, ownerId, {
      name: "Acme mailboxes",
      description: "",
      integrationName: "gmail",
      integrationLabel: "Gmail",
      credentialId: credential.id,
      status: "active",
      metadata: { gmail_auth_mode: "service_account", gmail_extraction_scope: "ORG", admin_email: "admin@acme.example" },
    });
    sourceId = source.id;
  } finally {
    await handle.close();
  }
  const connector = (await must(cookie, "POST", "/connectors/create", { name: "Mail to disk", description: "", source_id: sourceId, destination_ids: [destination.id], frequency: "daily", lookback_days: LOOKBACK_DAYS, first_sync: false }, [201])).body as { id: string };
  await must(cookie, "PUT", `/connectors/${connector.id}/schedule`, { kind: "manual" }, [200]);
  const messages = Array.from({ length: MAILBOXES }, (_, i) =>
    EMAIL_SAMPLE.map((m) => ({ ...m, id: `${m.id}-${i}`, thread_id: m.thread_id ? `${m.thread_id}-${i}` : "", mailbox: `user${i}@acme.example` })),
  ).flat();
  const writer = new LocalWriter(resolveLocalRoot(dataDir, destination.config.folder));
  try {
    await writeRecords([{ name: "warehouse", writer }], messages, batchMaker(gmailPlugin, { platform: "gmail", sourceId }));
  } finally {
    await writer.close();
  }
  log(`E-mail: ${messages.length.toLocaleString("en-US")} messages written into the warehouse of "Mail on disk".`);
  return { connectorId: connector.id, messages: messages.length };
}

async function seed(cookie: string, dataDir: string, log: Log): Promise<Seeded> {
  // The transcript templates' connector, all through the backend: data generator → local folder, "Sync now".
  const credential = (await must(cookie, "POST", "/externalauth/datagen/callback", {}, [200, 201])).body as { credential_id: string };
  const source = (await must(cookie, "POST", "/sources/create", {
    name: "Acme calls",
    credentialId: credential.credential_id,
    integration_name: "datagen",
    integration_label: "Data Generator",
    source_metadata: { company: "Acme Rockets", format: "zoom", meetings_per_day: MEETINGS_PER_DAY },
  }, [201])).body as { id: string };
  const destination = (await must(cookie, "POST", "/destinations/create", { name: "Calls on disk", integration_name: "local" }, [201])).body.destination as { id: string };
  const connector = (await must(cookie, "POST", "/connectors/create", { name: "Calls to disk", description: "", source_id: source.id, destination_ids: [destination.id], frequency: "daily", lookback_days: LOOKBACK_DAYS, first_sync: false }, [201])).body as { id: string };
  await must(cookie, "PUT", `/connectors/${connector.id}/schedule`, { kind: "manual" }, [200]);
  log(`Sync now: ${MEETINGS_PER_DAY} meetings a day × ${LOOKBACK_DAYS} days into "Calls on disk"…`);
  const t0 = performance.now();
  const sync = (await must(cookie, "POST", `/connectors/${connector.id}/sync`, {}, [202])).body.run as { id: string };
  const synced = await runSucceeded(cookie, "connectors", connector.id, sync.id, 600_000);
  log(`  synced ${synced.records.toLocaleString("en-US")} meetings in ${((performance.now() - t0) / 1000).toFixed(1)} s.`);

  const email = await seedEmail(cookie, dataDir, log);

  const transforms: Seeded["transforms"] = [];
  for (const definition of allDefinitions()) {
    const isEmail = definition.category === "email_insights";
    const created = (await must(cookie, "POST", "/transforms/create", {
      template_id: definition.id,
      name: definition.name,
      description: "",
      connector_id: isEmail ? email.connectorId : connector.id,
      permissions_setup: true,
      frequency: "daily",
      file_types: isEmail ? [".txt", ".json"] : [".vtt", ".txt"],
    }, [201])).body as { transform_id: string; run_id: string | null };
    if (!created.run_id) throw new Error(`POST /transforms/create of ${definition.id} queued no first run.`);
    await must(cookie, "PUT", `/transforms/${created.transform_id}/schedule`, { kind: "manual" }, [200]);
    // One at a time: each run has the worker (and the local warehouse) to itself.
    const started = performance.now();
    const run = await runSucceeded(cookie, "transforms", created.transform_id, created.run_id, 600_000);
    const runSeconds = (performance.now() - started) / 1000;
    log(`${definition.name}: first run succeeded in ${runSeconds.toFixed(1)} s (${run.records.toLocaleString("en-US")} read; result rows ${(run.outputs ?? []).map((o) => o.rows.toLocaleString("en-US")).join(" / ")}).`);
    transforms.push({ definition, id: created.transform_id, records: run.records, outputs: run.outputs ?? [], runSeconds });
  }
  return { meetings: synced.records, messages: email.messages, transforms };
}

/* ---- the measurement ------------------------------------------------------------------------------------------ */

export interface ResultsPageRow {
  template: string;
  charts: number;
  rowsDrawn: string;
  page: Timing;
  /** The first request of the page: the run's results read from the warehouse and drawn (later views are kept). */
  firstMs: number;
  htmlBytes: number;
  wireBytes: number;
  js: PageJs;
  backend: { charts: Timing; results: Timing; runCharts: Timing; tables: number; whole: Timing; charted: number; plain: Timing };
  /** Whether the HTML's loader data (Remix's inline scripts, for hydration) holds the charts' SVG again. */
  svgInLoaderData: boolean;
  /** CPU milliseconds per measured page, by part of the product; and the CPUs other processes used meanwhile. */
  cpu: { app: number; backend: number; postgres: number; others: number };
}

export interface ResultsPagesReport {
  rows: ResultsPageRow[];
  listPages: PageJs[];
  /** Files the results page loads that no list page does. */
  onlyOnResults: PageJs["files"];
  /** Files of the results page whose code holds the charting library (Vega), if any. */
  vegaFiles: string[];
  /** Files of the results page holding the charts' component (it places the server's SVG in the page). */
  chartComponentFiles: PageJs["files"];
  seeded: { meetings: number; messages: number };
  markdown: string;
  pass: boolean;
}

/** Seeds the signed-in user's data on the running `product`, runs every template once, and measures its results page. */
export async function measureResultsPages(product: Product, log: Log = (line) => console.log(`[results-pages] ${line}`)): Promise<ResultsPagesReport> {
  const user = { name: "Results Reader", email: `results-${Date.now()}@example.com` };
  log(`Signing in as ${user.email} with Chromium…`);
  const session = await signIn(APP_URL, user.name, user.email);
  const cookie = `${session.cookieHeader}; tz=${encodeURIComponent(TIME_ZONE)}`;
  const document = {
    cookie,
    "user-agent": CHROME_UA,
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "accept-encoding": "gzip, deflate, br, zstd",
    "accept-language": "en-US,en;q=0.9",
  };
  const seeded = await seed(session.cookieHeader, product.dataDir, log);

  const rows: ResultsPageRow[] = [];
  for (const t of seeded.transforms) {
    const d = t.definition;
    const url = `${APP_URL}/transforms/details/${t.id}`;
    // The page is the results page: 200, every chart of the template drawn, no chart error.
    const first = await timedGet(url, document);
    const html = first.body.toString("utf8");
    if (first.status !== 200) throw new Error(`GET /transforms/details/${t.id} (${d.name}) answered ${first.status}.`);
    const missing = d.charts.filter((chart) => !html.includes(`id="chart-${chart.id}"`));
    if (missing.length) throw new Error(`The ${d.name} results page lacks its charts ${missing.map((c) => c.id).join(", ")}.`);
    if (html.includes("Failed to draw the charts")) throw new Error(`The ${d.name} results page says it failed to draw its charts.`);

    await waitForQuiet(QUIET_WAIT, product.dataDir);
    log(`${d.name}: GET /transforms/details/… × ${WARM} + ${MEASURED}, one after another…`);
    let bytes = { html: 0, wire: 0 };
    let cpuBefore: CpuSample | null = null;
    let done = 0;
    const page = await repeat(async () => {
      if (done === WARM) cpuBefore = sampleCpu(product.pid);
      done++;
      const got = await timedGet(url, document);
      if (got.status !== 200) throw new Error(`GET /transforms/details/${t.id} (${d.name}) answered ${got.status}.`);
      bytes = { html: got.body.length, wire: got.wireBytes };
      return got.ms;
    });
    const used = cpuDelta(cpuBefore!, sampleCpu(product.pid));

    // Where the time goes: the backend calls that charts and results add to the page's loader, alone.
    const api = { cookie, accept: "application/json" };
    const zone = encodeURIComponent(TIME_ZONE);
    const backendGet = async (route: string) => {
      const got = await timedGet(`${BACKEND_URL}${route}`, api);
      if (got.status !== 200) throw new Error(`GET ${route} answered ${got.status}: ${got.body.toString("utf8").slice(0, 300)}`);
      return got.ms;
    };
    const charts = await repeat(() => backendGet(`/transforms/${t.id}/charts?tz=${zone}`));
    const results = await repeat(async () => {
      let sum = 0;
      for (const output of t.outputs) sum += await backendGet(`/transforms/${t.id}/results?table=${encodeURIComponent(output.table)}&limit=5`);
      return sum;
    });
    const runCharts = await repeat(() => backendGet(`/transforms/${t.id}/runs/charts?tz=${zone}`));
    // What the charts call reads before it draws: each chart's table whole, once per chart, as drawCharts reads it (the
    // table's CSV download reads the same rows, opening the warehouse as each read does).
    const charted = d.charts.map((chart) => t.outputs.find((o) => o.table.endsWith(`_${chart.table}`))?.table).filter((table): table is string => Boolean(table));
    const whole = await repeat(async () => {
      let sum = 0;
      for (const table of charted) sum += await backendGet(`/transforms/${t.id}/results/download?table=${encodeURIComponent(table)}`);
      return sum;
    });
    // A backend call of the same session that reads no warehouse: what any call costs.
    const plain = await repeat(() => backendGet(`/transforms/${t.id}`));
    const js = await firstLoadJs(APP_URL, `/transforms/details/${t.id}`, document);
    if (js.status !== 200) throw new Error(`First-load JS of the ${d.name} results page: GET answered ${js.status}.`);

    const rowsDrawn = d.charts.map((chart) => (t.outputs.find((o) => o.table.endsWith(`_${chart.table}`))?.rows ?? 0).toLocaleString("en-US")).join(" / ");
    const row: ResultsPageRow = {
      template: d.name,
      charts: d.charts.length,
      rowsDrawn,
      page,
      firstMs: first.ms,
      htmlBytes: bytes.html,
      wireBytes: bytes.wire,
      js,
      backend: { charts, results, runCharts, tables: t.outputs.length, whole, charted: charted.length, plain },
      svgInLoaderData: /<script\b[^>]*>[^<]*svgCompact/.test(html),
      cpu: { app: used.app / MEASURED, backend: used.backend / MEASURED, postgres: used.postgres / MEASURED, others: outsideCores(used) },
    };
    rows.push(row);
    log(
      `  page p50 ${ms(page.p50)}, p95 ${ms(page.p95)} (${kb(bytes.html)} HTML); backend alone: charts p50 ${ms(charts.p50)}, results (${t.outputs.length} tables) p50 ${ms(results.p50)}, ` +
        `run history charts p50 ${ms(runCharts.p50)}, charted tables read whole p50 ${ms(whole.p50)}, /transforms/:id p50 ${ms(plain.p50)}; other processes ${row.cpu.others.toFixed(2)} CPUs`,
    );
  }

  // First-load JavaScript: the list pages beside a results page, and what only the results page loads.
  const listPages: PageJs[] = [];
  for (const page of LIST_PAGES) {
    const js = await firstLoadJs(APP_URL, page, document);
    if (js.status !== 200) throw new Error(`GET ${page} answered ${js.status}.`);
    listPages.push(js);
  }
  const heaviestResults = rows.reduce((a, b) => (b.js.gzip > a.js.gzip ? b : a)).js;
  const onList = new Set(listPages.flatMap((p) => p.files.map((f) => f.url)));
  const onlyOnResults = heaviestResults.files.filter((f) => !onList.has(f.url));
  const vegaFiles: string[] = [];
  const chartComponentFiles: PageJs["files"] = [];
  for (const file of heaviestResults.files) {
    const code = await (await fetch(file.url, { headers: { "accept-encoding": "identity" } })).text();
    if (/\bvega\b|vega-lite|vega-scenegraph/i.test(code)) vegaFiles.push(new URL(file.url).pathname);
    if (code.includes('"data-chart"')) chartComponentFiles.push(file);
  }
  agent.destroy();

  const pass = rows.every((r) => r.page.p50 <= RESULTS_PAGE_TARGETS.p50Ms) && listPages.every((p) => p.gzip <= RESULTS_PAGE_TARGETS.jsKb * 1024);
  const report = { rows, listPages, onlyOnResults, vegaFiles, chartComponentFiles, seeded: { meetings: seeded.meetings, messages: seeded.messages }, pass, markdown: "" };
  report.markdown = resultsPagesMarkdown(report, heaviestResults);
  return report;
}

const onAList = (r: Pick<ResultsPagesReport, "listPages">, file: PageJs["files"][number]) => r.listPages.some((p) => p.files.some((f) => f.url === file.url));

function resultsPagesMarkdown(r: Omit<ResultsPagesReport, "markdown">, heaviest: PageJs): string {
  const t = RESULTS_PAGE_TARGETS;
  const worst = r.rows.reduce((a, b) => (b.page.p50 > a.page.p50 ? b : a));
  const over = r.rows.filter((row) => row.page.p50 > t.p50Ms);
  const noisy = Math.max(...r.rows.map((row) => row.cpu.others));
  const listKb = (p: PageJs) => `${p.path} ${kb(p.gzip)}`;
  // A list page over the budget: the files it loads that the lightest list page does not.
  const lightest = r.listPages.reduce((a, b) => (b.gzip < a.gzip ? b : a));
  const overBudget = r.listPages.filter((p) => p.gzip > t.jsKb * 1024);
  const whyOver = overBudget.map((p) => {
    const extra = p.files.filter((f) => !lightest.files.some((l) => l.url === f.url));
    return `${p.path} loads ${extra.map((f) => `${new URL(f.url).pathname} (${kb(f.gzip)})`).join(", ") || "no file"} beyond ${lightest.path}'s`;
  });
  const lines = [
    mdTable(
      ["template", "charts", "page p50", "p95", `≤ ${t.p50Ms} ms`, "first view", "HTML (on the wire)", "first-load JS (gzip)"],
      r.rows.map((row) => [row.template, String(row.charts), ms(row.page.p50), ms(row.page.p95), row.page.p50 <= t.p50Ms ? "ok" : "**FAIL**", ms(row.firstMs), `${kb(row.htmlBytes)} (${kb(row.wireBytes)})`, kb(row.js.gzip)]),
    ),
    "",
    `${over.length ? `Over the target: ${over.map((row) => `${row.template} (${ms(row.page.p50)})`).join(", ")}.` : "Every template's results page is rendered within the target."} The slowest p50: ${worst.template}, ${ms(worst.page.p50)}.${noisy > 0.25 ? ` Other processes used up to ${noisy.toFixed(2)} of ${os.availableParallelism()} CPUs while pages were measured: the figures are pessimistic.` : ""}`,
    "",
    "A run's drawn results (its charts and each table's first rows) are kept by the API process that drew them, under the run (backend/http/transforms.ts): the p50 and p95 are those of a page looked at again. The first view of a run's results reads the warehouse and draws them (one request each, the \"first view\" column, which also holds that process's first use of the template's code); the backend calls below are each alone, uncached except /transforms/:id/charts.",
    "",
    "Where a page's time goes: the backend calls that charts and results add to its loader, each alone (p50, one after another, 5 + 30), and the CPU a measured page cost each part of the product. /transforms/:id/charts reads each chart's table whole from the warehouse (opening it for each chart), then draws: \"its tables read whole\" is the same reads through /transforms/:id/results/download (which also writes them as CSV), so the charts call less that is about the draw (the draw alone is below). /transforms/:id/results reads the first 5 rows of each result table, as the page does, each read opening the warehouse; /transforms/:id reads no warehouse: what any backend call of the page costs. The loader asks for the charts and the result tables at the same time, after the run history, and the run-history charts beside the transform; the session check and the record's authors are those of any details page.",
    "",
    mdTable(
      ["template", "rows drawn from", "/transforms/:id/charts", "its tables read whole (reads)", "/transforms/:id/results (tables)", "/transforms/:id/runs/charts", "/transforms/:id (no warehouse)", "CPU per page: app · backend · Postgres", "other processes"],
      r.rows.map((row) => [
        row.template,
        row.rowsDrawn,
        ms(row.backend.charts.p50),
        `${ms(row.backend.whole.p50)} (${row.backend.charted})`,
        `${ms(row.backend.results.p50)} (${row.backend.tables})`,
        ms(row.backend.runCharts.p50),
        ms(row.backend.plain.p50),
        `${row.cpu.app.toFixed(1)} · ${row.cpu.backend.toFixed(1)} · ${row.cpu.postgres.toFixed(1)} ms`,
        `${row.cpu.others.toFixed(2)} CPUs`,
      ]),
    ),
    "",
    `First-load JavaScript (gzip, bench/lib/js-size.ts): the list pages ${r.listPages.map(listKb).join(", ")} (target ≤ ${t.jsKb} KB: ${overBudget.length ? `**FAIL**: ${whyOver.join("; ")}` : "ok"}); the heaviest results page ${kb(heaviest.gzip)} in ${heaviest.files.length} files, of which ${r.onlyOnResults.length ? r.onlyOnResults.map((f) => `${new URL(f.url).pathname} (${kb(f.gzip)})`).join(", ") : "none"} ${r.onlyOnResults.length === 1 ? "is" : "are"} loaded by no list page. ${r.vegaFiles.length ? `The charting library (Vega) is in ${r.vegaFiles.join(", ")}.` : "No file holds the charting library (Vega): the charts are SVG drawn by the server."} ${r.chartComponentFiles.length ? `The charts' component, which only places the server's SVG, is in ${r.chartComponentFiles.map((f) => `${new URL(f.url).pathname} (${kb(f.gzip)} gzip with the code it is bundled with${onAList(r, f) ? ", also loaded by a list page" : ", loaded by no list page"})`).join(", ")}.` : "No file holds the charts' component."} ${r.rows.some((row) => row.svgInLoaderData) ? `The HTML carries each chart's SVG twice, in the markup and again in Remix's loader data for hydration (the heaviest page's inline scripts: ${kb(heaviest.inline.raw)} raw, ${kb(heaviest.inline.gzip)} gzip; part of the HTML above, not counted as JavaScript).` : `Inline scripts of the heaviest page (loader data; not counted as JavaScript): ${kb(heaviest.inline.raw)} raw, ${kb(heaviest.inline.gzip)} gzip.`}`,
  ];
  return lines.join("\n");
}

/** The method, for the section's text. */
export const RESULTS_PAGES_METHOD = `The product runs as in the pages part (built app and backend on the embedded Postgres, fresh data folder); a user signed in through the local OpenID provider has, made through the backend's routes, a data-generator source at 1× (${MEETINGS_PER_DAY} meetings a day, a ${LOOKBACK_DAYS}-day window) synced by "Sync now" into a local folder, and a Gmail source (stored straight into the database: its real path needs Google) whose local warehouse holds the tests' e-mail sample ${MAILBOXES} times over (about 1,000 messages, written straight in); one transform per template through POST /transforms/create, whose first run, by the product's worker, succeeded. Then, per template, GET /transforms/details/<id> as a browser without JavaScript asks (its cookies, time zone ${TIME_ZONE}, Accept-Encoding: gzip, deflate, br, zstd), one request after another on one keep-alive connection, ${WARM} warm-up and ${MEASURED} measured: the time from sending the request to the answer's last byte. Every answer is 200 and holds each of the template's charts. \`bench/results-pages.ts\` (its header says how).`;

// `npx tsx bench/results-pages.ts`: the product started and stopped around one measurement.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let product: Product | undefined;
  let code = 0;
  try {
    product = await startProduct(root, (line) => console.error(line), { onLaunched: (launched) => (product = launched) });
    const report = await measureResultsPages(product, (line) => console.error(`[results-pages] ${line}`));
    console.log(`${RESULTS_PAGES_METHOD}\n\n${report.markdown}`);
  } catch (error) {
    code = 1;
    console.error(`[results-pages] FAILED: ${(error as Error).stack ?? String(error)}`);
    if (product) console.error(`[results-pages] The product's log is kept at ${product.logFile}.`);
  } finally {
    await product?.stop({ keepData: code !== 0 || Boolean(process.env.BENCH_KEEP_DATA) });
  }
  process.exit(code);
}
