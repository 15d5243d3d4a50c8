import type { JobQueue, JobState } from "../jobs/queue.js";

/** A run (sync or transform) still queued or running, with the job that should run it. */
export interface OpenRun {
  id: string;
  attempts: number;
  error: string | null;
  jobId: string;
  /** The job's singletonKey: the connector or transform the run belongs to. */
  key: string;
}

/** What becomes of a lost run: queued again under a new job, or failed. */
export type LostRunOutcome = { status: "queued"; jobId: string; error: string | null } | { status: "failed"; finishedAt: Date; error: string };

/** Job states after which a job never runs again. */
const ENDED_JOB_STATES: ReadonlySet<JobState> = new Set(["completed", "failed", "cancelled"]);

/**
 * Settles the open runs whose job has ended (or is gone): no worker will pick them up again, and each would keep
 * its connector or transform from ever running again (one open run at a time). pg-boss leaves a run so when a
 * killed worker's job expires and cannot be put back to wait for its retry: a stately queue holds one job per
 * state and key, and a stale job of the previous run may hold the retry state (its worker died after finishing
 * that run, before telling pg-boss). It does too when a job's last retry is killed. A run with attempts left gets
 * a new job; one without fails, saying why. `settle` records the outcome only if the run is still open under its
 * old job, and answers whether it did. Answers how many runs were settled.
 */
export async function recoverLostRuns(
  jobs: JobQueue,
  queue: string,
  retryLimit: number,
  runs: OpenRun[],
  settle: (run: OpenRun, outcome: LostRunOutcome) => Promise<boolean>,
): Promise<number> {
  let settled = 0;
  for (const run of runs) {
    const state = await jobs.state(queue, run.jobId);
    if (state && !ENDED_JOB_STATES.has(state)) continue;
    if (run.attempts > retryLimit) {
      const error = `Attempt ${run.attempts} was interrupted (its worker stopped), and no retry is left.`;
      if (await settle(run, { status: "failed", finishedAt: new Date(), error })) settled++;
      continue;
    }
    const jobId = await jobs.send(queue, { runId: run.id }, run.key);
    // The queue already holds a waiting job under this key: the next call tries again.
    if (!jobId) continue;
    const error = run.attempts > 0 ? `Attempt ${run.attempts} was interrupted (its worker stopped), retrying.` : run.error;
    if (await settle(run, { status: "queued", jobId, error })) settled++;
    // Finished meanwhile (by a worker that was slow, not lost): the new job is not needed.
    else await jobs.cancel(queue, jobId);
  }
  return settled;
}

/**
 * Settles the runs whose heartbeat stopped (see heartbeat.ts): their worker died while pg-boss still holds the job as
 * active, and would only expire it much later. A run with attempts left goes back to `queued` and its job is failed,
 * so that pg-boss retries it with its backoff; where pg-boss cannot (the stately queue's retry slot is taken, or the
 * job had no retry left: see recoverLostRuns) the run gets a new job at once. A run without attempts left fails and
 * its job is cancelled. `settle` records the outcome only if the run is still running under that job with a stale
 * heartbeat (another worker's sweep, or a retry that has started meanwhile, wins), and answers whether it did.
 * `settleLost` is recoverLostRuns's. Answers how many runs were settled.
 */
export async function recoverDeadRuns(
  jobs: JobQueue,
  queue: string,
  retryLimit: number,
  runs: OpenRun[],
  settle: (run: OpenRun, outcome: LostRunOutcome) => Promise<boolean>,
  settleLost: (run: OpenRun, outcome: LostRunOutcome) => Promise<boolean>,
): Promise<number> {
  let settled = 0;
  const retried: OpenRun[] = [];
  for (const run of runs) {
    if (run.attempts > retryLimit) {
      const error = `Attempt ${run.attempts} was interrupted (its worker stopped), and no retry is left.`;
      if (!(await settle(run, { status: "failed", finishedAt: new Date(), error }))) continue;
      settled++;
      await jobs.cancel(queue, run.jobId);
      continue;
    }
    const error = `Attempt ${run.attempts} was interrupted (its worker stopped), retrying.`;
    if (!(await settle(run, { status: "queued", jobId: run.jobId, error }))) continue;
    settled++;
    await jobs.fail(queue, run.jobId, error);
    retried.push({ ...run, error });
  }
  // Those whose failed job pg-boss could not put back to wait for a retry: a new job now, not at the next sweep.
  if (retried.length > 0) await recoverLostRuns(jobs, queue, retryLimit, retried, settleLost);
  return settled;
}
