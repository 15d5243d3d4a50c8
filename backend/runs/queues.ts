import type PgBoss from "pg-boss";

/**
 * The job queue the API sends runs through, one per database (tests run several backends in one process). Registered
 * by backend/server.ts once pg-boss has started; an API process without one answers that the queue is not running.
 */
const queues = new Map<string, PgBoss>();

export function registerRunQueue(databaseUrl: string, boss: PgBoss): () => void {
  queues.set(databaseUrl, boss);
  return () => {
    if (queues.get(databaseUrl) === boss) queues.delete(databaseUrl);
  };
}

export function runQueue(databaseUrl: string): PgBoss | undefined {
  return queues.get(databaseUrl);
}
