/**
 * `npm run bench`: reproducible performance figures of Tributary's list pages.
 *
 * Starts the product as `npm start` does (fresh data folder, own ports), signs
 * in through the local OpenID provider with Chromium, seeds 1,000 connectors
 * for that user, then measures with autocannon:
 *   - GET /connectors (Remix SSR through the backend) and a static asset of the
 *     same server at 50 connections: requests/s and their ratio (target ≥ 0.3);
 *   - GET /connectors at 10 connections: p50/p95 latency (target p95 ≤ 50 ms);
 *   - the gzipped first-load JavaScript of the four list pages (target ≤ 90 KB).
 * Prints a table and writes bench/RESULTS.md. Exits 0 when the figures were
 * measured, even if a target is missed (it is a report); 1 when they could not be.
 *
 * Then (issue 5) the sync throughput benchmark, bench/sync.ts, (issue 52) the hourly incremental sync after 1×, 10× and
 * 100× history, bench/incremental.ts, and (issues 6, 37) one run of every transform template
 * at 1×, 10× and 100× synced transcripts, bench/transform.ts, and (issue 54) the charts: every template's whole results
 * page through the started product, bench/results-pages.ts, beside its charts' draw alone, bench/charts.ts; the sections a run produces replace their own in
 * bench/RESULTS.md (bench/lib/results.ts), and the others stay.
 *
 * Environment: BENCH_PARTS (default "pages,sync,incremental,transforms,charts,schedule") picks the parts, BENCH_SECONDS (default 10) per timed run, BENCH_CONNECTORS
 * (default 1000), BENCH_QUIET_WAIT (default 60) seconds to wait for other
 * processes to leave the CPUs before each timed section (0: do not wait),
 * BENCH_BUILD_DIR (default node_modules/.cache/tributary-bench/build),
 * BENCH_KEEP_DATA=1 keeps the data folder and product log, BENCH_NO_WRITE=1
 * skips writing RESULTS.md.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { APP_URL, BACKEND_URL, DATABASE_URL, benchBuildDir, startProduct, type Product } from "./lib/product.js";
import { signIn } from "./lib/sign-in.js";
import { seedConnectors } from "./lib/seed.js";
import { alternate, load, problems, type LoadResult } from "./lib/load.js";
import { firstLoadJs, type PageJs } from "./lib/js-size.js";
import { cpuDelta, outsideCores, sampleCpu, sumCpu, type CpuSample } from "./lib/cpu.js";
import { describeMachine, kb, mdTable, ms, rps, textTable, type Target } from "./lib/report.js";
import { runSyncBench } from "./sync.js";
import { runIncrementalBench } from "./incremental.js";
import { mergeResults } from "./lib/results.js";
import { measureResultsPages, RESULTS_PAGES_METHOD, RESULTS_PAGE_TARGETS } from "./results-pages.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTORS = Number(process.env.BENCH_CONNECTORS ?? 1000);
const LIST_PAGES = ["/connectors", "/sources", "/destinations", "/transforms"];
/** The ratio's two targets alternate in this many slices each (SECONDS / SLICES seconds per slice). */
const SLICES = 2;
const QUIET_WAIT = Number(process.env.BENCH_QUIET_WAIT ?? 60);
const TARGETS = { ratio: 0.3, p95: 50, jsKb: 90 };

