import { randomUUID } from "node:crypto";
import type { PgBoss } from "pg-boss";

/** What became of a job: waiting (created, or retry after a failed attempt), being worked, or ended. */
export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

/**
 * The job queue as the runs engine and the API use it. One per backend, in its services (never found through a
 * global); any number of processes share it through Postgres. Backed by pg-boss (pgBossQueue below); a queue's
 * workers are started by startJobs (./boss.ts).
 */
export interface JobQueue {
  /** Sends a job for `key` (a connector or a transform): null when the queue already holds one waiting for that key. */
  send(queue: string, data: object, key: string): Promise<string | null>;
  /** Sends many such jobs in one statement; answers each one's id, in order, or null where the queue refused it. */
  sendMany(queue: string, jobs: { data: object; key: string }[]): Promise<(string | null)[]>;
  /** Cancels a job that has not ended; one that has is left as it is. */
  cancel(queue: string, id: string): Promise<void>;
  /** Fails an active job with `reason`, so that it is retried with its back-off if it has retries left. */
  fail(queue: string, id: string, reason: string): Promise<void>;
  /** The job's state, or null when the queue holds no such job (any more). */
  state(queue: string, id: string): Promise<JobState | null>;
}

export function pgBossQueue(boss: PgBoss): JobQueue {
  return {
    send: (queue, data, key) => boss.send(queue, data, { singletonKey: key }),
    async sendMany(queue, jobs) {
      if (!jobs.length) return [];
      // Ids chosen here: the insert skips a job the queue's policy refuses, and answers the ids it made.
      const ids = jobs.map(() => randomUUID());
      const made = new Set((await boss.insert(queue, jobs.map((job, i) => ({ id: ids[i], data: job.data, singletonKey: job.key })), { returnId: true })) ?? []);
      return ids.map((id) => (made.has(id) ? id : null));
    },
    async cancel(queue, id) {
      await boss.cancel(queue, id);
    },
    async fail(queue, id, reason) {
      await boss.fail(queue, id, { message: reason });
    },
    async state(queue, id) {
      const job = await boss.getJobById(queue, id);
      return job ? job.state : null;
    },
  };
}
