import { Hono } from "hono";
import { z } from "zod";
import type PgBoss from "pg-boss";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.js";
import type { SecretBox } from "../lib/crypto.js";
import type { JobDefinition } from "./job.js";
import { ApiError, type ApiEnv } from "../http/context.js";
import {
  activeConnectors,
  beatRun,
  connectorRow,
  deadRuns,
  findConnector,
  findRun,
  insertRun,
  listRuns,
  markRunning,
  markSynced,
  openRun,
  openRunsWithJobs,
  setPaused,
  settleDeadRun,
  updateOpenRun,
  updateRun,
} from "../db/connectors.js";
import { connectorDestinations, destinations, sources, syncRuns } from "../db/schema.js";
import { toDestination } from "../db/destinations.js";
import { recoverDeadRuns, recoverLostRuns } from "./lost-runs.js";
import { heartbeatSettings, keepBeating } from "./heartbeat.js";
import { startFileWriter } from "../integrations/destinations/file-writer.js";
import { writerFor, type DestinationObject, type DestinationWriter, type Row } from "../integrations/destinations/index.js";
import { hashString, toGongCall, toText, toVtt, type Meeting } from "../integrations/sources/datagen.js";
import { messageFiles, messageRow, PermanentReadError, READABLE_INTEGRATIONS, readRecords, type EmailMessage, type SourceRecord } from "../integrations/sources/readers.js";
import { CONNECTOR_MESSAGES as M } from "../../contract/connectors.js";
import { integrationLabel } from "../../contract/sources.js";

/**
 * The sync engine. A run is a `sync_runs` row plus a job on the stately
 * "sync-connector" queue with the connector id as singletonKey, so one run at
 * a time per connector across every worker process. See
 * docs/decisions/2026-11-22-connectors-and-sync.md.
 */
export const SYNC_QUEUE = "sync-connector";
export const SCHEDULER_QUEUE = "sync-scheduler";
export const SYNC_RETRY_LIMIT = 3;
/** The source integrations a run can read (all four: see backend/integrations/sources/readers.ts). */
export { READABLE_INTEGRATIONS };
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface SyncServices {
  db: Database;
  secrets: SecretBox;
  config: { DATA_DIR: string };
}

/** A failure retrying cannot fix: the run fails at once with this message. */
export class PermanentSyncError extends Error {}

/* ---- the queue handle the API sends through (one per database: tests run several backends) ---- */

const queues = new Map<string, PgBoss>();
export function registerSyncQueue(databaseUrl: string, boss: PgBoss): () => void {
  queues.set(databaseUrl, boss);
  return () => {
    if (queues.get(databaseUrl) === boss) queues.delete(databaseUrl);
  };
}