const say = (line: string) => console.log(`[bench] ${line}`);
const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** What Chromium sends for a navigation and for a stylesheet/script of the same origin (cookies included). */
function browserHeaders(cookie: string) {
  const common = { cookie, "user-agent": CHROME_UA, "accept-encoding": "gzip, deflate, br, zstd", "accept-language": "en-US,en;q=0.9" };
  return {
    document: { ...common, accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
    asset: { ...common, accept: "*/*" },
  };
}

function mustBeClean(run: LoadResult) {
  const issue = problems(run);
  if (issue) throw new Error(`Load run not usable: ${issue}`);
  return run;
}

async function measured<T>(launcherPid: number, fn: () => Promise<T>): Promise<{ result: T; cpu: CpuSample }> {
  const before = sampleCpu(launcherPid);
  const result = await fn();
  return { result, cpu: cpuDelta(before, sampleCpu(launcherPid)) };
}

/** CPU per request of each part, as "app 3.10 · backend 1.20 · postgres 0.40 · load generator 0.80 ms CPU/req". */
function cpuPerRequest(cpu: CpuSample, requests: number): string {
  const per = (v: number) => (v / Math.max(1, requests)).toFixed(2);
  return `app ${per(cpu.app)} · backend ${per(cpu.backend)} · postgres ${per(cpu.postgres)} · load generator ${per(cpu.loadgen)} ms CPU/req`;
}

/**
 * On a shared machine other processes steal the cores the figures depend on.
 * Wait (up to `maxSeconds`) for a 2-second window in which they use less than
 * `threshold` CPUs, and say how busy it was.
 */
async function waitForQuiet(launcherPid: number, maxSeconds = QUIET_WAIT, threshold = 0.25): Promise<number> {
  if (maxSeconds <= 0) return NaN;
  const end = Date.now() + maxSeconds * 1000;
  let warned = false;
  for (;;) {
    const before = sampleCpu(launcherPid);
    await sleep(2000);
    const busy = outsideCores(cpuDelta(before, sampleCpu(launcherPid)));
    if (busy < threshold) return busy;
    if (Date.now() > end) {
      say(`The machine is still busy (other processes use ${busy.toFixed(2)} CPUs); measuring anyway, figures will be pessimistic.`);
      return busy;
    }
    if (!warned) say(`Other processes use ${busy.toFixed(2)} of ${os.availableParallelism()} CPUs; waiting up to ${maxSeconds} s for a quieter moment…`);
    warned = true;
  }
}

async function main(product: Product): Promise<string> {
  const machine = describeMachine(root);
  const startedAt = new Date();

  // 1. A real sign-in through the local OpenID provider.
  const user = { name: "Bench Marker", email: `bench-${startedAt.getTime()}@example.com` };
  say(`Signing in as ${user.email} with Chromium…`);
  const session = await signIn(APP_URL, user.name, user.email);
  const headers = browserHeaders(session.cookieHeader);

  // 2. 1,000 connectors for that user.
  const seeded = await seedConnectors(DATABASE_URL, user.email, CONNECTORS);
  say(`Seeded ${seeded.connectors} connectors (${seeded.links} destination links), ${seeded.sources} sources, ${seeded.destinations} destinations, ${seeded.transforms} transforms.`);

  // 3. The page is what we think it is: 200, the shell, a full page of connector rows.
  const first = await fetch(`${APP_URL}/connectors`, { headers: headers.document, redirect: "manual" });
  const html = await first.text();
  const rowIds = new Set([...html.matchAll(/href="\/connectors\/details\/([0-9a-f-]{36})"/g)].map((m) => m[1]));
  if (first.status !== 200) throw new Error(`GET /connectors answered ${first.status} (location: ${first.headers.get("location") ?? "-"}), not 200: is the session cookie accepted?`);
  if (rowIds.size < 50 || !/#\d{4}</.test(html)) throw new Error(`GET /connectors has ${rowIds.size} connector rows; expected a full page (50) of the seeded ones.`);
  const htmlBytes = Buffer.byteLength(html);
  say(`GET /connectors: 200, ${rowIds.size} connector rows, ${kb(htmlBytes)} of HTML (${first.headers.get("content-encoding") ?? "identity"} on the wire).`);

  const stylesheet = /<link\b[^>]*rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1] ?? /<link\b[^>]*href="(\/assets\/[^"]+\.css)"[^>]*rel="stylesheet"/.exec(html)?.[1];
  const staticPath = stylesheet ?? /<script\b[^>]*src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? /href="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!staticPath) throw new Error("No /assets/ stylesheet or script found in the page's HTML.");
  const staticCheck = await fetch(`${APP_URL}${staticPath}`, { headers: { "accept-encoding": "identity" } });
  const staticBytes = (await staticCheck.arrayBuffer()).byteLength;
  if (staticCheck.status !== 200) throw new Error(`GET ${staticPath} answered ${staticCheck.status}.`);
  if (!existsSync(path.join(benchBuildDir(root), "client", staticPath))) {
    say(`Warning: ${staticPath} is not in ${path.relative(root, benchBuildDir(root))}: the product ignored TRIBUTARY_BUILD_DIR and serves ./build, which other runs may rebuild meanwhile.`);
  }
  say(`Static asset for comparison: ${staticPath} (${kb(staticBytes)}).`);

  const pageUrl = `${APP_URL}/connectors`;
  const staticUrl = `${APP_URL}${staticPath}`;

  // 4. Warm-up (JIT, connection pools, Postgres caches), not measured.
  say("Warming up (600 + 600 requests)…");
  mustBeClean(await load({ url: pageUrl, connections: 10, amount: 600, headers: headers.document }));
  mustBeClean(await load({ url: staticUrl, connections: 10, amount: 600, headers: headers.asset }));

  // 5. Throughput at 50 connections: page and static in alternating slices
  //    (page, static, page, static), SECONDS in all for each, same headers a browser sends.
  await waitForQuiet(product.pid);
  say(`Throughput at 50 connections: GET /connectors and GET ${staticPath}, alternating ${SLICES} × ${SECONDS / SLICES} s each…`);
  const sliceCpu: [CpuSample[], CpuSample[]] = [[], []];
  let sliceStart = sampleCpu(product.pid);
  const [pageRun, staticRun] = await alternate(
    { url: pageUrl, connections: 50, headers: headers.document },
    { url: staticUrl, connections: 50, headers: headers.asset },
    SECONDS,
    SLICES,
    (which, moment) => {
      if (moment === "start") sliceStart = sampleCpu(product.pid);
      else sliceCpu[which].push(cpuDelta(sliceStart, sampleCpu(product.pid)));
    },
  );
  const pageRps = { result: mustBeClean(pageRun), cpu: sumCpu(sliceCpu[0]) };
  const staticRps = { result: mustBeClean(staticRun), cpu: sumCpu(sliceCpu[1]) };
  say(`  page ${rps(pageRps.result.rps)} (p50 ${ms(pageRps.result.p50)}, p95 ${ms(pageRps.result.p95)}); static ${rps(staticRps.result.rps)} (p50 ${ms(staticRps.result.p50)}, p95 ${ms(staticRps.result.p95)})`);
  const ratio = pageRps.result.rps / staticRps.result.rps;

  // 6. Latency at 10 connections, after a short warm-up at that concurrency.
  await waitForQuiet(product.pid);
  say(`Latency: GET /connectors at 10 connections for ${SECONDS} s…`);
  mustBeClean(await load({ url: pageUrl, connections: 10, amount: 300, headers: headers.document }));
  const latency = await measured(product.pid, async () => mustBeClean(await load({ url: pageUrl, connections: 10, seconds: SECONDS, headers: headers.document })));
  say(`  p50 ${ms(latency.result.p50)}, p95 ${ms(latency.result.p95)}, p99 ${ms(latency.result.p99)} (${rps(latency.result.rps)})`);

  // 6b. The same page rendered for every request: a hard reload's Cache-Control: no-cache passes the page cache by.
  //     What a page costs the first time after a change; the targets above are measured as a browser asks.
  const uncachedHeaders = { ...headers.document, "cache-control": "no-cache", pragma: "no-cache" };
  const kept = await fetch(pageUrl, { headers: headers.document });
  await kept.arrayBuffer();
  const cacheState = kept.headers.get("x-page-cache") === "hit" ? "answered from the page cache" : "rendered (not from the page cache)";
  await waitForQuiet(product.pid);
  say(`Rendered every time (Cache-Control: no-cache): 50 connections, then 10, ${SECONDS / 2} s each…`);
  mustBeClean(await load({ url: pageUrl, connections: 10, amount: 300, headers: uncachedHeaders }));
  const uncachedRps = await measured(product.pid, async () => mustBeClean(await load({ url: pageUrl, connections: 50, seconds: SECONDS / 2, headers: uncachedHeaders })));
  const uncachedLatency = mustBeClean(await load({ url: pageUrl, connections: 10, seconds: SECONDS / 2, headers: uncachedHeaders }));
  say(`  ${rps(uncachedRps.result.rps)} at 50 (${(uncachedRps.result.rps / staticRps.result.rps).toFixed(2)} of static); p50 ${ms(uncachedLatency.p50)}, p95 ${ms(uncachedLatency.p95)} at 10`);

  // 7. Breakdown: the backend calls the page's loaders make, alone, at the same concurrency.
  const apiHeaders = { cookie: session.cookieHeader, accept: "application/json" };
  const breakdownSeconds = Math.max(2, Math.round(SECONDS / 2));
  say(`Breakdown: the backend's calls alone at 10 connections for ${breakdownSeconds} s each…`);
  const backendList = mustBeClean(await load({ url: `${BACKEND_URL}/connectors/list?page=1&page_size=50`, connections: 10, seconds: breakdownSeconds, headers: apiHeaders }));
  const backendSession = mustBeClean(await load({ url: `${BACKEND_URL}/validate-session`, connections: 10, seconds: breakdownSeconds, headers: apiHeaders }));
  say(`  /connectors/list p50 ${ms(backendList.p50)} (${rps(backendList.rps)}), /validate-session p50 ${ms(backendSession.p50)} (${rps(backendSession.rps)})`);

  // 8. First-load JavaScript of each list page.
  say("First-load JavaScript of the list pages…");
  const pages: PageJs[] = [];
  for (const page of LIST_PAGES) {
    const js = await firstLoadJs(APP_URL, page, headers.document);
    if (js.status !== 200) throw new Error(`GET ${page} answered ${js.status}.`);
    pages.push(js);
  }
  const heaviest = pages.reduce((a, b) => (b.gzip > a.gzip ? b : a));
  const timed = [pageRps.cpu, staticRps.cpu, latency.cpu];
  const noise = Math.max(...timed.map(outsideCores));

  // 9. Report.
  const targets: Target[] = [
    { name: "Requests/s ratio, /connectors ÷ static (50 conn.)", value: ratio.toFixed(2), target: `≥ ${TARGETS.ratio}`, pass: ratio >= TARGETS.ratio },
    { name: "p95 latency of /connectors (10 conn.)", value: ms(latency.result.p95), target: `≤ ${TARGETS.p95} ms`, pass: latency.result.p95 <= TARGETS.p95 },
    ...pages.map((p) => ({ name: `First-load JS of ${p.path} (gzip)`, value: kb(p.gzip), target: `≤ ${TARGETS.jsKb} KB`, pass: p.gzip <= TARGETS.jsKb * 1024 })),
  ];
  const figures: [string, string][] = [
    ["GET /connectors, 50 connections", `${rps(pageRps.result.rps)} (p50 ${ms(pageRps.result.p50)}, p95 ${ms(pageRps.result.p95)}, ${pageRps.result.requests} requests)`],
    [`GET ${staticPath}, 50 connections`, `${rps(staticRps.result.rps)} (p50 ${ms(staticRps.result.p50)}, p95 ${ms(staticRps.result.p95)}, ${staticRps.result.requests} requests)`],
    ["GET /connectors, 10 connections", `p50 ${ms(latency.result.p50)}, p95 ${ms(latency.result.p95)}, p99 ${ms(latency.result.p99)}, ${rps(latency.result.rps)}`],
    ["  other processes on the machine", `${timed.map((c) => outsideCores(c).toFixed(2)).join(" / ")} CPUs during the page / static / latency runs (of ${os.availableParallelism()})`],
    ["  CPU per request at 50 conn. (page)", cpuPerRequest(pageRps.cpu, pageRps.result.requests)],
    ["  CPU per request at 50 conn. (static)", cpuPerRequest(staticRps.cpu, staticRps.result.requests)],
    ["GET /connectors after warm-up", cacheState],
    ["  rendered every time (no-cache), 50 conn.", `${rps(uncachedRps.result.rps)} (${(uncachedRps.result.rps / staticRps.result.rps).toFixed(2)} of static; p50 ${ms(uncachedRps.result.p50)}, p95 ${ms(uncachedRps.result.p95)})`],
    ["  rendered every time (no-cache), 10 conn.", `p50 ${ms(uncachedLatency.p50)}, p95 ${ms(uncachedLatency.p95)}, p99 ${ms(uncachedLatency.p99)}, ${rps(uncachedLatency.rps)}`],
    ["  CPU per request, rendered every time (50 conn.)", cpuPerRequest(uncachedRps.cpu, uncachedRps.result.requests)],
    ["  backend /connectors/list alone, 10 conn.", `p50 ${ms(backendList.p50)}, p95 ${ms(backendList.p95)}, ${rps(backendList.rps)}`],
    ["  backend /validate-session alone, 10 conn.", `p50 ${ms(backendSession.p50)}, p95 ${ms(backendSession.p95)}, ${rps(backendSession.rps)}`],
    ["  /connectors HTML (1 page of 50 rows)", `${kb(htmlBytes)} uncompressed, ${kb(pageRps.result.meanBytes)} per answer on the wire`],
  ];

  console.log("");
  console.log(textTable(["Figure", "Value", "Target", "Result"], targets.map((t) => [t.name, t.value, t.target, t.pass ? "PASS" : "FAIL"])));
  console.log("");
  console.log(textTable(["Measurement", "Value"], figures));
  console.log("");
  console.log(textTable(["Page", "JS files", "raw", "gzip", "inline scripts in the HTML (not counted)"], pages.map((p) => [p.path, String(p.files.length), kb(p.raw), kb(p.gzip), `${kb(p.inline.raw)} raw, ${kb(p.inline.gzip)} gzip`])));
  console.log("");
  const missed = targets.filter((t) => !t.pass);
  if (noise > 0.25) say(`Note: other processes used up to ${noise.toFixed(2)} CPUs during the timed runs; the throughput and latency figures are pessimistic.`);
  if (missed.length) say(`Targets missed: ${missed.map((t) => `${t.name} = ${t.value} (target ${t.target})`).join("; ")}.`);
  else say("All targets met.");

  return resultsMarkdown({ startedAt, machine, seeded, targets, figures, pages, heaviest, staticPath, noise, pageRps: pageRps.result, staticRps: staticRps.result, latency: latency.result });
}

