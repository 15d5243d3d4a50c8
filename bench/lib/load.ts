import autocannon from "autocannon";

export interface LoadResult {
  url: string;
  connections: number;
  seconds: number;
  /** autocannon's mean of the per-second request counts. */
  rps: number;
  requests: number;
  /** Exact percentiles (ms) over every response of the run (autocannon's histogram has no p95). */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Mean response body bytes (as sent on the wire). */
  meanBytes: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Closed-loop load: `connections` keep-alive connections, each sending its next request as soon as the last answer arrives. */
export async function load(options: { url: string; connections: number; seconds?: number; amount?: number; headers: Record<string, string> }): Promise<LoadResult> {
  const times: number[] = [];
  let bytes = 0;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.seconds ?? 10 }),
    timeout: 30,
    headers: options.headers,
  });
  instance.on("response", (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
    times.push(responseTime);
    if (statusCode >= 200 && statusCode < 300) bytes += resBytes;
  });
  const result = await instance;
  times.sort((a, b) => a - b);
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  return {
    url: options.url,
    connections: options.connections,
    seconds: result.duration,
    rps: result.requests.average,
    requests: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: times[times.length - 1] ?? NaN,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    meanBytes: times.length ? bytes / Math.max(1, result["2xx"]) : 0,
  };
}

/** Why a run cannot be trusted, or null: every answer must be a 2xx, with no socket errors or timeouts. */
export function problems(run: LoadResult): string | null {
  const issues: string[] = [];
  if (run.non2xx) issues.push(`${run.non2xx} non-2xx answers (${JSON.stringify(run.statusCodes)})`);
  if (run.errors) issues.push(`${run.errors} errors`);
  if (run.timeouts) issues.push(`${run.timeouts} timeouts`);
  if (!run.requests) issues.push("no answers at all");
  return issues.length ? `${run.url} @${run.connections}: ${issues.join(", ")}` : null;
}