/** Records a queued run and sends its job; null when the connector already has a run queued or running. */
export async function enqueueRun(db: Database, boss: PgBoss, connector: { id: string; ownerId: string }, trigger: "manual" | "schedule") {
  // Check and insert under a per-connector lock: two callers at once (Sync now, the scheduler) make one run.
  const run = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`sync-run:${connector.id}`}))`);
    if (await openRun(tx, connector.id)) return null;
    return insertRun(tx, { connectorId: connector.id, ownerId: connector.ownerId, trigger });
  });
  if (!run) return null;
  const jobId = await boss.send(SYNC_QUEUE, { runId: run.id }, { singletonKey: connector.id });
  if (!jobId) {
    await db.delete(syncRuns).where(eq(syncRuns.id, run.id));
    return null;
  }
  await updateRun(db, run.id, { jobId });
  return run;
}

/* ---- one run ----------------------------------------------------------------------------------------
 * A run has two halves kept apart: reading the source's records for the window
 * (readRecords in backend/integrations/sources/readers.ts: the data generator,
 * Zoom, Teams, Gmail) and writing them in batches to every destination (writeRecords /
 * writeBatch: what the destinations receive does not depend on the source). */

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Records per batch, unless every writer asks for fewer (`batchRecords`): each batch is one upsertRows call per
 * table and one round of files per destination (a cloud warehouse merges each call).
 */
export const BATCH_MEETINGS = 200;
const YIELD_EVERY_MS = 2;

function meetingFiles(platform: string, sourceId: string, meeting: Meeting): DestinationObject[] {
  const base = `${platform}/${sourceId}/${day(meeting.startedAt)}/${meeting.id}`;
  const main: DestinationObject =
    platform === "gong"
      ? { path: `${base}.json`, body: JSON.stringify(toGongCall(meeting)), contentType: "application/json" }
      : { path: `${base}.vtt`, body: toVtt(meeting), contentType: "text/vtt" };
  return [main, { path: `${base}.txt`, body: toText(meeting), contentType: "text/plain" }];
}

function meetingRow(sourceId: string, platform: string, m: Meeting): Row {
  return {
    meeting_id: m.id,
    source_id: sourceId,
    platform,
    title: m.title,
    account: m.account,
    started_at: m.startedAt,
    duration_ms: m.durationMs,
    host_id: m.host.id,
    participants: m.participants.map((p) => ({ id: p.id, name: p.name, email: p.email, affiliation: p.affiliation })),
    agenda: m.agenda,
  };
}

/** "-0000" to "-9999": an utterance id's suffix, made once (padStart made two strings per transcript line). */
const INDEX_SUFFIXES = Array.from({ length: 10_000 }, (_, i) => `-${String(i).padStart(4, "0")}`);

/** Adds the meeting's transcript lines to `rows` (see meetingBatch). */
function pushUtteranceRows(rows: Row[], sourceId: string, m: Meeting): void {
  for (const u of m.utterances) {
    rows.push({
      utterance_id: m.id + (INDEX_SUFFIXES[u.index] ?? `-${u.index}`),
      meeting_id: m.id,
      source_id: sourceId,
      utterance_index: u.index,
      speaker_id: u.speaker.id,
      speaker_name: u.speaker.name,
      speaker_email: u.speaker.email,
      affiliation: u.speaker.affiliation,
      topic: u.topic,
      spoken_at: new Date(m.startedAt.getTime() + u.startMs),
      start_ms: u.startMs,
      end_ms: u.endMs,
      text: u.text,
    });
  }
}

export interface SyncResult {
  records: number;
  bytes: number;
}

/** What one batch writes to each destination: its objects, then its rows table by table. */
export interface SyncBatch {
  /** Records (meetings) in the batch. */
  records: number;
  objects: DestinationObject[];
  tables: { table: string; rows: Row[]; key: string[] }[];
}

/** A batch of meetings as files (.vtt or Gong .json, plus .txt) and rows of `meetings` and `transcript_utterances`. */
export function meetingBatch(platform: string, sourceId: string, meetings: Meeting[]): SyncBatch {
  // Rows are pushed, not made by map: once TurboFan inlines Array.prototype.map, its arrays are holey where the
  // builtin's are packed, and the writer's code optimized on the one kind was thrown away at the other.
  const meetingRows: Row[] = [];
  const utterances: Row[] = [];
  for (const m of meetings) {
    meetingRows.push(meetingRow(sourceId, platform, m));
    pushUtteranceRows(utterances, sourceId, m);
  }
  return {
    records: meetings.length,
    objects: meetings.flatMap((m) => meetingFiles(platform, sourceId, m)),
    tables: [
      { table: "meetings", rows: meetingRows, key: ["meeting_id"] },
      { table: "transcript_utterances", rows: utterances, key: ["utterance_id"] },
    ],
  };
}

export interface NamedWriter {
  name: string;
  writer: DestinationWriter;
}

/** Records per batch for these writers: the largest that any of them asks for, BATCH_MEETINGS for one that does not ask. */
export function batchSizeFor(writers: NamedWriter[]): number {
  if (writers.length === 0) return BATCH_MEETINGS;
  return Math.max(1, ...writers.map(({ writer }) => writer.batchRecords ?? BATCH_MEETINGS));
}

const PERMANENT_CODES = ["EACCES", "EROFS", "EPERM", "ENOSPC", "ENOTDIR", "EISDIR"];

/** Waits for every promise, then rejects with the first failure (so nothing is still writing when the caller hears of it). */
async function settleAll(promises: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/** A destination's failure, named; the OS's refusals (read-only, disk full, …) are permanent. */
function writeError(name: string, error: unknown): Error {
  const e = error as Error & { code?: string };
  const message = `Writing to destination "${name}" failed: ${e.message}`;
  if (e.code && PERMANENT_CODES.includes(e.code)) return new PermanentSyncError(message);
  return Object.assign(new Error(message), { cause: error });
}

/** Writes one batch to every destination; answers the bytes of objects written (over all destinations). */
export async function writeBatch(writers: NamedWriter[], batch: SyncBatch): Promise<number> {
  for (const { name, writer } of writers) {
    try {
      // A writer that writes side by side gets the batch's files and every table's rows at once (the local
      // warehouse stages one table while it prepares the next); any other, one after the other.
      if (writer.concurrentWrites) {
        await settleAll([writer.writeObjects(batch.objects), ...batch.tables.map(({ table, rows, key }) => writer.upsertRows(table, rows, key))]);
      } else {
        await writer.writeObjects(batch.objects);
        for (const { table, rows, key } of batch.tables) await writer.upsertRows(table, rows, key);
      }
    } catch (error) {
      throw writeError(name, error);
    }
  }
  return batch.objects.reduce((n, o) => n + (typeof o.body === "string" ? Buffer.byteLength(o.body) : o.body.byteLength), 0) * writers.length;
}

/**
 * Writes records to every destination in batches of `batchSize` (by default what the writers ask for), in order. The
 * next batch is read and rendered while the previous one is being written
 * (at most two batches in memory, whatever the volume); a batch counts once
 * every destination has it.
 */
export async function writeRecords<T>(
  writers: NamedWriter[],
  records: Iterable<T> | AsyncIterable<T>,
  toBatch: (items: T[]) => SyncBatch,
  batchSize = batchSizeFor(writers),
): Promise<SyncResult> {
  const result: SyncResult = { records: 0, bytes: 0 };
  let writing: Promise<void> | undefined;
  let items: T[] = [];
  const flush = async () => {
    if (items.length === 0) return;
    const batch = toBatch(items);
    items = [];
    await writing;
    writing = writeBatch(writers, batch).then((bytes) => {
      result.records += batch.records;
      result.bytes += bytes;
    });
    // A failed write must not go unobserved while the next batch is read; it is rethrown where awaited.
    writing.catch(() => {});
  };
  let turn = performance.now();
  try {
    for await (const item of records) {
      items.push(item);
      if (items.length >= batchSize) await flush();
      // A synchronous source (the data generator) never gives the event loop a turn: give it one every few
      // milliseconds so that the previous batch's file and database callbacks run while this one is read.
      if (performance.now() - turn > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        turn = performance.now();
      }
    }
    await flush();
  } finally {
    // Whatever stopped the loop (a read error), no write is left running behind the caller, who closes the writers next.
    await writing?.catch(() => {});
  }
  await writing;
  // Writers that gather rows (the local warehouse) merge what they hold: the run is done once it is in.
  for (const { name, writer } of writers) {
    try {
      await writer.flush?.();
    } catch (error) {
      throw writeError(name, error);
    }
  }
  return result;
}

/**
 * A batch of source records: meetings as files and rows of `meetings` and
 * `transcript_utterances`, e-mails as files and rows of `email_messages`.
 */
export function recordBatch(platform: string, sourceId: string, records: SourceRecord[]): SyncBatch {
  const meetings: Meeting[] = [];
  const messages: EmailMessage[] = [];
  for (const record of records) {
    if (record.kind === "meeting") meetings.push(record.meeting);
    else messages.push(record.message);
  }
  const batch = meetingBatch(platform, sourceId, meetings);
  if (messages.length > 0) {
    batch.records += messages.length;
    batch.objects.push(...messages.flatMap((m) => messageFiles(platform, sourceId, m)));
    batch.tables.push({ table: "email_messages", rows: messages.map((m) => messageRow(sourceId, m)), key: ["message_id"] });
  }
  batch.tables = batch.tables.filter((t) => t.rows.length > 0);
  return batch;
}

/**
 * Reads the source for the lookback window ending at `until` and writes every
 * record to every destination. Idempotent: object paths and merge keys come
 * from the record ids.
 */
export async function syncConnector(services: SyncServices, connectorId: string, until: Date, options: { meetingsPerDay?: number; batchSize?: number } = {}): Promise<SyncResult> {
  const { db } = services;
  const connector = await connectorRow(db, connectorId);
  if (!connector) throw new PermanentSyncError("The connector no longer exists.");
  const targets = await db
    .select({ d: destinations })
    .from(connectorDestinations)
    .innerJoin(destinations, eq(destinations.id, connectorDestinations.destinationId))
    .where(eq(connectorDestinations.connectorId, connector.id));
  if (targets.length === 0) throw new PermanentSyncError("The connector has no destinations.");
  // A local destination's files are written on their own thread. A worker process starts it at boot
  // (prepareWorkerProcess); elsewhere it starts now, while the source is read and the warehouse opened, rather than
  // at the first batch. A thread that cannot start fails that batch's write. Cloud-only runs need none.
  if (targets.some(({ d }) => d.integrationName === "local")) startFileWriter().catch(() => {});
  const [source] = await db.select().from(sources).where(eq(sources.id, connector.sourceId));
  if (!source) throw new PermanentSyncError("The connector's source no longer exists.");
  if (!READABLE_INTEGRATIONS.includes(source.integrationName)) {
    throw new PermanentSyncError(`Reading from ${integrationLabel(source.integrationName) ?? source.integrationName} is not available on this server.`);
  }
  // The reading half (backend/integrations/sources/readers.ts): the records whose time falls in the window, one at a time.
  const records = readRecords(services, source, { from: new Date(until.getTime() - connector.lookbackDays * DAY_MS), to: until }, options);
  const format = source.metadata.format === "gong" ? "gong" : "zoom";
  const platform = connector.platform ?? (source.integrationName === "datagen" ? format : source.integrationName);

  const writers: NamedWriter[] = [];
  try {
    for (const { d } of targets) {
      try {
        writers.push({ name: d.name, writer: await writerFor(toDestination(d, 0), connector.ownerId, services, { bulk: true }) });
      } catch (error) {
        throw new PermanentSyncError(`Destination "${d.name}" cannot be opened: ${(error as Error).message}`);
      }
    }
    return await writeRecords(writers, records, (batch) => recordBatch(platform, source.id, batch), options.batchSize);
  } catch (error) {
    // Revoked consent, a missing scope, a deleted user: retrying cannot help; the message says what to fix.
    if (error instanceof PermanentReadError) throw new PermanentSyncError(error.message);
    throw error;
  } finally {
    for (const { writer } of writers) await writer.close().catch(() => {});
  }
}

/** Runs one queued run: a retried job (worker died, transient error) picks the same run up again. */
export async function performRun(services: SyncServices, runId: string, log?: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void }) {
  const { db } = services;
  const run = await findRun(db, runId);
  if (!run || run.status === "succeeded" || run.status === "failed") return;
  const attempts = run.attempts + 1;
  // The window ends where the first attempt started, so every retry reads the same records.
  const startedAt = run.startedAt ?? new Date();
  await markRunning(db, run.id, { startedAt, attempts });
  const stopBeating = keepBeating(
    async () => {
      if (!(await beatRun(db, run.id))) log?.warn({ runId }, "sync run is no longer running here (taken back as lost?)");
    },
    heartbeatSettings().intervalSeconds,
    (error) => log?.warn({ runId, err: (error as Error).message }, "sync run heartbeat failed"),
  );
  try {
    const result = await syncConnector(services, run.connectorId, startedAt);
    const finishedAt = new Date();
    await updateRun(db, run.id, { status: "succeeded", finishedAt, records: result.records, bytes: result.bytes, error: null });
    await markSynced(db, run.connectorId, finishedAt);
    log?.info({ runId, ...result }, "sync run succeeded");
  } catch (error) {
    const message = (error as Error).message || String(error);
    if (error instanceof PermanentSyncError || attempts > SYNC_RETRY_LIMIT) {
      await updateRun(db, run.id, { status: "failed", finishedAt: new Date(), error: message });
      log?.warn({ runId, err: error }, "sync run failed");
      return;
    }
    await updateRun(db, run.id, { status: "queued", error: `Attempt ${attempts} failed, retrying: ${message}` });
    throw error;
  } finally {
    stopBeating();
  }
}

export function syncConnectorJob(services: SyncServices): JobDefinition<z.ZodTypeAny> {
  return {
    name: SYNC_QUEUE,
    payload: z.object({ runId: z.string().uuid() }),
    policy: "stately",
    retryLimit: SYNC_RETRY_LIMIT,
    retryDelay: 5,
    // A dead worker's run is found by its heartbeat within a minute; the expiry is only a backstop for a run that
    // hangs while its worker lives, so it must outlast the longest healthy run.
    expireInSeconds: Number(process.env.SYNC_JOB_EXPIRE_SECONDS ?? 10_800),
    // Runs of different connectors proceed side by side (one per connector at most: stately + singletonKey).
    concurrency: Math.max(1, Number(process.env.SYNC_CONCURRENCY) || 4),
    pollingIntervalSeconds: 0.5,
    handle: ({ runId }, { log }) => performRun(services, runId, log),
  };
}

/* ---- schedules ---------------------------------------------------------------------------------------- */

/**
 * The latest scheduled moment at or before `now` of a connector: hourly at a
 * fixed second of the hour, daily at a fixed second of the day, both derived
 * from its id so that connectors spread over the hour/day.
 */
export function latestSlot(connectorId: string, frequency: string, now: Date): Date {
  const period = frequency === "hourly" ? HOUR_MS : DAY_MS;
  const offset = (hashString(connectorId) % (period / 1000)) * 1000;
  return new Date(Math.floor((now.getTime() - offset) / period) * period + offset);
}

/** Every minute (a pg-boss cron schedule): queue a run for each active connector whose slot has come. */
export async function enqueueDueRuns(db: Database, boss: PgBoss, now = new Date()): Promise<number> {
  let queued = 0;
  // Only sources the engine can read: a scheduled run that can only fail would just bury the history.
  for (const connector of await activeConnectors(db, READABLE_INTEGRATIONS)) {
    const slot = latestSlot(connector.id, connector.frequency, now);
    if (slot.getTime() < connector.createdAt.getTime()) continue;
    const [latest] = await listRuns(db, connector.id, 1);
    if (latest && new Date(latest.created_at).getTime() >= slot.getTime()) continue;
    if (await enqueueRun(db, boss, connector, "schedule")) queued++;
  }
  return queued;
}

/** Queues again, or fails, the sync runs whose job ended without them (see recoverLostRuns); answers how many. */
export async function recoverLostSyncRuns(db: Database, boss: PgBoss): Promise<number> {
  const runs = (await openRunsWithJobs(db)).map((r) => ({ id: r.id, attempts: r.attempts, error: r.error, jobId: r.jobId!, key: r.connectorId }));
  return recoverLostRuns(boss, SYNC_QUEUE, SYNC_RETRY_LIMIT, runs, (run, outcome) => updateOpenRun(db, run.id, run.jobId, outcome));
}

/** Queues again, or fails, the running sync runs whose heartbeat stopped (see recoverDeadRuns); answers how many. */
export async function recoverDeadSyncRuns(db: Database, boss: PgBoss, timeoutSeconds = heartbeatSettings().timeoutSeconds): Promise<number> {
  const runs = (await deadRuns(db, timeoutSeconds)).map((r) => ({ id: r.id, attempts: r.attempts, error: r.error, jobId: r.jobId!, key: r.connectorId }));
  if (runs.length === 0) return 0;
  return recoverDeadRuns(
    boss,
    SYNC_QUEUE,
    SYNC_RETRY_LIMIT,
    runs,
    (run, outcome) => settleDeadRun(db, run.id, run.jobId, timeoutSeconds, { ...outcome, heartbeatAt: null }),
    (run, outcome) => updateOpenRun(db, run.id, run.jobId, outcome),
  );
}

export function syncSchedulerJob(db: Database, boss: () => PgBoss): JobDefinition<z.ZodTypeAny> {
  return {
    name: SCHEDULER_QUEUE,
    payload: z.object({}).passthrough(),
    policy: "singleton",
    cron: "* * * * *",
    retryLimit: 0,
    // The cron comes once a minute at best: every worker also looks for dead runs more often (safe side by side:
    // a run is settled by one conditional update).
    sweep: async (log) => {
      const dead = await recoverDeadSyncRuns(db, boss());
      if (dead) log.warn({ dead }, "sync runs whose worker stopped (no heartbeat): retried or failed");
    },
    async handle(_payload, { log }) {
      const dead = await recoverDeadSyncRuns(db, boss());
      if (dead) log.warn({ dead }, "sync runs whose worker stopped (no heartbeat): retried or failed");
      const recovered = await recoverLostSyncRuns(db, boss());
      if (recovered) log.warn({ recovered }, "sync runs whose job had ended without them: queued again or failed");
      const queued = await enqueueDueRuns(db, boss());
      if (queued) log.info({ queued }, "scheduled syncs queued");
    },
  };
}

/* ---- HTTP: Sync now, pause/resume, run history ------------------------------------------------------------ */

export const syncRoutes = new Hono<ApiEnv>();

async function owned(c: { var: ApiEnv["Variables"] }, id: string) {
  const connector = await findConnector(c.var.services.db, c.var.user.id, id);
  if (!connector) throw new ApiError(404, M.notFound);
  return connector;
}

syncRoutes.post("/connectors/:id/sync", async (c) => {
  const connector = await owned(c, c.req.param("id"));
  const boss = queues.get(c.var.services.config.DATABASE_URL);
  if (!boss) throw new ApiError(502, "The job queue is not running on this server.");
  const run = await enqueueRun(c.var.services.db, boss, { id: connector.id, ownerId: c.var.user.id }, "manual");
  if (!run) throw new ApiError(409, "A sync of this connector is already queued or running.");
  return c.json({ status: "success", run, message: "Sync queued" }, 202);
});

syncRoutes.post("/connectors/:id/pause", async (c) => {
  const connector = await owned(c, c.req.param("id"));
  await setPaused(c.var.services.db, c.var.user.id, connector.id, true);
  return c.json({ status: "success", paused: true, message: "Connector paused" });
});

syncRoutes.post("/connectors/:id/resume", async (c) => {
  const connector = await owned(c, c.req.param("id"));
  await setPaused(c.var.services.db, c.var.user.id, connector.id, false);
  return c.json({ status: "success", paused: false, message: "Connector resumed" });
});

syncRoutes.get("/connectors/:id/runs", async (c) => {
  const connector = await owned(c, c.req.param("id"));
  return c.json({ status: "success", runs: await listRuns(c.var.services.db, connector.id), message: "Runs" });
});
