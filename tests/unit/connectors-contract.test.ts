import { describe, expect, it } from "vitest";
import { createConnectorBodySchema, LOOKBACK_OPTIONS, platformsFor, updateConnectorBodySchema, CONNECTOR_MESSAGES as M } from "../../contract/connectors.js";
import { latestSlot } from "../../backend/sync/index.js";

const first = (result: { success: boolean; error?: { issues: { message: string }[] } }) => (result.success ? null : result.error!.issues[0]!.message);

describe("connector contract", () => {
  it("trims name, description and frequency; frequency is daily or hourly, any case", () => {
    const parsed = createConnectorBodySchema.parse({ name: "  A ", description: " d ", frequency: " HOURLY ", source_id: " s ", destination_ids: ["x"], lookback_days: "7" });
    expect(parsed).toMatchObject({ name: "A", description: "d", frequency: "hourly", source_id: "s", lookback_days: 7 });
    expect(first(createConnectorBodySchema.safeParse({ name: "A", frequency: "weekly", source_id: "s", lookback_days: 1 }))).toBe(M.frequencyInvalid);
    expect(first(updateConnectorBodySchema.safeParse({ name: "A", description: "d", source_id: "s", destination_id: "x", frequency: "monthly" }))).toBe(M.frequencyInvalid);
    expect(first(updateConnectorBodySchema.safeParse({ name: "A", description: "d", source_id: "s", destination_id: "x", frequency: 3 }))).toBe(M.frequencyRequired);
  });

  it("a field left out or null: a required one says its own message, description and platform read as empty", () => {
    expect(first(createConnectorBodySchema.safeParse({ frequency: "daily", source_id: "s", lookback_days: 1 }))).toBe(M.nameRequired);
    expect(first(createConnectorBodySchema.safeParse({ name: null, frequency: "daily", source_id: "s", lookback_days: 1 }))).toBe(M.nameRequired);
    expect(first(createConnectorBodySchema.safeParse({ name: "A", frequency: "daily", lookback_days: 1 }))).toBe(M.sourceRequired);
    expect(createConnectorBodySchema.parse({ name: "A", description: null, platform: null, frequency: "daily", source_id: "s", lookback_days: 1 })).toMatchObject({ description: "", platform: "" });
    expect(first(updateConnectorBodySchema.safeParse({ name: "A", source_id: "s", destination_id: "x", frequency: "daily" }))).toBeNull();
    expect(first(updateConnectorBodySchema.safeParse({ name: "A", description: "d", source_id: "s", frequency: "daily" }))).toBe(M.destinationRequired);
  });

  it("lookback days must be one of the options; the first is the default", () => {
    expect(LOOKBACK_OPTIONS[0].value).toBe(1);
    expect(first(createConnectorBodySchema.safeParse({ name: "A", frequency: "daily", source_id: "s", lookback_days: 2 }))).toBe(M.lookbackInvalid);
    expect(first(createConnectorBodySchema.safeParse({ name: "A", frequency: "daily", source_id: "s" }))).toBe(M.lookbackRequired);
  });

  it("platforms: each meeting source its own, the data generator its style", () => {
    expect(platformsFor("zoom")).toEqual(["zoom"]);
    expect(platformsFor("datagen")).toEqual(["zoom", "gong"]);
    expect(platformsFor("datagen", { format: "gong" })).toEqual(["gong"]);
    expect(platformsFor("datagen", { format: "other" })).toEqual([]);
    expect(platformsFor("nope")).toEqual([]);
  });
});

describe("schedule slots", () => {
  it("hourly: one slot per hour at a fixed offset; daily: one per day", () => {
    const id = "2f0e7b52-5d7c-4e0a-9d6c-0b7f4a8e1c11";
    const now = new Date("2026-11-22T10:30:00Z");
    const slot = latestSlot(id, "hourly", now);
    expect(slot.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(now.getTime() - slot.getTime()).toBeLessThan(3_600_000);
    expect(latestSlot(id, "hourly", new Date(now.getTime() + 3_600_000)).getTime() - slot.getTime()).toBe(3_600_000);
    const day = latestSlot(id, "daily", now);
    expect(now.getTime() - day.getTime()).toBeLessThan(86_400_000);
    expect(latestSlot(id, "daily", new Date(now.getTime() + 86_400_000)).getTime() - day.getTime()).toBe(86_400_000);
    expect(latestSlot("0b1c9a52-1d7c-4e0a-9d6c-0b7f4a8e1c11", "hourly", now).getTime()).not.toBe(slot.getTime());
  });
});
