import "./node-version.js";
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `npm test`: everything CI runs — typecheck, lint and a production build, one after another; beside them the unit
 * and backend tests (vitest), but the two that serve that build and so run once it is made: the launcher's test (it
 * starts `npm start`) and the multi-process test (web servers in front of API processes); then the browser tests
 * (Playwright, JS on and off). The build uses little more than one of CI's two cores, so the tests use the other.
 * Prints each step's time and one closing line "N passed, N failed".
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const reports = path.join(root, "test-results");
/** The vitest files that serve the build. */
const ON_THE_BUILD = ["tests/backend/launcher.test.ts", "tests/backend/multi-process.test.ts"];

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

/**
 * Runs one step. Its output goes straight through, or, with `quiet` (a step running beside another), is kept and
 * printed in one piece when it ends, so that two steps' lines never mix.
 */
async function step(name: string, command: string, args: string[], options: { count?: () => { passed: number; failed: number }; quiet?: boolean } = {}): Promise<boolean> {
  const { count, quiet = false } = options;
  console.log(`\n=== ${name}${quiet ? " (its output comes when it ends)" : ""} ===`);
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", env: { ...process.env, FORCE_COLOR: "0" } });
  const output: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
  const status = await new Promise<number | null>((resolve) => {
    child.on("error", () => resolve(null));
    child.on("close", (code) => resolve(code));
  });
  const seconds = (performance.now() - started) / 1000;
  const ok = status === 0;
  if (quiet) {
    console.log(`\n=== ${name}: its output ===`);
    process.stdout.write(Buffer.concat(output));
  }
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

/** vitest with a JSON report of its own; its counts. */
function vitest(name: string, report: string, args: string[], quiet = false) {
  return step(name, bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${reports}/${report}`, ...args], {
    quiet,
    count: () => {
      const result = JSON.parse(readFileSync(`${reports}/${report}`, "utf8"));
      return { passed: result.numPassedTests, failed: result.numFailedTests + (result.success ? 0 : result.numFailedTests === 0 ? 1 : 0) };
    },
  });
}

/** One test's layer, name and seconds, read from the runners' JSON reports. */
interface Timed {
  layer: string;
  name: string;
  seconds: number;
  passed: boolean;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(path.join(reports, file), "utf8"));
  } catch {
    return null;
  }
}

/** Every test vitest ran: unit (tests/unit) or backend (the rest). */
function vitestTests(file: string): Timed[] {
  const report = readJson(file) as { testResults?: { name: string; assertionResults: { fullName: string; duration?: number; status: string }[] }[] } | null;
  return (report?.testResults ?? []).flatMap((f) =>
    f.assertionResults.map((t) => ({
      layer: f.name.includes("/tests/unit/") ? "unit" : "backend",
      name: `${path.relative(root, f.name)} › ${t.fullName}`,
      seconds: (t.duration ?? 0) / 1000,
      passed: t.status === "passed",
    })),
  );
}

interface PlaywrightSuite {
  file?: string;
  specs?: { title: string; file: string; tests: { projectName: string; results: { duration: number; status: string }[] }[] }[];
  suites?: PlaywrightSuite[];
}

/** Every test Playwright ran: http (no browser) or browser (js-on, js-off), each project's run its own entry. */
function playwrightTests(): Timed[] {
  const report = readJson("playwright.json") as { suites?: PlaywrightSuite[] } | null;
  const found: Timed[] = [];
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        if (t.results.length === 0 || t.results.every((r) => r.status === "skipped")) continue;
        found.push({
          layer: t.projectName === "http" ? "http" : "browser",
          name: `[${t.projectName}] ${spec.file} › ${[...titles, spec.title].join(" › ")}`,
          seconds: t.results.reduce((sum, r) => sum + r.duration, 0) / 1000,
          passed: t.results.at(-1)?.status === "passed",
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.file ? titles : [...titles, (child as { title?: string }).title ?? ""]);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  return found;
}

/** The checks per layer and the 15 slowest tests: where the suite's time goes (README, "Testing"). */
function printCost() {
  const all = [...vitestTests("vitest.json"), ...vitestTests("vitest-on-the-build.json"), ...playwrightTests()];
  if (all.length === 0) return;
  const layers = ["unit", "backend", "http", "browser"];
  console.log("\nChecks per layer (tests run; a browser test run with JavaScript on and off counts twice):");
  for (const layer of layers) {
    const tests = all.filter((t) => t.layer === layer);
    const seconds = tests.reduce((sum, t) => sum + t.seconds, 0);
    console.log(`  ${layer.padEnd(8)} ${String(tests.length).padStart(5)} tests, ${duration(seconds).padStart(14)} of test time`);
  }
  console.log("\nThe 15 slowest tests:");
  for (const t of [...all].sort((a, b) => b.seconds - a.seconds).slice(0, 15)) {
    console.log(`  ${duration(t.seconds).padStart(14)}  ${t.layer.padEnd(7)} ${t.name.slice(0, 160)}${t.passed ? "" : "  (failed)"}`);
  }
}

const began = performance.now();
rmSync(reports, { recursive: true, force: true });
const [built] = await Promise.all([
  (async () => {
    await step("typecheck", bin("tsc"), ["--noEmit"]);
    await step("lint", bin("eslint"), ["--max-warnings=0", "."]);
    return step("build", bin("remix"), ["vite:build"]);
  })(),
  vitest("unit and backend tests", "vitest.json", ON_THE_BUILD.flatMap((file) => ["--exclude", file]), true),
]);
if (built) {
  await vitest("the launcher's and the multi-process tests (on the build)", "vitest-on-the-build.json", ON_THE_BUILD);
  await step("browser tests", bin("playwright"), ["test"], {
    count: () => {
      const report = JSON.parse(readFileSync(`${reports}/playwright.json`, "utf8"));
      const stats = report.stats;
      return { passed: stats.expected + stats.flaky, failed: stats.unexpected + (report.errors?.length ?? 0) };
    },
  });
} else {
  failed += 2;
  failures.push("the launcher's and the multi-process tests and the browser tests (not run: the build failed)");
}

printCost();

const width = Math.max(...timings.map((t) => t.name.length));
console.log("\nStep durations (the typecheck, the lint and the build ran beside the unit and backend tests):");
for (const t of timings) console.log(`  ${t.name.padEnd(width)}  ${duration(t.seconds).padStart(14)}${t.ok ? "" : "  (failed)"}`);
console.log(`  ${"total, wall clock".padEnd(width)}  ${duration((performance.now() - began) / 1000).padStart(14)}`);
if (failures.length) console.log(`\nFailed: ${failures.join(", ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && failures.length === 0 ? 0 : 1);
