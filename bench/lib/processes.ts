import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The user and system CPU of a /proc/<pid>/stat line, in milliseconds (clock ticks of 10 ms), and that of its children
 * that have ended (and were waited for).
 */
function statCpuMs(stat: string): { parent: number; ms: number; endedChildrenMs: number } {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { parent: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * 10, endedChildrenMs: (Number(fields[13]) + Number(fields[14])) * 10 };
}

/** CPU milliseconds used so far by one process (0 once it is gone). */
export function processCpuMs(pid: number): number {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, "utf8")).ms;
  } catch {
    return 0;
  }
}

/**
 * CPU milliseconds used so far by a cluster: its postmaster (the first line of postmaster.pid), the processes it forked
 * that still run (its backends), and those that have ended (a pool closes idle connections: their backends' time is
 * counted in the postmaster's ended children).
 */
export function postgresCpuMs(pgData: string): number {
  const postmaster = Number(readFileSync(path.join(pgData, "postmaster.pid"), "utf8").split("\n")[0]);
  let total = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const { parent, ms, endedChildrenMs } = statCpuMs(readFileSync(`/proc/${name}/stat`, "utf8"));
      if (Number(name) === postmaster) total += ms + endedChildrenMs;
      else if (parent === postmaster) total += ms;
    } catch {
      /* ended meanwhile */
    }
  }
  return total;
}

/** The q-quantile of sorted values (nearest rank). */
export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
