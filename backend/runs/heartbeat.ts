/**
 * Heartbeats of running runs (sync and transform): the worker running a run moves the run's `heartbeat_at` every
 * few seconds; a run still "running" whose heartbeat is older than the timeout lost its worker (killed, crashed,
 * its machine gone), and the workers' sweep (recoverDeadRuns in recovery.ts) retries or fails it. pg-boss's own
 * expiry of the job stays only as a backstop for a run that hangs while its process lives.
 * See docs/decisions/2026-11-25-runs-heartbeat.md.
 */
export interface HeartbeatSettings {
  /** Seconds between two heartbeats of a running run. */
  intervalSeconds: number;
  /** A running run whose heartbeat is older than this many seconds has lost its worker. */
  timeoutSeconds: number;
  /** Seconds between two sweeps for such runs, in every worker process. */
  sweepSeconds: number;
}

function seconds(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function heartbeatSettings(env: Record<string, string | undefined> = process.env): HeartbeatSettings {
  const intervalSeconds = seconds(env.RUN_HEARTBEAT_SECONDS, 5);
  // Several beats must be missed before a run counts as lost: a busy event loop or a slow database delays one.
  const timeoutSeconds = Math.max(seconds(env.RUN_HEARTBEAT_TIMEOUT_SECONDS, 30), intervalSeconds * 3);
  const sweepSeconds = seconds(env.RUN_HEARTBEAT_SWEEP_SECONDS, 10);
  return { intervalSeconds, timeoutSeconds, sweepSeconds };
}

/**
 * Calls `beat` every `intervalSeconds` until the answer is stopped; a beat never overlaps the previous one, and a
 * failed beat is reported and the next one tried (a run is not stopped for one missed heartbeat).
 */
export function keepBeating(beat: () => Promise<unknown>, intervalSeconds: number, onError: (error: unknown) => void): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    beat()
      .catch(onError)
      .finally(() => {
        busy = false;
      });
  }, intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
