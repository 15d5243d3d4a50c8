/**
 * Incremental syncs (issue 52): an hourly sync of an unchanged Zoom source after a history of 1×, 10× and 100× —
 * 200, 2,000 and 20,000 meetings with transcripts in the connector's 30-day window, landed at a local destination by a
 * first sync — against the product's fake Zoom (tests/fakes/zoom.ts, the documented API over loopback), with the real
 * reader and sync engine. Each sync runs in a fresh child process as a worker runs it, so its peak RSS is its own. The
 * figures: the hourly sync's time and peak RSS at each history (target: 100× ÷ 1× ≤ 2 for both), and the transcript
 * downloads and recording listings the fake counted (the hourly ones: 0 downloads, one listing per user).
 *
 * `npx tsx bench/incremental.ts [--scale 1,10,100]` prints a Markdown table and whether the targets are met. Or call
 * runIncrementalBench() (bench/run.ts). Environment: BENCH_INCREMENTAL_RUNS (hourly syncs per history, default 3),
 * BENCH_INCREMENTAL_PG_PORT (54371), BENCH_QUIET_WAIT (60 s at most to wait for a quiet machine before each sync),
 * BENCH_INCREMENTAL_CPU_PROF=<folder> writes each sync child's CPU profile there.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startEmbeddedPostgres } from "../backend/db/embedded.js";
import { applyMigrations } from "../backend/db/migrate.js";
import { connectDatabase } from "../backend/db/client.js";
import { insertCredential, insertSource } from "../backend/db/sources.js";
import { insertConnector } from "../backend/db/connectors.js";
import { users } from "../backend/db/schema.js";
import { SecretBox } from "../backend/lib/crypto.js";
import { syncConnector } from "../backend/sync/index.js";
import { prepareWorkerProcess } from "../backend/jobs/worker-process.js";
import { startFakeZoom, type FakeZoom, type FakeZoomRecording } from "../tests/fakes/zoom.js";
import { waitForQuiet } from "./lib/quiet.js";
import { mdTable } from "./lib/report.js";
import { makeLocalDestination } from "./lib/local-destination.js";

const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), "..");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The fixed end of the history (a UTC midnight): the hourly syncs run in the hours after it. */
const ANCHOR = new Date("2026-11-01T00:00:00Z");
const LOOKBACK_DAYS = 30;
const MEETINGS_AT_1X = 200;
export const INCREMENTAL_TARGETS = { timeGrowth: 2, rssGrowth: 2 };

interface ChildArgs {
  databaseUrl: string;
  dataDir: string;
  secretKey: string;
  connectorId: string;
  until: string;
}

interface SyncFigures {
  seconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
  records: number;
  items: { new: number; changed: number; skipped: number };
}

export interface IncrementalResult {
  scale: number;
  meetings: number;
  history: SyncFigures & { downloads: number; listings: number };
  hourly: (SyncFigures & { downloads: number; listings: number })[];
}

/** One sync of the connector ending at `until`, as a worker process runs it. */
async function childSync(args: ChildArgs): Promise<SyncFigures> {
  await prepareWorkerProcess();
  const handle = connectDatabase(args.databaseUrl, 2);
  try {
    const services = { db: handle.db, secrets: new SecretBox(args.secretKey), config: { DATA_DIR: args.dataDir } };
    const cpu = process.cpuUsage();
    const started = performance.now();
    const outcome = await syncConnector(services, args.connectorId, new Date(args.until));
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return { seconds, cpuSeconds: (used.user + used.system) / 1e6, peakRssBytes: process.resourceUsage().maxRSS * 1024, records: outcome.records, items: outcome.items };
  } finally {
    await handle.close();
  }
}

function runChild(args: ChildArgs): Promise<SyncFigures> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" };
    // BENCH_INCREMENTAL_CPU_PROF=<folder>: each sync child writes a V8 CPU profile there (where its time goes).
    const profile = process.env.BENCH_INCREMENTAL_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_INCREMENTAL_CPU_PROF] : [];
    const proc = spawn(process.execPath, [...profile, "--import", "tsx", here, "--child", JSON.stringify(args)], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (d: Buffer) => (out += d.toString()));
    proc.stderr.on("data", (d: Buffer) => (err += d.toString()));
    proc.once("error", reject);
    proc.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)) as SyncFigures);
      else reject(new Error(`The sync child exited with ${code}: ${err.trim().split("\n").slice(-8).join("\n")}`));
    });
  });
}

