import { readFileSync } from "node:fs";

/**
 * Imported first by `npm start` (scripts/start.ts) and `npm test` (scripts/test.ts): on a Node older than
 * package.json's `engines` (Node 24 LTS), they stop at once with one sentence instead of failing later with a stack
 * trace. Kept to what every Node since 12 runs, so that an old Node reaches the sentence.
 */

/** The lowest Node major version package.json's `engines.node` (">=24") accepts. */
export function requiredNodeMajor(engines: string): number {
  const match = /^>=\s*(\d+)/.exec(engines.trim());
  if (!match) throw new Error(`package.json's engines.node should read ">=N", not "${engines}"`);
  return Number(match[1]);
}

/** The sentence an older Node gets, or null when `version` (e.g. "v20.19.2") is new enough. */
export function nodeVersionProblem(version: string, engines: string): string | null {
  const required = requiredNodeMajor(engines);
  const major = Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
  if (major >= required) return null;
  return (
    `Tributary needs Node ${required} LTS or newer, and this is Node ${version}: ` +
    `install Node ${required} (see "Prerequisites" in README.md) and run the command again.`
  );
}

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { engines: { node: string } };
const problem = nodeVersionProblem(process.version, manifest.engines.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
