import { describe, expect, it } from "vitest";
import { checkDestinationSettings, DESTINATION_MANIFESTS } from "../../contract/integrations/destinations.js";
import { createDestinationSchema, destinationCategory, DESTINATION_MESSAGES as M } from "../../contract/destinations.js";
import { authPaths, DESTINATION_PLUGINS, destinationPlugin } from "../../backend/integrations/destinations/registry.js";
import { z } from "zod";

/** The seam a new destination plugs into: its manifest and its plug-in agree, and everything per type comes from them. */
describe("destination registry", () => {
  it("has one plug-in per manifest, in the same order, and the plug-in carries that manifest", () => {
    expect(DESTINATION_PLUGINS.map((p) => p.manifest.name)).toEqual(DESTINATION_MANIFESTS.map((m) => m.name));
    for (const plugin of DESTINATION_PLUGINS) expect(DESTINATION_MANIFESTS).toContain(plugin.manifest);
  });

  it("gives every plug-in what its manifest promises", () => {
    for (const { manifest, ...plugin } of DESTINATION_PLUGINS) {
      expect(typeof plugin.warehouse === "function", `${manifest.name} warehouse`).toBe(manifest.warehouse);
      if (manifest.needsConnectionTest) expect(typeof plugin.test, `${manifest.name} test`).toBe("function");
      for (const field of manifest.fields) expect(Object.keys(manifest.settings.shape), `${manifest.name} field ${field.name}`).toContain(field.name);
      for (const secret of manifest.secretFields) expect(manifest.fields.map((f) => f.name)).toContain(secret);
    }
  });

  it("routes every /externalauth path to one plug-in, Cloud Storage also as gcs", () => {
    const paths = authPaths().map(([path, plugin]) => [path, plugin.manifest.name]);
    expect(paths).toContainEqual(["gcs", "storage"]);
    expect(paths).toContainEqual(["storage", "storage"]);
    expect(new Set(paths.map(([path]) => path)).size).toBe(paths.length);
    expect(destinationPlugin("snowflake")!.pathVariant!({ category: "STORAGE" })).toBe("snowflake_stage");
  });

  it("takes the spec §9 category from the manifest", () => {
    expect(["storage", "bigquery", "snowflake", "snowflake_stage", "local"].map(destinationCategory)).toEqual(["STORAGE", "WAREHOUSE", "WAREHOUSE", "STORAGE", "STORAGE"]);
  });

  it("checks required settings with the spec's test messages, and refuses an unknown type", () => {
    const issues: string[] = [];
    const ctx = { addIssue: (issue: { message?: string }) => issues.push(issue.message ?? "") } as unknown as z.RefinementCtx;
    checkDestinationSettings("storage", {}, ctx, "test");
    expect(issues).toEqual([M.projectIdBeforeTest, M.bucketBeforeTest]);
    expect(createDestinationSchema.safeParse({ name: "x", integration_name: "nowhere" }).error?.issues[0]?.message).toBe(M.integration);
  });
});
