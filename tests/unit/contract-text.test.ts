import { describe, expect, it } from "vitest";
import { isStorableJson, isStorableText } from "../../contract/text.js";
import { createSourceBodySchema, updateSourceBodySchema } from "../../contract/sources.js";
import { createConnectorBodySchema } from "../../contract/connectors.js";
import { createDestinationSchema } from "../../contract/destinations.js";
import { transformCreateSchema } from "../../contract/transforms.js";

describe("storable text", () => {
  it("refuses NUL, other C0 controls and lone surrogates; keeps tabs, newlines and real pairs", () => {
    for (const bad of ["a\u0000b", "\u0007", "x\u001f", "\u007f", "\ud800", "a\udc00b", "\udc00\ud800"]) expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ["", "plain", "tab\there", "line\nbreak\r\n", "emoji 😀", "ünïcödé", "\u202e"]) expect(isStorableText(good), JSON.stringify(good)).toBe(true);
  });

  it("walks JSON values, keys included, and refuses nesting past the bound", () => {
    expect(isStorableJson({ a: [1, "ok", { b: null }] })).toBe(true);
    expect(isStorableJson({ a: [1, { b: "x\u0000" }] })).toBe(false);
    expect(isStorableJson({ "k\u0000": 1 })).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(isStorableJson(deep)).toBe(false);
  });

  it("is applied by the schemas of names and descriptions, with a sentence", () => {
    const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0]!.message);
    expect(first(updateSourceBodySchema.safeParse({ name: "a\u0000" }))).toBe("Name must not contain control characters.");
    expect(first(createSourceBodySchema.safeParse({ name: "a", description: "\u0000", credentialId: "c", integration_name: "datagen", source_metadata: { format: "zoom" } }))).toBe(
      "Description must not contain control characters.",
    );
    expect(first(createConnectorBodySchema.safeParse({ name: "a\u0000", source_id: "s", destination_ids: ["d"], frequency: "daily", lookback_days: 7 }))).toBe(
      "Name must not contain control characters.",
    );
    expect(first(createDestinationSchema.safeParse({ name: "n\u0000", integration_name: "local" }))).toBe("Name must not contain control characters.");
    expect(first(transformCreateSchema.safeParse({ template_id: "t", name: "n", description: "\u0000", connector_id: "c", permissions_setup: true }))).toBe(
      "Description must not contain control characters.",
    );
    expect(updateSourceBodySchema.safeParse({ name: "Fine name", description: "two\nlines" }).success).toBe(true);
  });
});
