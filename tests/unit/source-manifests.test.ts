import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { providersInWords, SOURCE_MANIFESTS, type SourceIntegration } from "../../contract/integrations/sources.js";
import { BACKEND_RESPONSES } from "../../contract/responses.js";
import { SOURCE_PLUGINS } from "../../backend/integrations/sources/index.js";
import { SOURCE_SETUPS } from "../../app/integrations/sources.js";
import { SOURCE_SERVERS } from "../../app/integrations/sources.server.js";

/**
 * Issue 53: a source is registered by its manifest. Its setup calls, the app's part of its form and its details
 * labels all come from its own folders; these checks keep the manifest, the plug-in and the app folder in step.
 */
const manifests = SOURCE_MANIFESTS as readonly SourceIntegration[];
const root = path.resolve(import.meta.dirname, "../..");

describe("source manifests", () => {
  it("declare exactly the setup calls their plug-ins answer, with the same methods", () => {
    for (const plugin of SOURCE_PLUGINS) {
      const declared = Object.fromEntries(Object.entries(plugin.manifest.setupCalls).map(([name, c]) => [name, c.method]));
      const answered = Object.fromEntries(Object.entries(plugin.setup).map(([name, c]) => [name, c.method]));
      expect(answered, plugin.manifest.name).toEqual(declared);
    }
    expect(SOURCE_PLUGINS.map((p) => p.manifest.name).sort()).toEqual(manifests.map((m) => m.name).sort());
  });

  it("give the session backend's table of answers one route per declared call", () => {
    const routes = Object.keys(BACKEND_RESPONSES).filter((route) => route.includes(" /externalauth/") && manifests.some((m) => route.includes(`/externalauth/${m.name}/`)));
    const declared = manifests.flatMap((m) => Object.entries(m.setupCalls).map(([name, c]) => `${c.method} /externalauth/${m.name}/${name}`));
    expect(routes.sort()).toEqual(declared.sort());
    const gmail = manifests.find((m) => m.name === "gmail")!;
    expect(BACKEND_RESPONSES["POST /externalauth/gmail/get-groups"]).toBe(gmail.setupCalls["get-groups"]!.answer);
  });

  it("each have an app folder with the form's part and the create page's server part, found with no registry line", () => {
    for (const m of manifests) {
      expect(existsSync(path.join(root, "app/integrations/sources", m.name, "setup.tsx")), m.name).toBe(true);
      expect(existsSync(path.join(root, "app/integrations/sources", m.name, "setup.server.ts")), m.name).toBe(true);
      expect(SOURCE_SETUPS[m.name]?.fields.length, m.name).toBeGreaterThan(0);
      expect(typeof SOURCE_SERVERS[m.name]?.authFlow, m.name).toBe("function");
    }
    expect(Object.keys(SOURCE_SETUPS).sort()).toEqual(manifests.map((m) => m.name).sort());
  });

  it("label the settings a details page shows, each a setting the manifest declares", () => {
    for (const m of manifests) {
      expect(Object.keys(m.settingLabels).length, m.name).toBeGreaterThan(0);
      for (const key of Object.keys(m.settingLabels)) expect(Object.keys(m.settings.shape), `${m.name}: ${key}`).toContain(key);
    }
  });

  it("declare an authentication mode field among their settings, its default among its modes", () => {
    for (const m of manifests.filter((m) => m.authModes)) {
      expect(Object.keys(m.settings.shape)).toContain(m.authModes!.field);
      expect(m.authModes!.modes.map((x) => x.mode)).toContain(m.authModes!.defaultMode);
    }
  });

  it("name the providers in a sentence, the data generator left out", () => {
    const labels = manifests.filter((m) => !m.synthetic).map((m) => m.label);
    expect(providersInWords(",")).toBe(labels.join(", "));
    expect(providersInWords("and")).toBe(`${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`);
    expect(providersInWords("and")).toMatch(/^Zoom, Microsoft Teams(, .+)? and .+$/);
    expect(providersInWords(",")).not.toContain("Data Generator");
  });
});
