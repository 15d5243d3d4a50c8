import type { JobQueue } from "../jobs/queue.js";
import type { Database } from "../db/client.js";
import { lockRuns, lockRunsMany, OPEN, type Executor, type RunAsker, type RunInsert, type RunProgress, type RunStatus, type RunTableQueries, type RunValues, type ScheduledKey } from "../db/runs.js";
import { appendRunLog, appendRunLogMany, openRunLog, type RunLogKind, type RunLogSink } from "../db/run-logs.js";
import { redactSecrets } from "../lib/redact.js";
import { runFinished, runRetried, runStarted } from "../lib/metrics.js";
import { RunCancelledError, watchCancel } from "./cancel.js";
import { heartbeatSettings, keepBeating } from "./heartbeat.js";
import { recoverDeadRuns, recoverLostRuns, type LostRunOutcome, type OpenRun } from "./recovery.js";
import { latestDue, nextRun, readStored } from "./schedule.js";

/**
 * The one runs engine: syncs and transforms are both runs of it. A run is a row of its kind's run table plus a job
 * on its kind's stately queue with the connector or transform id (the run's key) as singletonKey, so one run at a
 * time per key across every worker process; retried with pg-boss's backoff, kept alive by heartbeats, recovered
 * when its worker dies, recorded with its attempts, counts and error. See docs/decisions/2026-11-25-runs-heartbeat.md.
 */

/** A failure retrying cannot fix: the run fails at once with this message. */
export class PermanentRunError extends Error {}

export interface RunLog {
  info: (o: object, m: string) => void;
  warn: (o: object, m: string) => void;
}

/** What makes one kind of run (a sync, a transform run) differ from another: passed in, never branched on. */
export interface RunKind<Row> {
  /** "sync", "transform": names its log lines, its lock and the run log its lines go to. */
  name: RunLogKind;
  queue: string;
  retryLimit: number;
  runs: Omit<RunTableQueries, "insert"> & { insert(db: Executor, values: RunInsert): Promise<Row> };
  /** Keeps the key's own record in step with its runs (a transform's status, a connector's last_synced_at). */
  onStatus?: (db: Executor, key: string, status: RunStatus, at: Date) => Promise<void>;
  /** Leases the keys whose bookmark has come (backend/db/runs.ts bookmarks), with their newest run. */
  takeDue: (db: Database, options: { now: Date; lease: Date; limit: number }) => Promise<ScheduledKey[]>;
  /** Sets the next bookmark of keys this pass took (null: never). */
  placeBookmarks: (db: Database, lease: Date, next: { key: string; at: Date | null }[]) => Promise<void>;
}

/**
 * A run's final outcome, told once it is stored (alerts listen: backend/alerts/). A listener must return at once and
 * never throw: it does its own work in the background, so it can neither fail nor slow the run.
 */
export interface RunOutcome {
  /** The kind's name: "sync" or "transform". */
  kind: string;
  /** The connector or transform. */
  key: string;
  runId: string;
  /** A cancelled run is neither a failure nor a recovery (the alerts ignore it). */
  status: "succeeded" | "failed" | "cancelled";
  error: string | null;
}
export type OutcomeListener = (outcome: RunOutcome) => void;

function tell(listener: OutcomeListener | undefined, outcome: RunOutcome, log?: RunLog): void {
  if (!listener) return;
  try {
    listener(outcome);
  } catch (error) {
    log?.warn({ runId: outcome.runId, err: (error as Error).message }, "run outcome listener failed");
  }
}

/**
 * Records a queued run and sends its job; null when the key already has a run queued or running. `range`: a backfill's;
 * `triggeredBy`: who asked for it (a member or an API key, by name), none for the schedule or a record's creation.
 */
export async function enqueueRun<Row extends { id: string }>(
  kind: RunKind<Row>,
  db: Database,
  jobs: JobQueue,
  owner: { key: string; ownerId: string },
  trigger: string,
  range?: RunInsert["range"],
  triggeredBy?: RunAsker | null,
): Promise<Row | null> {
  const run = await db.transaction(async (tx) => {
    await lockRuns(tx, `${kind.name}-run:${owner.key}`);
    if (await kind.runs.hasOpen(tx, owner.key)) return null;
    // The key's own row first, then the run's: the same order as settle, so the two never wait on each other.
    await kind.onStatus?.(tx, owner.key, "queued", new Date());
    const inserted = await kind.runs.insert(tx, { key: owner.key, ownerId: owner.ownerId, trigger, range, triggeredBy });
    await appendRunLog(tx, kind.name, inserted.id, "info", queuedBy(trigger));
    return inserted;
  });
  if (!run) return null;
  const jobId = await jobs.send(kind.queue, { runId: run.id }, owner.key);
  if (!jobId) {
    await kind.runs.remove(db, run.id);
    return null;
  }
  await kind.runs.update(db, run.id, { jobId });
  return run;
}