function resultsMarkdown(r: {
  startedAt: Date;
  machine: ReturnType<typeof describeMachine>;
  seeded: Awaited<ReturnType<typeof seedConnectors>>;
  targets: Target[];
  figures: [string, string][];
  pages: PageJs[];
  heaviest: PageJs;
  staticPath: string;
  noise: number;
  pageRps: LoadResult;
  staticRps: LoadResult;
  latency: LoadResult;
}): string {
  const m = r.machine;
  return `# Benchmark results

Produced by \`npm run bench\` (\`tsx bench/run.ts\`); the numbers below are from the last run and are overwritten by the next.

- **Date:** ${r.startedAt.toISOString().slice(0, 10)} (${r.startedAt.toISOString().slice(11, 16)} UTC)
- **Machine:** ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB RAM, ${m.os}
- **Node:** ${m.node}; commit ${m.commit}
- **Command:** \`npm run bench\` — load generator, Remix server, backend and Postgres all share these ${m.cpus} CPUs
- **Data:** one user with ${r.seeded.connectors.toLocaleString("en-US")} connectors (${r.seeded.links.toLocaleString("en-US")} destination links), ${r.seeded.sources} sources, ${r.seeded.destinations} destinations, ${r.seeded.transforms} transforms

## Targets
${r.noise > 0.25 ? `\n> **The machine was busy:** other processes used up to ${r.noise.toFixed(2)} of ${m.cpus} CPUs during the timed runs, so the requests/s and latency figures are pessimistic (the ratio, measured in alternating slices, and the CPU per request suffer least). Run again on a quiet machine for the real figures.\n` : ""}
${mdTable(["Figure", "Value", "Target", "Result"], r.targets.map((t) => [t.name, t.value, t.target, t.pass ? "PASS" : "**FAIL**"]))}

## Measurements

${mdTable(["Measurement", "Value"], r.figures.map(([a, b]) => [a.trim(), b]))}

## First-load JavaScript (gzip, zlib default level; 1 KB = 1,024 bytes)

${mdTable(["Page", "Files", "Raw", "Gzip", "Inline scripts in the HTML (not counted)"], r.pages.map((p) => [p.path, String(p.files.length), kb(p.raw), kb(p.gzip), `${kb(p.inline.raw)} raw, ${kb(p.inline.gzip)} gzip`]))}

Files of the heaviest page (${r.heaviest.path}):

${mdTable(["File", "Raw", "Gzip", "Found via"], r.heaviest.files.map((f) => [new URL(f.url).pathname, kb(f.raw), kb(f.gzip), f.via === "html" ? "HTML" : "static import"]))}

## How each figure is measured

- **Start-up:** \`node --import tsx scripts/start.ts\` exactly as \`npm start\` (builds the app if stale, embedded Postgres, backend with workers, Remix server behind Express with \`compression\`), with a fresh \`DATA_DIR\`, its own build folder (\`TRIBUTARY_BUILD_DIR=node_modules/.cache/tributary-bench/build\`, so another run's rebuild of \`./build\` cannot swap assets mid-run) and ports 3200 (app), 4200 (backend), 4201 (local OpenID provider), 54349 (Postgres). \`NODE_ENV\` is left unset, as \`npm start\` runs it (the local provider refuses production). Stopped with SIGTERM at the end.
- **Sign-in:** Chromium (\`/usr/bin/chromium\`, headless) clicks "Continue with Google", fills the local provider's form, and lands on /connectors; the browser's \`__tributary\` and \`tributary_session\` cookies become the Cookie header of every request below.
- **Seed:** multi-row INSERTs straight into Postgres for that user (created_at spread over a year, 1–2 destinations per connector, deterministic PRNG; each connector and transform with the run of its latest scheduled slot, so that the scheduler queues only the runs whose slot comes during the benchmark, as in an account whose schedules have been running), then \`ANALYZE\`. Before measuring, GET /connectors must answer 200 with a full page (50) of connector rows.
- **Shared machine:** before each timed section the harness waits (up to ${QUIET_WAIT} s) until processes outside the benchmark use less than 0.25 CPU, and reports how much they used during each run ("other processes"): anything well above 0 means the throughput and latency figures are pessimistic.
- **Requests/s ratio:** autocannon (programmatic API), 50 keep-alive connections, closed loop, on GET /connectors and on \`${r.staticPath}\` (the page's stylesheet, served by the same Express server), alternating in ${SLICES} slices of ${SECONDS / SLICES} s each (page, static, page, static: ${Math.round(r.pageRps.seconds)} s in all per URL), so a burst of other work on the machine weighs on both alike. Both carry the headers Chromium sends (cookies, \`Accept-Encoding: gzip, deflate, br, zstd\`): the stylesheet is sent as compressed with brotli at build time, a rendered page is compressed per request and a kept one once per page, as a browser gets them). Requests/s counts the answers after the first second of each slice over the remaining time (steady state, without connection set-up); the figure is page ÷ static. Preceded by 600 + 600 warm-up requests. Every answer must be 2xx with no errors or timeouts, or the run fails.
- **Page cache:** the web server keeps a rendered list page while the user's data version is unchanged (\`scripts/page-cache.ts\`), so after the first request in each web server process the page runs above are answered from it, after a session check with the backend ("GET /connectors after warm-up" says what one more request got). The "rendered every time" rows send \`Cache-Control: no-cache\` (a hard reload), which passes the cache by: what a page costs the first time after a change. ${SECONDS / 2} s at 50 connections (its ratio uses the static run above), then ${SECONDS / 2} s at 10, after 300 warm-up requests.
- **Latency:** the same page at 10 connections for ${Math.round(r.latency.seconds)} s after 300 more warm-up requests; p50/p95/p99 are exact percentiles over every response time autocannon reported (its own histogram has no p95).
- **CPU per request:** utime+stime from /proc of each process under the launcher (Remix server, backend, Postgres) and of the benchmark process itself (the load generator), over the run, divided by the requests served. It shows where the cores go.
- **Backend alone:** the two calls a /connectors render makes (\`GET /validate-session\` from the layout's \`requireUser\`, \`GET /connectors/list?page=1&page_size=50\` from the route's loader), sent straight to the backend with the same cookie at 10 connections; the difference to the page's latency is the Remix server's own work.
- **First-load JS:** for each list page, the HTML is fetched with the session cookie; every \`<script src>\`, \`<link rel="modulepreload">\` and module named by an inline module script (\`import …\` / \`import(…)\`) is collected, and the set is closed over the static imports inside those files (what the browser must download before hydration); each distinct file is fetched once and gzipped with zlib's default level; the sizes are summed. CSS and fonts are not counted; the inline scripts (Remix's route manifest and the streamed loader data) are shown beside it but belong to the HTML document.
`;
}

