import { readFileSync, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { machineBusyMs } from "./cpu.js";

/** Milliseconds the block device holding `dir` has spent doing I/O (/proc/diskstats); NaN on tmpfs or off Linux. */
function diskBusyMs(dir: string): number {
  try {
    const dev = statSync(dir).dev;
    const major = Math.floor(dev / 256) & 0xfff;
    const minor = (dev & 0xff) | (Math.floor(dev / 4096) & ~0xff);
    for (const line of readFileSync("/proc/diskstats", "utf8").split("\n")) {
      const fields = line.trim().split(/\s+/);
      if (Number(fields[0]) === major && Number(fields[1]) === minor) return Number(fields[12]);
    }
  } catch {
    // Not Linux, or the folder is gone.
  }
  return NaN;
}

/**
 * Waits (up to `maxSeconds`) for a 2-second window in which the machine uses less than `threshold` CPUs and the disk
 * under `dir` is busy less than a tenth of the time.
 */
export async function waitForQuiet(maxSeconds: number, dir: string, threshold = 0.25): Promise<void> {
  const end = Date.now() + maxSeconds * 1000;
  while (Date.now() < end) {
    const before = machineBusyMs();
    const diskBefore = diskBusyMs(dir);
    await sleep(2000);
    const busy = (machineBusyMs() - before) / 2000;
    const disk = (diskBusyMs(dir) - diskBefore) / 2000;
    if (!(busy >= threshold) && !(disk >= 0.1)) return;
  }
}