/** `count` recordings with a three-line transcript, spread evenly over the window before ANCHOR, hosted in turn by the fake's users. */
function history(zoom: FakeZoom, count: number): FakeZoomRecording[] {
  const span = LOOKBACK_DAYS * DAY - 2 * HOUR;
  return Array.from({ length: count }, (_, i) => {
    const user = zoom.users[i % zoom.users.length]!;
    const host = `${user.first_name} ${user.last_name}`;
    return {
      uuid: Buffer.from(`bench-${count}-${i}`.padEnd(16, "=")).toString("base64"),
      meetingNumber: 83_000_000_000 + i,
      hostId: user.id,
      topic: `${host} / Customer call ${i + 1}`,
      start: new Date(ANCHOR.getTime() - LOOKBACK_DAYS * DAY + HOUR + Math.floor((i * span) / count)),
      durationMinutes: 30,
      cues: [
        { speaker: host, text: "Welcome, thanks for joining.", startMs: 1000, endMs: 3500 },
        { speaker: "Dana Customer (Globex)", text: "Happy to be here; we have questions about pricing.", startMs: 4000, endMs: 8000 },
        { speaker: host, text: "Let's go through them one by one.", startMs: 8500, endMs: 11000 },
      ],
    };
  });
}

/** Tokens as the product stores them after Zoom's OAuth: the fake's own authorization code exchanged at its token endpoint. */
async function zoomTokens(zoom: FakeZoom) {
  const redirectUri = "http://localhost:3000/sources/add/zoom";
  const response = await fetch(`${zoom.oauthBaseUrl}/oauth/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${zoom.clientId}:${zoom.clientSecret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code: zoom.issueCode(redirectUri), redirect_uri: redirectUri }),
  });
  const body = (await response.json()) as { access_token: string; refresh_token: string; expires_in: number; scope: string };
  return { access_token: body.access_token, refresh_token: body.refresh_token, expires_at: Date.now() + body.expires_in * 1000, scope: body.scope };
}

const counted = (zoom: FakeZoom) => ({
  downloads: zoom.requests.filter((r) => r.path.startsWith("/rec/download/")).length,
  listings: zoom.requests.filter((r) => r.path.endsWith("/recordings")).length,
});

export async function runIncrementalBench(options: { scales?: number[]; runs?: number; log?: (line: string) => void } = {}): Promise<{ results: IncrementalResult[]; markdown: string; pass: boolean }> {
  const log = options.log ?? ((line: string) => console.error(`[bench:incremental] ${line}`));
  const scales = options.scales ?? [1, 10, 100];
  const runs = options.runs ?? Number(process.env.BENCH_INCREMENTAL_RUNS ?? 3);
  const pgPort = Number(process.env.BENCH_INCREMENTAL_PG_PORT ?? 54371);
  const quietWait = Number(process.env.BENCH_QUIET_WAIT ?? 60);
  const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-bench-incremental-"));
  const dataDir = path.join(folder, "data");
  const server = await startEmbeddedPostgres({ dataDir: folder, port: pgPort, ephemeral: true }).catch((error: unknown) => {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  });
  const handle = connectDatabase(server.url, 2);
  const secretKey = randomBytes(32).toString("base64url");
  const secrets = new SecretBox(secretKey);
  const results: IncrementalResult[] = [];
  try {
    await applyMigrations(server.url);
    const { db } = handle;
    const [user] = await db.insert(users).values({ issuer: "bench", subject: "incremental", email: "incremental-bench@example.com", name: "Incremental Bench" }).returning();
    const ownerId = user!.id;
    const quiet = () => (quietWait > 0 ? waitForQuiet(quietWait, dataDir) : Promise.resolve());
    for (const scale of scales) {
      // A fake Zoom of its own per history (tokens that live a day: no refresh in the middle of a figure).
      const zoom = await startFakeZoom({ anchor: ANCHOR, accessTokenTtl: 86_400 });
      try {
        zoom.recordings.splice(0, zoom.recordings.length, ...history(zoom, MEETINGS_AT_1X * scale));
        Object.assign(process.env, { ZOOM_CLIENT_ID: zoom.clientId, ZOOM_CLIENT_SECRET: zoom.clientSecret, ZOOM_OAUTH_BASE_URL: zoom.oauthBaseUrl, ZOOM_API_BASE_URL: zoom.apiBaseUrl });
        const credential = await insertCredential(db, ownerId, { integrationName: "zoom", secret: secrets.seal(await zoomTokens(zoom)), metadata: { zoom_email: "jill@example.com" } });
        const source = await insertSource(db, ownerId, { name: `Zoom ${scale}×`, description: "", integrationName: "zoom", integrationLabel: "Zoom", credentialId: credential.id, status: "active", metadata: { zoom_extraction_scope: "ORG" } });
        const destination = await makeLocalDestination(db, dataDir, ownerId, `Local ${scale}×`);
        const connectorId = await insertConnector(db, ownerId, { name: `Hourly ${scale}×`, description: "", sourceId: source.id, platform: "zoom", frequency: "hourly", lookbackDays: LOOKBACK_DAYS }, [destination.id]);
        const args = (until: Date): ChildArgs => ({ databaseUrl: server.url, dataDir, secretKey, connectorId, until: until.toISOString() });
        const meetings = zoom.recordings.length;
        log(`${scale}×: the first sync lands ${meetings.toLocaleString("en-US")} meetings …`);
        await quiet();
        zoom.requests.length = 0;
        const first = { ...(await runChild(args(ANCHOR))), ...counted(zoom) };
        if (first.records !== meetings) throw new Error(`The first sync landed ${first.records} meetings of ${meetings}`);
        const hourly: IncrementalResult["hourly"] = [];
        for (let run = 1; run <= runs; run++) {
          await quiet();
          zoom.requests.length = 0;
          const figures = { ...(await runChild(args(new Date(ANCHOR.getTime() + run * HOUR)))), ...counted(zoom) };
          log(`${scale}×: hourly sync ${run} of ${runs}: ${figures.seconds.toFixed(2)} s, ${figures.downloads} downloads, ${figures.listings} listings`);
          hourly.push(figures);
        }
        results.push({ scale, meetings, history: first, hourly });
      } finally {
        await zoom.close();
      }
    }
  } finally {
    await handle.close();
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
  return { results, ...incrementalTable(results) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;

export function incrementalTable(results: IncrementalResult[]): { markdown: string; pass: boolean } {
  const base = results[0];
  const baseTime = base ? median(base.hourly.map((h) => h.seconds)) : NaN;
  const baseRss = base ? median(base.hourly.map((h) => h.peakRssBytes)) : NaN;
  let pass = results.length > 0;
  const rows = results.map((r) => {
    const time = median(r.hourly.map((h) => h.seconds));
    const rss = median(r.hourly.map((h) => h.peakRssBytes));
    const downloads = Math.max(...r.hourly.map((h) => h.downloads));
    const ok = time / baseTime <= INCREMENTAL_TARGETS.timeGrowth && rss / baseRss <= INCREMENTAL_TARGETS.rssGrowth && downloads === 0;
    pass &&= ok;
    return [
      `${r.scale}×`,
      r.meetings.toLocaleString("en-US"),
      `${r.history.seconds.toFixed(1)} s, ${mb(r.history.peakRssBytes)}, ${r.history.downloads.toLocaleString("en-US")} downloads`,
      `${time.toFixed(2)} s (${r.hourly.map((h) => h.seconds.toFixed(2)).join(", ")})`,
      mb(rss),
      `${downloads} downloads, ${median(r.hourly.map((h) => h.listings))} listings, ${median(r.hourly.map((h) => h.items.skipped))} skipped`,
      `${(time / baseTime).toFixed(2)}× time, ${(rss / baseRss).toFixed(2)}× RSS ${ok ? "(ok)" : "(FAIL)"}`,
    ];
  });
  const markdown = mdTable(["history", "meetings in the 30 days", "first sync", "hourly sync, unchanged (median; each)", "its peak RSS (median)", "its requests", "against 1×"], rows);
  return { markdown, pass };
}

function scalesFromArgs(argv: string[]): number[] | undefined {
  const given = argv.flatMap((arg, i) => (argv[i - 1] === "--scale" ? arg.split(",").map(Number) : []));
  return given.length > 0 ? given : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === here) {
  if (process.argv[2] === "--child") {
    childSync(JSON.parse(process.argv[3]!) as ChildArgs).then(
      (result) => {
        console.log(`RESULT ${JSON.stringify(result)}`);
        process.exit(0);
      },
      (error: Error) => {
        console.error(error.stack ?? error.message);
        process.exit(1);
      },
    );
  } else {
    runIncrementalBench({ scales: scalesFromArgs(process.argv.slice(2)) }).then(
      (report) => {
        console.log(`\n${report.markdown}\n`);
        console.log(report.pass ? "All incremental targets met." : "Some incremental targets were missed (see FAIL).");
      },
      (error: Error) => {
        console.error(`[bench:incremental] could not be measured: ${error.message}`);
        process.exit(1);
      },
    );
  }
}