/**
 * enqueueRun for many keys at once (a scheduler pass): the same locks, the same one-open-run rule and the same first
 * log line, in a handful of statements instead of a handful per key, and one insert for the jobs. Answers the keys
 * that got a run.
 */
export async function enqueueRuns(kind: RunKind<unknown>, db: Database, jobs: JobQueue, owners: { key: string; ownerId: string }[], trigger: string): Promise<Set<string>> {
  if (!owners.length) return new Set();
  const runs = await db.transaction(async (tx) => {
    await lockRunsMany(tx, owners.map((o) => `${kind.name}-run:${o.key}`));
    const open = await kind.runs.openKeys(tx, owners.map((o) => o.key));
    const free = owners.filter((o) => !open.has(o.key));
    // The keys' own rows first, as in enqueueRun.
    for (const o of free) await kind.onStatus?.(tx, o.key, "queued", new Date());
    const inserted = await kind.runs.insertMany(tx, free.map((o) => ({ key: o.key, ownerId: o.ownerId, trigger })));
    await appendRunLogMany(tx, kind.name, inserted.map((r) => r.id), "info", queuedBy(trigger));
    return inserted;
  });
  const jobIds = await jobs.sendMany(kind.queue, runs.map((r) => ({ data: { runId: r.id }, key: r.key })));
  // A job the queue refused (one is already waiting for the key): its run goes, as in enqueueRun.
  await kind.runs.removeMany(db, runs.filter((_, i) => !jobIds[i]).map((r) => r.id));
  const sent = runs.flatMap((r, i) => (jobIds[i] ? [{ id: r.id, key: r.key, jobId: jobIds[i] }] : []));
  await kind.runs.setJobIds(db, sent);
  return new Set(sent.map((r) => r.key));
}

/**
 * Stores a run's new status and its key's with it, in one transaction: a page loaded between the two would show the
 * run ended and its connector not yet synced, and, the run being over, would not look again. The key's row first,
 * as in enqueueRun.
 */
async function settle(kind: RunKind<unknown>, db: Database, run: { id: string; key: string }, values: RunValues & { status: RunStatus }, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await kind.onStatus?.(tx, run.key, values.status, at);
    await kind.runs.update(tx, run.id, values);
  });
}

/** Ends a run that Cancel stopped: no retry, no failure; `values` is what it did before it stopped. */
async function endCancelled(
  kind: RunKind<unknown>,
  db: Database,
  run: { id: string; key: string; startedAt: Date | null },
  values: RunValues,
  log?: RunLog,
  onOutcome?: OutcomeListener,
): Promise<void> {
  const finishedAt = new Date();
  await settle(kind, db, run, { ...values, status: "cancelled", finishedAt, error: null }, finishedAt);
  // What it wrote before Cancel stopped it is written for good: counted with the rest.
  runFinished(kind.name, "cancelled", { seconds: run.startedAt ? (finishedAt.getTime() - run.startedAt.getTime()) / 1000 : undefined, records: values.records, bytes: values.bytes });
  log?.info({ runId: run.id, ...values }, `${kind.name} run cancelled`);
  tell(onOutcome, { kind: kind.name, key: run.key, runId: run.id, status: "cancelled", error: null }, log);
}

/** The run log's first line: who or what queued the run. */
const TRIGGERS: Record<string, string> = {
  manual: "Queued by hand (Sync now or Run now).",
  schedule: "Queued by the schedule.",
  create: "Queued when it was created.",
  backfill: "Queued by a backfill.",
};
const queuedBy = (trigger: string) => TRIGGERS[trigger] ?? `Queued (trigger: ${trigger}).`;

