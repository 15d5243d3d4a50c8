import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem, requiredNodeMajor } from "../../scripts/node-version.js";

const engines = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { engines: { node: string } }).engines.node;

describe("the Node version check of npm start and npm test", () => {
  it("reads the floor from package.json's engines", () => {
    expect(engines).toBe(">=24");
    expect(requiredNodeMajor(engines)).toBe(24);
    expect(() => requiredNodeMajor("^24")).toThrow('should read ">=N"');
  });

  it("lets Node 24 and newer through", () => {
    expect(nodeVersionProblem("v24.0.0", engines)).toBeNull();
    expect(nodeVersionProblem("v24.11.1", engines)).toBeNull();
    expect(nodeVersionProblem("v26.1.0", engines)).toBeNull();
    expect(nodeVersionProblem(process.version, engines)).toBeNull();
  });

  it("stops an older Node with one sentence naming both versions", () => {
    const sentence = nodeVersionProblem("v20.20.2", engines);
    expect(sentence).toBe(
      'Tributary needs Node 24 LTS or newer, and this is Node v20.20.2: install Node 24 (see "Prerequisites" in README.md) and run the command again.',
    );
    expect(sentence).not.toContain("\n");
    expect(nodeVersionProblem("v22.12.0", engines)).toContain("this is Node v22.12.0");
  });
});
