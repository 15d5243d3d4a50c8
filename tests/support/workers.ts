import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Real backend processes (`backend/main.ts --role worker`, or another role) on a test backend's database, which a test
 * kills and starts again, and web servers in front of them (`startWeb`). Their last output lines are kept, to show
 * when a run gets stuck.
 */
export class WorkerProcesses {
  readonly running = new Set<ChildProcess>();
  readonly output: string[] = [];
  private count = 0;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly keepLines = 200,
  ) {}

  start(role: "worker" | "api" | "scheduler" = "worker", env: Record<string, string> = {}): ChildProcess {
    return this.spawn(role, [path.join(root, "backend/main.ts"), "--role", role], env);
  }

  /**
   * One web server process (scripts/serve-app.ts, as the README's Deploying section runs it) on the project's build
   * (TRIBUTARY_BUILD_DIR, else build/), in front of the backend at `env.BACKEND_URL`, on `env.PORT`.
   */
  startWeb(env: { BACKEND_URL: string; PORT: string }): ChildProcess {
    const buildDir = path.resolve(root, this.env.TRIBUTARY_BUILD_DIR || "build");
    if (!existsSync(path.join(buildDir, "server/index.js"))) {
      throw new Error(`The web app is not built (${path.join(buildDir, "server/index.js")} is missing): run \`npm run build\` first (\`npm test\` builds before this test runs).`);
    }
    return this.spawn("web", [path.join(root, "scripts/serve-app.ts")], { WEB_CONCURRENCY: "1", ...env });
  }

  private spawn(name: string, args: string[], env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { cwd: root, env: { ...this.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const label = `${name} ${++this.count} (pid ${child.pid})`;
    const keep = (stream: string) => (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line.trim()) this.output.push(`${label} ${stream}: ${line.slice(0, 500)}`);
      this.output.splice(0, Math.max(0, this.output.length - this.keepLines));
    };
    child.stdout!.on("data", keep("out"));
    child.stderr!.on("data", keep("err"));
    this.running.add(child);
    child.once("exit", (code, signal) => {
      this.running.delete(child);
      this.output.push(`${label} exited (${signal ?? code})`);
    });
    return child;
  }

  /** Sends `signal` and waits for the process to exit. */
  async stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
  }

  async stopAll(signal: NodeJS.Signals): Promise<void> {
    for (const child of [...this.running]) await this.stop(child, signal);
  }
}
