import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** Every file under a folder, relative to it, sorted; none when the folder does not exist. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const full = path.join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}