/**
 * Which parts run: BENCH_PARTS, a comma-separated subset of "pages" (issue 2: the list pages through the
 * started product), "sync" (issue 5: bench/sync.ts), "transforms" (issue 6: bench/transform.ts), "schedule"
 * (issue 36: bench/schedule.ts), "incremental" (issue 52: bench/incremental.ts), "charts" (issue 54: bench/results-pages.ts through the started product, then bench/charts.ts) and "schedule-workers" (issue 36:
 * bench/schedule-workers.ts, two real hours). Default: all but "schedule-workers".
 */
const PARTS = new Set((process.env.BENCH_PARTS ?? "pages,sync,incremental,transforms,charts,schedule").split(",").map((p) => p.trim()));
const sections: string[] = [];

/** A benchmark file run in its own process (each starts its own Postgres): its stdout is the section's markdown. */
function childSection(file: string, announce: string, heading: string): string {
  say(announce);
  const run = spawnSync(process.execPath, ["--import", "tsx", path.join(root, file)], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`${file} failed (exit ${run.status})`);
  console.log(run.stdout);
  return `${heading}\n${run.stdout.replace(/^\s*### /m, "\n### ")}`;
}

const transformSection = () =>
  childSection(
    "bench/transform.ts",
    "Transforms: every template at 1×, 10× and 100× synced transcripts (bench/transform.ts)…",
    "## Transforms (issue 6)\n\nProduced by `bench/transform.ts` (its header says how): at each volume (1× is about 1,000 data-generator transcripts, 100× about 100,000 with 2 million lines) the real sync fills a local destination (DuckDB), then the real runner runs every template once, each in a fresh process (read from the warehouse → analysis → result tables written back). Targets (issue 37): at 100×, each template ≤ 60 s and its process's peak RSS ≤ 1.5× its own at 1×.\n",
  );

