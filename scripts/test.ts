import "./node-version.js";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `npm test`: everything CI runs, in order — typecheck, lint, a production
 * build, unit + backend tests (vitest; the launcher's test starts `npm start` on
 * that build instead of building one of its own), then the browser tests
 * (Playwright, JS on and off). Prints one closing line "N passed, N failed".
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const reports = path.join(root, "test-results");

let passed = 0;
let failed = 0;
const failures: string[] = [];
/** Each step's name, wall-clock seconds and outcome, for the closing table. */
const timings: { name: string; seconds: number; ok: boolean }[] = [];

/** Seconds as "12.3 s", or "2 min 05.1 s" past a minute. */
function duration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${(seconds - minutes * 60).toFixed(1).padStart(4, "0")} s`;
}

function step(name: string, command: string, args: string[], count?: () => { passed: number; failed: number }) {
  console.log(`\n=== ${name} ===`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, FORCE_COLOR: "0" } });
  const seconds = (performance.now() - started) / 1000;
  const ok = result.status === 0;
  timings.push({ name, seconds, ok });
  console.log(`=== ${name}: ${ok ? "done" : "FAILED"} (${duration(seconds)}) ===`);
  if (count) {
    try {
      const counted = count();
      passed += counted.passed;
      failed += counted.failed;
    } catch {
      if (!ok) failed += 1;
    }
  } else if (ok) passed += 1;
  else failed += 1;
  if (!ok) failures.push(name);
  return ok;
}

rmSync(reports, { recursive: true, force: true });
step("typecheck", bin("tsc"), ["--noEmit"]);
step("lint", bin("eslint"), ["--max-warnings=0", "."]);
const built = step("build", bin("remix"), ["vite:build"]);
step("unit and backend tests", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${reports}/vitest.json`], () => {
  const report = JSON.parse(readFileSync(`${reports}/vitest.json`, "utf8"));
  return { passed: report.numPassedTests, failed: report.numFailedTests + (report.success ? 0 : report.numFailedTests === 0 ? 1 : 0) };
});
if (built) {
  step("browser tests", bin("playwright"), ["test"], () => {
    const report = JSON.parse(readFileSync(`${reports}/playwright.json`, "utf8"));
    const stats = report.stats;
    return { passed: stats.expected + stats.flaky, failed: stats.unexpected + (report.errors?.length ?? 0) };
  });
} else {
  failed += 1;
  failures.push("browser tests (not run: the build failed)");
}

const width = Math.max(...timings.map((t) => t.name.length));
console.log("\nStep durations:");
for (const t of timings) console.log(`  ${t.name.padEnd(width)}  ${duration(t.seconds).padStart(14)}${t.ok ? "" : "  (failed)"}`);
console.log(`  ${"total".padEnd(width)}  ${duration(timings.reduce((sum, t) => sum + t.seconds, 0)).padStart(14)}`);
if (failures.length) console.log(`\nFailed: ${failures.join(", ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && failures.length === 0 ? 0 : 1);
