import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time used by each part of the running product (Linux /proc), so a run
 * can say where the machine's two cores went: the Remix server, the backend,
 * Postgres, and the load generator (this process).
 */
export type Part = "app" | "backend" | "postgres" | "launcher" | "other";
/** Milliseconds of CPU by part; `machine` is all busy CPU time of the machine, `wall` the clock. */
export type CpuSample = Record<Part | "loadgen" | "machine" | "wall", number>;

const TICK_MS = 10; // USER_HZ is 100 on Linux

interface Proc {
  pid: number;
  ppid: number;
  cpuMs: number;
  cmd: string;
}

function readProcs(): Proc[] {
  const procs: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name is in parentheses and may contain spaces: split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ppid = Number(fields[1]);
      const utime = Number(fields[11]);
      const stime = Number(fields[12]);
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      procs.push({ pid: Number(name), ppid, cpuMs: (utime + stime) * TICK_MS, cmd });
    } catch {
      /* the process ended meanwhile */
    }
  }
  return procs;
}

function classify(cmd: string): Part {
  if (cmd.includes("scripts/serve-app.ts")) return "app";
  if (cmd.includes("backend/main.ts")) return "backend";
  if (cmd.includes("postgres")) return "postgres";
  if (cmd.includes("scripts/start.ts")) return "launcher";
  return "other";
}

/** CPU used so far by the launcher's process tree, by part. Ended processes (e.g. closed Postgres backends) drop out; compare samples of long-lived ones. */
export function sampleCpu(launcherPid: number): CpuSample {
  const procs = readProcs();
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const sample: CpuSample = { app: 0, backend: 0, postgres: 0, launcher: 0, other: 0, loadgen: 0, machine: machineBusyMs(), wall: performance.now() };
  const root = procs.find((p) => p.pid === launcherPid);
  const stack = root ? [root] : [];
  while (stack.length) {
    const p = stack.pop()!;
    sample[classify(p.cmd)] += p.cpuMs;
    stack.push(...(children.get(p.pid) ?? []));
  }
  const self = process.cpuUsage();
  sample.loadgen = (self.user + self.system) / 1000;
  return sample;
}

/** Busy (non-idle, non-iowait) CPU time of the whole machine, from the first line of /proc/stat. */
export function machineBusyMs(): number {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) * TICK_MS;
  } catch {
    return NaN;
  }
}

/** CPUs' worth of work done by processes outside the benchmark (other users of the machine) during an interval. */
export function outsideCores(delta: CpuSample): number {
  const ours = delta.app + delta.backend + delta.postgres + delta.launcher + delta.other + delta.loadgen;
  return Math.max(0, delta.machine - ours) / Math.max(1, delta.wall);
}

export function cpuDelta(before: CpuSample, after: CpuSample): CpuSample {
  const out = { ...after };
  for (const key of Object.keys(out) as (keyof CpuSample)[]) out[key] = Math.max(0, after[key] - before[key]);
  return out;
}

export function sumCpu(samples: CpuSample[]): CpuSample {
  const out: CpuSample = { app: 0, backend: 0, postgres: 0, launcher: 0, other: 0, loadgen: 0, machine: 0, wall: 0 };
  for (const sample of samples) for (const key of Object.keys(out) as (keyof CpuSample)[]) out[key] += sample[key];
  return out;
}