/**
 * The charts part (issue 54): the whole results page of every template through the started product
 * (bench/results-pages.ts: the page's time, its HTML, the backend calls behind it, its first-load JavaScript), then the
 * draw alone in process (bench/charts.ts). One section holds both.
 */
async function chartsSection(): Promise<string> {
  say("Charts: every template's results page through the product (bench/results-pages.ts)…");
  say(`Starting Tributary as \`npm start\` does (ports 3200/4200/4201/54349)…`);
  const t0 = Date.now();
  await startProduct(root, (line) => console.log(line), { onLaunched: (launched) => (product = launched) });
  say(`Running after ${((Date.now() - t0) / 1000).toFixed(1)} s (data in ${product!.dataDir}).`);
  const pages = await measureResultsPages(product!, (line) => say(`results pages: ${line}`));
  console.log(pages.markdown);
  say("Stopping Tributary…");
  await product!.stop({ keepData: true });
  if (!process.env.BENCH_KEEP_DATA) leftData.push(product!.dataDir);
  product = undefined;
  const drawn = childSection("bench/charts.ts", "Charts: every template's charts drawn alone over its 1× results (bench/charts.ts)…", "");
  return `## Charts (issue 54)

Target (issue 54): the server renders a page with all of a template's charts in ≤ ${RESULTS_PAGE_TARGETS.p50Ms} ms p50, measured beside the list pages; the list pages' first-load JavaScript stays ≤ ${RESULTS_PAGE_TARGETS.jsKb} KB gzip. The command: \`BENCH_PARTS=charts npm run bench\` (on a quiet machine: the page times are a few requests of one reader, which other work on the cores lengthens).

### Whole results pages

${RESULTS_PAGES_METHOD}

${pages.markdown}

### The charts' draw alone

Produced by \`bench/charts.ts\` (its header says how): all of a template's charts, each drawn at a wide and at a phone's width as its results page asks for them, in process (no HTTP, no database), over the template's results at 1× (140 data-generator meetings a day for 7 days; 1,000 e-mail messages), 5 unmeasured and 30 measured draws. It is the part of the backend's /transforms/:id/charts that drawing takes.

${drawn.trim()}
`;
}

