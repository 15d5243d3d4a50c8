import { describe, expect, it } from "vitest";
import { isNameText, isStorableJson, isStorableText } from "../../contract/text.js";
import { createSourceBodySchema, updateSourceBodySchema } from "../../contract/sources.js";
import { createConnectorBodySchema } from "../../contract/connectors.js";
import { createDestinationSchema } from "../../contract/destinations.js";
import { transformCreateSchema, updateTransformBodySchema } from "../../contract/transforms.js";
import { createApiKeyBodySchema } from "../../contract/api-keys.js";

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

  it("names refuse every control character and text-direction mark, with a sentence; descriptions keep them (issue 50)", () => {
    const marks = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"];
    const controls = ["\u0000", "\t", "\n", "\r", "\u001b", "\u007f", "\u0080", "\u0085", "\u009f"];
    for (const bad of [...marks, ...controls, "\ud800"]) expect(isNameText(`Report${bad}gpj.exe`), JSON.stringify(bad)).toBe(false);
    for (const good of ["plain", "Zoom → BigQuery", "emoji 😀", "ünïcödé", "תמלול פגישות", "اجتماعات"]) expect(isNameText(good), good).toBe(true);
    const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues.map((issue) => issue.message));
    const name = "Invoice\u202Efdp.exe";
    const refused = ["Name must not contain text-direction marks (such as a right-to-left override)."];
    expect(first(updateSourceBodySchema.safeParse({ name }))).toEqual(refused);
    expect(first(createSourceBodySchema.safeParse({ name, credentialId: "c", integration_name: "datagen", source_metadata: { format: "zoom" } }))).toEqual(refused);
    expect(first(createConnectorBodySchema.safeParse({ name, source_id: "s", destination_ids: ["d"], frequency: "daily", lookback_days: 7 }))).toEqual(refused);
    expect(first(createDestinationSchema.safeParse({ name, integration_name: "local" }))).toEqual(refused);
    expect(first(transformCreateSchema.safeParse({ template_id: "t", name, connector_id: "c", permissions_setup: true }))).toEqual(refused);
    expect(first(updateTransformBodySchema.safeParse({ name }))).toEqual(refused);
    expect(first(createApiKeyBodySchema.safeParse({ name, scope: "read" }))).toEqual(["The name must not contain text-direction marks (such as a right-to-left override)."]);
    // One sentence for a control character, however many rules it breaks.
    expect(first(createApiKeyBodySchema.safeParse({ name: "a\u0000b", scope: "read" }))).toEqual(["The name must not contain control characters."]);
    expect(first(updateSourceBodySchema.safeParse({ name: "a\u0085" }))).toEqual(["Name must not contain control characters."]);
    expect(updateSourceBodySchema.safeParse({ name: "Fine", description: "right-to-left \u200f mark kept" }).success).toBe(true);
  });
});
