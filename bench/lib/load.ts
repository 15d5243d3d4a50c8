import autocannon from "autocannon";

export interface LoadTarget {
  url: string;
  connections: number;
  headers: Record<string, string>;
}

export interface LoadResult {
  url: string;
  connections: number;
  /** Seconds of load actually applied (sum over slices). */
  seconds: number;
  /**
   * Answers per second in steady state: the answers after the first second of
   * each run ÷ the remaining time (the first second holds connection set-up and
   * the first round trip, which at 50 connections weighs on a slow page).
   */
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
  /** Mean bytes of a 2xx answer as read from the socket (headers included, compressed if the server compressed). */
  meanBytes: number;
}

const RAMP_MS = 1000;

interface Raw {
  target: LoadTarget;
  seconds: number;
  times: number[];
  /** Answers after the ramp, and the seconds after it. */
  steady: number;
  steadySeconds: number;
  bytes2xx: number;
  count2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** One closed-loop autocannon run: `connections` keep-alive connections, each sending its next request as soon as the last answer arrives. */
async function once(target: LoadTarget, limit: { seconds: number } | { amount: number }): Promise<Raw> {
  const times: number[] = [];
  let bytes2xx = 0;
  let steady = 0;
  const started = performance.now();
  const instance = autocannon({
    url: target.url,
    connections: target.connections,
    ...("amount" in limit ? { amount: limit.amount } : { duration: limit.seconds }),
    timeout: 30,
    headers: target.headers,
  });
  instance.on("response", (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
    times.push(responseTime);
    if (performance.now() - started >= RAMP_MS) steady++;
    if (statusCode >= 200 && statusCode < 300) bytes2xx += resBytes;
  });
  const result = await instance;
  return {
    target,
    seconds: result.duration,
    times,
    steady,
    steadySeconds: Math.max(0, result.duration - RAMP_MS / 1000),
    bytes2xx,
    count2xx: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  };
}

function summarize(raws: Raw[]): LoadResult {
  const times = raws.flatMap((r) => r.times).sort((a, b) => a - b);
  const seconds = raws.reduce((n, r) => n + r.seconds, 0);
  const steady = raws.reduce((n, r) => n + r.steady, 0);
  const steadySeconds = raws.reduce((n, r) => n + r.steadySeconds, 0);
  const count2xx = raws.reduce((n, r) => n + r.count2xx, 0);
  const statusCodes: Record<string, number> = {};
  for (const r of raws) for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    url: raws[0]!.target.url,
    connections: raws[0]!.target.connections,
    seconds,
    rps: steadySeconds > 0 ? steady / steadySeconds : times.length / Math.max(seconds, 1e-9),
    requests: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: times[times.length - 1] ?? NaN,
    non2xx: raws.reduce((n, r) => n + r.non2xx, 0),
    errors: raws.reduce((n, r) => n + r.errors, 0),
    timeouts: raws.reduce((n, r) => n + r.timeouts, 0),
    statusCodes,
    meanBytes: count2xx ? raws.reduce((n, r) => n + r.bytes2xx, 0) / count2xx : 0,
  };
}

/** Load for `seconds`, or until `amount` answers (warm-up). */
export async function load(target: LoadTarget & ({ seconds: number } | { amount: number })): Promise<LoadResult> {
  return summarize([await once(target, "amount" in target ? { amount: target.amount } : { seconds: target.seconds })]);
}

/**
 * Two targets loaded in alternating slices (A, B, A, B, …) of `seconds / slices`
 * each, `seconds` in all per target. On a machine that other work shares, a
 * burst of that work then weighs on both sides of a ratio alike.
 */
export async function alternate(
  a: LoadTarget,
  b: LoadTarget,
  seconds: number,
  slices: number,
  /** Called around each slice (e.g. to account CPU time to A or B). */
  hook: (which: 0 | 1, moment: "start" | "end") => void = () => {},
): Promise<[LoadResult, LoadResult]> {
  const slice = Math.max(1, Math.round(seconds / slices));
  const runs: [Raw[], Raw[]] = [[], []];
  for (let i = 0; i < slices; i++) {
    for (const which of [0, 1] as const) {
      hook(which, "start");
      runs[which].push(await once(which === 0 ? a : b, { seconds: slice }));
      hook(which, "end");
    }
  }
  return [summarize(runs[0]), summarize(runs[1])];
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