const scheduleSection = () =>
  childSection(
    "bench/schedule.ts",
    "Scheduler: 10,000 hourly connectors, two hours of passes (bench/schedule.ts)…",
    "## Scheduler at 10,000 connectors (issue 36)\n\nProduced by `bench/schedule.ts` (its header says how): the sync scheduler's pass as its job runs it, against a real Postgres and pg-boss, once a minute of a clock moved by hand over two hours of hourly slots; queued runs are marked done between passes.\n",
  );

const scheduleWorkersSection = () =>
  childSection(
    "bench/schedule-workers.ts",
    "Scheduler and workers: 10,000 hourly connectors for two real hours (bench/schedule-workers.ts)…",
    "## Scheduler and workers at 10,000 connectors, in real time (issue 36)\n\nProduced by `bench/schedule-workers.ts` (its header says how): the product's own scheduler process and two worker processes, with their default settings, run 10,000 hourly data-generator connectors for two hours; the delay from each run's slot to a worker starting it comes from the runs table.\n",
  );

// Run: start the product, measure, stop it whatever happens.
let product: Product | undefined;
let exitCode = 0;
/** Data folders of parts that have ended, deleted once every part has run. */
const leftData: string[] = [];
const removeLeftData = () => {
  for (const dir of leftData.splice(0)) rmSync(dir, { recursive: true, force: true });
};
const onSignal = (signal: NodeJS.Signals) => {
  say(`${signal}: stopping Tributary…`);
  void (product?.stop({ keepData: Boolean(process.env.BENCH_KEEP_DATA) }) ?? Promise.resolve()).finally(() => {
    removeLeftData();
    process.exit(130);
  });
};
process.once("SIGINT", onSignal);
process.once("SIGTERM", onSignal);
try {
  if (PARTS.has("pages")) {
    say(`Starting Tributary as \`npm start\` does (ports 3200/4200/4201/54349)…`);
    const t0 = Date.now();
    await startProduct(root, (line) => console.log(line), { onLaunched: (launched) => (product = launched) });
    say(`Running after ${((Date.now() - t0) / 1000).toFixed(1)} s (data in ${product!.dataDir}).`);
    sections.push(await main(product!));
    say("Stopping Tributary…");
    // Its data is deleted at the very end: on ext4, creating files is several times slower for some minutes
    // after many are deleted (docs/decisions/2026-11-22-local-destination.md), and the sync writes files next.
    await product!.stop({ keepData: true });
    if (!process.env.BENCH_KEEP_DATA) leftData.push(product!.dataDir);
    product = undefined;
  }
  if (PARTS.has("sync")) {
    say("Sync throughput: data generator → local destination at 1×, 10×, 100× (bench/sync.ts)…");
    const report = await runSyncBench({ log: (line) => say(`sync: ${line}`) });
    console.log(report.markdown);
    sections.push(
      `## Sync throughput against DuckDB's own bulk load (issue 25)\n\nProduced by \`bench/sync.ts\` (its header says how): a real connector's sync, data generator → local destination (files + DuckDB), first load and re-run of the same window, each in a fresh process, next to DuckDB loading an NDJSON file of exactly the rows the sync wrote into the same tables.\n\n${report.markdown}\n`,
    );
  }
  if (PARTS.has("incremental")) {
    say("Incremental syncs: an hourly sync of an unchanged Zoom source after 1×, 10×, 100× history (bench/incremental.ts)…");
    const report = await runIncrementalBench({ log: (line) => say(`incremental: ${line}`) });
    console.log(report.markdown);
    sections.push(
      `## Incremental syncs: an hourly sync of an unchanged source (issue 52)\n\nProduced by \`bench/incremental.ts\` (its header says how): a Zoom connector (30-day window) against the product's fake Zoom, whose history of 200, 2,000 or 20,000 transcribed meetings a first sync landed; then hourly syncs with nothing new, each in a fresh process as a worker runs it. Targets: the hourly sync's time and peak RSS at 100× ≤ 2× those at 1×, with no transcript downloaded.\n\n${report.markdown}\n`,
    );
  }
  if (PARTS.has("transforms")) sections.push(transformSection());
  if (PARTS.has("charts")) sections.push(await chartsSection());
  if (PARTS.has("schedule")) sections.push(scheduleSection());
  if (PARTS.has("schedule-workers")) sections.push(scheduleWorkersSection());
  if (!process.env.BENCH_NO_WRITE && sections.length) {
    const file = path.join(root, "bench/RESULTS.md");
    // Only the sections this run produced are replaced (bench/lib/results.ts): a run of one part keeps the others.
    writeFileSync(file, mergeResults(existsSync(file) ? readFileSync(file, "utf8") : "", sections.join("\n")));
    say(`Wrote ${path.relative(process.cwd(), file)}.`);
  }
} catch (error) {
  exitCode = 1;
  console.error(`[bench] FAILED: ${(error as Error).stack ?? error}`);
  if (product) console.error(`[bench] The product's log is kept at ${product.logFile}.`);
} finally {
  if (product) {
    say("Stopping Tributary…");
    await product.stop({ keepData: exitCode !== 0 || Boolean(process.env.BENCH_KEEP_DATA) });
    say("Stopped.");
  }
  removeLeftData();
}
process.exit(exitCode);