/** What one attempt's work is given: its run, the run's log, and a way to report its counts as it goes. */
export interface RunContext {
  id: string;
  key: string;
  /** The first attempt's start (every retry reads the same window). */
  startedAt: Date;
  attempt: number;
  /** The run's own log (the run details page): a few lines of what the attempt does, never a secret. */
  log: RunLogSink;
  /** The counts so far: stored at most about once a second while the run runs (live progress). */
  progress(values: RunProgress): void;
  /** Aborted when Cancel asks the run to stop: the work stops at its next boundary and throws RunCancelledError (runs/cancel.ts). */
  signal: AbortSignal;
  /** Reads the cancel flag now (true also once the run's row is gone): asked before each write, so none starts after Cancel. */
  stopRequested(): Promise<boolean>;
}

/** One attempt's work. Answers what to record. */
export type RunWork = (run: RunContext) => Promise<RunValues>;

/** How often a run's progress is written, at most. */
const PROGRESS_EVERY_MS = 1_000;

/**
 * Writes a run's progress at most once per `everyMs` (the latest counts win), one write at a time, never throwing
 * into the run; `stop` drops what is pending and waits for a write under way.
 */
function progressWriter(write: (values: RunProgress) => Promise<void>, onError: (error: unknown) => void, everyMs = PROGRESS_EVERY_MS) {
  let pending: RunProgress | null = null;
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  let writing: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    timer = undefined;
    const values = pending;
    pending = null;
    if (!values || stopped) return;
    last = Date.now();
    writing = writing.then(() => write(values)).catch(onError);
  };
  return {
    report(values: RunProgress) {
      if (stopped) return;
      pending = values;
      timer ??= setTimeout(run, Math.max(0, last + everyMs - Date.now()));
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      pending = null;
      await writing;
    },
  };
}

/** A cancelled run's closing words: "Cancelled after 1,400 records", or just "Cancelled" when it wrote nothing. */
const cancelledAfter = (records: number | undefined) => (records ? `Cancelled after ${records.toLocaleString("en-US")} ${records === 1 ? "record" : "records"}` : "Cancelled");

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/** Runs one queued run: a retried job (worker died, transient error) picks the same run up again. */
export async function performRun(kind: RunKind<unknown>, db: Database, runId: string, work: RunWork, log?: RunLog, onOutcome?: OutcomeListener): Promise<void> {
  const run = await kind.runs.find(db, runId);
  // Succeeded, failed or cancelled: over (a cancelled run's job may still reach a worker).
  if (!run || !OPEN.includes(run.status as RunStatus)) return;
  // Asked to stop while running, then its worker was lost: it is not taken up again.
  if (run.cancelRequestedAt) {
    await appendRunLog(db, kind.name, run.id, "info", "Cancelled before its next attempt started.");
    return endCancelled(kind, db, run, {}, log, onOutcome);
  }
  const attempts = run.attempts + 1;
  const startedAt = run.startedAt ?? new Date();
  const attemptStart = new Date();
  const entry = { attempt: attempts, started_at: attemptStart.toISOString(), finished_at: null, outcome: "running", error: null };
  if (!(await kind.runs.markRunning(db, run.id, { startedAt, attempts, attempt: entry }))) return;
  // Counted once per run, at its first attempt: a retry is counted as one (runRetried), not as another run.
  if (attempts === 1) runStarted(kind.name);
  await kind.onStatus?.(db, run.key, "running", startedAt);
  const runLog = await openRunLog(db, kind.name, run.id, { onError: (error) => log?.warn({ runId, err: (error as Error).message }, `${kind.name} run log write failed`) });
  runLog.info(`Attempt ${attempts} of ${kind.retryLimit + 1} started.`);
  const cancel = watchCancel(kind.runs, db, run.id, log);
  const stopBeating = keepBeating(
    async () => {
      if (!(await kind.runs.beat(db, run.id))) log?.warn({ runId }, `${kind.name} run is no longer running here (taken back as lost?)`);
    },
    heartbeatSettings().intervalSeconds,
    (error) => log?.warn({ runId, err: (error as Error).message }, `${kind.name} run heartbeat failed`),
  );
  const progress = progressWriter(
    (values) => kind.runs.progress(db, run.id, values),
    (error) => log?.warn({ runId, err: (error as Error).message }, `${kind.name} run progress write failed`),
  );
  /** The attempt's entry as it ended. */
  const ended = (outcome: string, error: string | null) => ({ ...entry, finished_at: new Date().toISOString(), outcome, error });
  try {
    const result = await work({ id: run.id, key: run.key, startedAt, attempt: attempts, log: runLog, progress: progress.report, signal: cancel.signal, stopRequested: cancel.check });
    await progress.stop();
    const finishedAt = new Date();
    runLog.closing("info", `Run succeeded in ${seconds(finishedAt.getTime() - startedAt.getTime())}: ${(result.records ?? 0).toLocaleString("en-US")} records.`);
    // The log is in before the outcome: a page that reloads on the outcome sees every line.
    await runLog.close();
    await settle(kind, db, run, { ...result, status: "succeeded", finishedAt, error: null, attempt: ended("succeeded", null) }, finishedAt);
    runFinished(kind.name, "succeeded", { seconds: (finishedAt.getTime() - startedAt.getTime()) / 1000, records: result.records, bytes: result.bytes });
    log?.info({ runId, ...result }, `${kind.name} run succeeded`);
    tell(onOutcome, { kind: kind.name, key: run.key, runId: run.id, status: "succeeded", error: null }, log);
  } catch (error) {
    await progress.stop();
    // Stopped by Cancel (or failing once asked to stop): cancelled, never retried.
    if (error instanceof RunCancelledError || cancel.signal.aborted) {
      const values = error instanceof RunCancelledError ? error.values : {};
      runLog.closing("info", `${cancelledAfter(values.records)}: the run stopped at a batch boundary; what it wrote before is complete.`);
      await runLog.close();
      return endCancelled(kind, db, { ...run, startedAt }, { ...values, attempt: ended("cancelled", null) }, log, onOutcome);
    }
    // The error is shown to the user and sent in alerts: a secret a provider's message quotes is taken out.
    const message = redactSecrets((error as Error).message || String(error));
    if (error instanceof PermanentRunError || attempts > kind.retryLimit) {
      const finishedAt = new Date();
      const why = error instanceof PermanentRunError ? "retrying cannot help" : "no retry is left";
      runLog.closing("error", `Attempt ${attempts} failed (${why}): ${message}`);
      runLog.closing("error", `Run failed after ${seconds(finishedAt.getTime() - startedAt.getTime())}.`);
      await runLog.close();
      await settle(kind, db, run, { status: "failed", finishedAt, error: message, attempt: ended("failed", message) }, finishedAt);
      runFinished(kind.name, "failed", { seconds: (finishedAt.getTime() - startedAt.getTime()) / 1000 });
      log?.warn({ runId, err: error }, `${kind.name} run failed`);
      tell(onOutcome, { kind: kind.name, key: run.key, runId: run.id, status: "failed", error: message }, log);
      return;
    }
    runLog.closing("warn", `Attempt ${attempts} failed, retrying (attempt ${attempts + 1} of ${kind.retryLimit + 1} comes after a back-off): ${message}`);
    await runLog.close();
    await settle(kind, db, run, { status: "queued", error: `Attempt ${attempts} failed, retrying: ${message}`, attempt: ended("retrying", message) }, new Date());
    runRetried(kind.name);
    // pg-boss retries the job and stores what its handler threw (message, stack, cause, every property) in its rows:
    // only the scrubbed sentence goes there, never the provider's error itself.
    throw new Error(message);
  } finally {
    stopBeating();
    cancel.stop();
    await runLog.close();
  }
}

