import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../support/ports.js";

/**
 * `npm start` itself (scripts/start.ts) on its own data folder and ports: a backend that dies is started again, the
 * web app keeps serving, and Ctrl-C still stops everything. It serves the project's build (TRIBUTARY_BUILD_DIR, else
 * build/), which `npm test` makes before this suite runs; run alone on sources newer than that build, the launcher's
 * own build step makes it first.
 */
const root = path.resolve(import.meta.dirname, "../..");
const buildDir = path.resolve(root, process.env.TRIBUTARY_BUILD_DIR || "build");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The launcher's child process running the backend (Linux: /proc). */
function backendPid(launcher: number): number | undefined {
  const children = readFileSync(`/proc/${launcher}/task/${launcher}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return children.find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("backend/main.ts");
    } catch {
      return false;
    }
  });
}

async function answers(url: string): Promise<number | null> {
  try {
    const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return null;
  }
}

let launcher: ChildProcess | undefined;
let dataDir: string | undefined;
const output: string[] = [];

afterAll(async () => {
  if (launcher && launcher.exitCode === null && launcher.signalCode === null) {
    // Its own process group: nothing it started is left behind.
    process.kill(-launcher.pid!, "SIGKILL");
    await sleep(500);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s. Launcher output:\n${output.slice(-60).join("\n")}`);
    await sleep(200);
  }
}

describe("the launcher (npm start)", () => {
  it("restarts a backend that dies, the web app keeps serving, and Ctrl-C stops everything", { timeout: 600_000 }, async () => {
    const ports = { app: await freePort(), backend: await freePort(), idp: await freePort(), pg: await freePort() };
    dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-launcher-"));
    // The embedded Postgres runs as the "postgres" user when we are root; it must be able to enter the folder.
    chmodSync(dataDir, 0o755);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(ports.app),
      BACKEND_PORT: String(ports.backend),
      LOCAL_IDP_PORT: String(ports.idp),
      PG_PORT: String(ports.pg),
      APP_URL: `http://localhost:${ports.app}`,
      TRIBUTARY_BUILD_DIR: buildDir,
      WEB_CONCURRENCY: "1",
      FORCE_COLOR: "0",
    };
    for (const name of ["DATABASE_URL", "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET", "BACKEND_URL", "NODE_ENV", "TRIBUTARY_SECRET_KEY", "HOST", "VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID"]) delete env[name];
    launcher = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/start.ts")], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line.trim()) output.push(line.slice(0, 400));
      output.splice(0, Math.max(0, output.length - 400));
    };
    launcher.stdout!.on("data", keep);
    launcher.stderr!.on("data", keep);
    const exited = new Promise<number | null>((resolve) => launcher!.once("exit", (code) => resolve(code)));
    const health = `http://127.0.0.1:${ports.backend}/healthz`;
    const app = `http://127.0.0.1:${ports.app}`;

    // A first start may build the web app (a few minutes on a busy machine).
    await waitFor("the launcher's start", () => output.some((l) => l.includes("Tributary is running")), 480_000);
    expect(await answers(health)).toBe(200);
    // The embedded cluster's password was made at its first start, readable by its owner only.
    const passwordFile = path.join(dataDir, "pg.password");
    expect(existsSync(passwordFile)).toBe(true);
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(passwordFile, "utf8").trim()).toMatch(/^[0-9a-f]{48}$/);

    const first = backendPid(launcher.pid!);
    expect(first).toBeDefined();
    process.kill(first!, "SIGKILL");
    await waitFor("the backend's restart", async () => {
      const pid = backendPid(launcher!.pid!);
      return pid !== undefined && pid !== first && (await answers(health)) === 200;
    }, 90_000);
    expect(output.join("\n")).toMatch(/The backend stopped \(SIGKILL\); restarting it/);
    expect(launcher.exitCode).toBeNull();
    // The web app kept running and reaches the new backend: the sign-in page renders.
    expect(await answers(`${app}/favicon.svg`)).toBe(200);
    const page = await answers(`${app}/`);
    expect(page).not.toBeNull();
    expect(page!).toBeLessThan(500);
    // Both tiers' checks for a load balancer: the web server is up and ready (its backend answers it is).
    expect(await answers(`${app}/healthz`)).toBe(200);
    expect(await answers(`${app}/readyz`)).toBe(200);
    expect(await answers(`http://127.0.0.1:${ports.backend}/readyz`)).toBe(200);

    // Ctrl-C: everything stops, Postgres included, and the launcher exits cleanly.
    const second = backendPid(launcher.pid!)!;
    const postgres = Number.parseInt(readFileSync(path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0]!, 10);
    launcher.kill("SIGINT");
    expect(await Promise.race([exited, sleep(60_000).then(() => "still running")])).toBe(0);
    await waitFor("every child's exit", () => !isAlive(second) && !isAlive(postgres), 10_000);
    expect(await answers(health)).toBeNull();
    expect(await answers(`${app}/favicon.svg`)).toBeNull();
  });
});
