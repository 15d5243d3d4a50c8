import { z } from "zod";
import type { JobQueue } from "../jobs/queue.js";
import type { Database } from "../db/client.js";
import { defineJob, type Job } from "../jobs/job.js";
import type { Logger } from "../lib/log.js";
import { withSecretScope } from "../lib/redact.js";
import { schedulerPassed } from "../lib/metrics.js";
import { enqueueDue, performRun, recoverDead, recoverLost, type OutcomeListener, type RunKind, type RunWork } from "./engine.js";

/** A run job's payload: the run it performs (its row holds the rest). */
export const runPayload = z.object({ runId: z.string().uuid() });

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** A run queue's settings, as the environment gives them (unset or invalid: the default). */
export interface RunQueueSettings {
  /** Runs of different keys one worker process runs side by side. */
  concurrency: string | undefined;
  defaultConcurrency: number;
  /**
   * Seconds before pg-boss expires an active job. A dead worker's run is found by its heartbeat; the expiry is only a
   * backstop for a run that hangs while its worker lives, so it must outlast the longest healthy run.
   */
  expireInSeconds: string | undefined;
}

/**
 * The job that performs a kind's runs, one `work` per attempt: its queue is stately (one run at a time per key) and
 * retried with pg-boss's backoff.
 */
export function runJob(kind: RunKind<unknown>, db: Database, settings: RunQueueSettings, work: RunWork, onOutcome?: OutcomeListener): Job {
  return defineJob({
    name: kind.queue,
    schema: runPayload,
    policy: "stately",
    retryLimit: kind.retryLimit,
    // pg-boss doubles it at each retry (retryBackoff), with jitter.
    retryDelay: Math.max(1, Math.round(positive(process.env.RUN_RETRY_DELAY_SECONDS, 5))),
    expireInSeconds: positive(settings.expireInSeconds, 10_800),
    // A job taken by a worker that died before its run started (still queued: the run's own heartbeat has not begun)
    // would otherwise wait for its expiry, hours away.
    heartbeatSeconds: Math.max(10, Math.round(positive(process.env.RUN_JOB_HEARTBEAT_SECONDS, 30))),
    concurrency: Math.max(1, Math.floor(positive(settings.concurrency, settings.defaultConcurrency))),
    pollingIntervalSeconds: 0.5,
    // One scope of secrets in play per attempt: what the work opens is taken out of the run's error, log and alerts.
    handler: ({ runId }, { log }) => withSecretScope(() => performRun(kind, db, runId, work, log, onOutcome)),
  });
}

async function sweepDead(kind: RunKind<unknown>, db: Database, jobs: JobQueue, log: Logger, onOutcome?: OutcomeListener): Promise<void> {
  const dead = await recoverDead(kind, db, jobs, undefined, onOutcome);
  if (dead) log.warn({ dead }, `${kind.name} runs whose worker stopped (no heartbeat): retried or failed`);
}

/**
 * A kind's scheduler: every SCHEDULER_PASS_SECONDS (10) each scheduler process settles dead and lost runs, then queues
 * the runs whose slot has come (a pass takes what is due under a lease, so passes of several processes never queue a
 * slot twice). A run therefore starts within about that long of its slot, not the minute and more of a cron job.
 * Every worker also looks for dead runs every few seconds (`sweep`; safe side by side: a run is settled by one
 * conditional update).
 */
export function schedulerJob(name: string, kind: RunKind<{ id: string }>, db: Database, jobs: () => JobQueue, onOutcome?: OutcomeListener): Job {
  return defineJob({
    name,
    schema: z.object({}),
    everySeconds: positive(process.env.SCHEDULER_PASS_SECONDS, 10),
    sweep: (log) => sweepDead(kind, db, jobs(), log, onOutcome),
    async handler(_payload, { log }) {
      const started = performance.now();
      try {
        await sweepDead(kind, db, jobs(), log, onOutcome);
        const recovered = await recoverLost(kind, db, jobs(), onOutcome);
        if (recovered) log.warn({ recovered }, `${kind.name} runs whose job had ended without them: queued again or failed`);
        const queued = await enqueueDue(kind, db, jobs());
        const ms = Math.round(performance.now() - started);
        if (queued) log.info({ queued, ms }, `scheduled ${kind.name} runs queued`);
        else log.debug({ queued, ms }, `${kind.name} scheduler pass: nothing due`);
      } finally {
        // A pass that failed part-way is timed too: a slow database shows there first.
        schedulerPassed(kind.name, (performance.now() - started) / 1000);
      }
    },
  });
}