/** A lost or dead run's outcome as stored: its attempt still running (if any) is closed with it. */
function settled(run: OpenRun, outcome: LostRunOutcome): RunValues {
  return { ...outcome, closeAttempt: { outcome: outcome.status === "failed" ? "failed" : "retrying", error: run.attempts > 0 ? outcome.error : null } };
}

/** A lost or dead run's line in its log, once its outcome is stored (never thrown: recovery goes on). */
async function logSettled(kind: RunKind<unknown>, db: Database, run: OpenRun, outcome: LostRunOutcome): Promise<void> {
  if (run.attempts === 0 || !outcome.error) return;
  await appendRunLog(db, kind.name, run.id, outcome.status === "failed" ? "error" : "warn", outcome.error).catch(() => {});
}

/** Records a lost run's outcome, and its key's status, only while the run is still open under its old job. */
function settleLost(kind: RunKind<unknown>, db: Database, onOutcome?: OutcomeListener) {
  return async (run: OpenRun, outcome: LostRunOutcome): Promise<boolean> => {
    if (!(await kind.runs.updateOpen(db, run.id, run.jobId, settled(run, outcome)))) return false;
    await logSettled(kind, db, run, outcome);
    await kind.onStatus?.(db, run.key, outcome.status, new Date());
    tellFailed(kind, run, outcome, onOutcome);
    return true;
  };
}

/**
 * A lost or dead run that recovery failed for good is an outcome like any other (its duration is not known here: this
 * process did not run it).
 */
function tellFailed(kind: RunKind<unknown>, run: OpenRun, outcome: LostRunOutcome, onOutcome?: OutcomeListener): void {
  if (outcome.status !== "failed") return;
  runFinished(kind.name, "failed");
  tell(onOutcome, { kind: kind.name, key: run.key, runId: run.id, status: "failed", error: outcome.error });
}

/** Queues again, or fails, the runs whose job ended without them (see recoverLostRuns); answers how many. */
export async function recoverLost(kind: RunKind<unknown>, db: Database, jobs: JobQueue, onOutcome?: OutcomeListener): Promise<number> {
  const runs = (await kind.runs.openWithJobs(db)).map((r) => ({ id: r.id, attempts: r.attempts, error: r.error, jobId: r.jobId!, key: r.key }));
  return recoverLostRuns(jobs, kind.queue, kind.retryLimit, runs, settleLost(kind, db, onOutcome));
}

/** Queues again, or fails, the running runs whose heartbeat stopped (see recoverDeadRuns); answers how many. */
export async function recoverDead(kind: RunKind<unknown>, db: Database, jobs: JobQueue, timeoutSeconds = heartbeatSettings().timeoutSeconds, onOutcome?: OutcomeListener): Promise<number> {
  const runs = (await kind.runs.dead(db, timeoutSeconds)).map((r) => ({ id: r.id, attempts: r.attempts, error: r.error, jobId: r.jobId!, key: r.key }));
  if (runs.length === 0) return 0;
  const settleDead = async (run: OpenRun, outcome: LostRunOutcome): Promise<boolean> => {
    if (!(await kind.runs.settleDead(db, run.id, run.jobId, timeoutSeconds, { ...settled(run, outcome), heartbeatAt: null }))) return false;
    await logSettled(kind, db, run, outcome);
    await kind.onStatus?.(db, run.key, outcome.status, new Date());
    tellFailed(kind, run, outcome, onOutcome);
    return true;
  };
  return recoverDeadRuns(jobs, kind.queue, kind.retryLimit, runs, settleDead, settleLost(kind, db, onOutcome));
}

/** Keys one statement of a scheduler pass takes (and leases) at a time. */
const DUE_BATCH = 500;
/** How long a pass holds the keys it took: a scheduler that died holding them lets the next pass take them after this. */
const LEASE_MS = 2 * 60_000;

/**
 * Queues a run for each scheduled key whose latest due moment (its schedule's, else its frequency's slot: see
 * schedule.ts) has come and has no run yet; a moment before the key existed, or before its schedule was set, is not run.
 *
 * Only keys whose bookmark (next_due_at) has come are read, in batches, each leased to this pass in the statement
 * that reads it: any number of schedulers may pass at once, and a key is looked at by one of them. Each key looked at
 * gets its next bookmark: its next due moment, or, when a run of it is still open, a moment just after this pass
 * (the next pass looks again, as before).
 */
export async function enqueueDue(kind: RunKind<{ id: string }>, db: Database, jobs: JobQueue, now = new Date()): Promise<number> {
  let queued = 0;
  const lease = new Date(now.getTime() + LEASE_MS);
  for (;;) {
    const taken = await kind.takeDue(db, { now, lease, limit: DUE_BATCH });
    const next = new Map<string, Date | null>();
    const due: ScheduledKey[] = [];
    for (const scheduled of taken) {
      const stored = readStored(scheduled.schedule);
      const schedule = stored?.schedule ?? null;
      const slot = latestDue(scheduled.key, scheduled.frequency, schedule, now);
      next.set(scheduled.key, nextRun(scheduled.key, scheduled.frequency, schedule, now));
      if (slot && slot.getTime() >= Math.max(scheduled.createdAt.getTime(), stored?.since?.getTime() ?? 0) && !(scheduled.latestRunAt && scheduled.latestRunAt.getTime() >= slot.getTime())) {
        due.push(scheduled);
      }
    }
    // Failing here leaves the batch leased: the next pass after LEASE_MS looks at it again.
    const sent = await enqueueRuns(kind, db, jobs, due, "schedule");
    queued += sent.size;
    for (const scheduled of due) if (!sent.has(scheduled.key)) next.set(scheduled.key, new Date(now.getTime() + 1));
    await kind.placeBookmarks(db, lease, [...next].map(([key, at]) => ({ key, at })));
    if (taken.length < DUE_BATCH) return queued;
  }
}
