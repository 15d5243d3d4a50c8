import { describe, expect, it } from "vitest";
import { categoryLabel, dataStyleLabel, inWords, optionLabel, plainWords, platformLabel, transformTypeLabel } from "../../contract/labels.js";
import { destinationKindsInWords, warehouseKindsInWords } from "../../contract/integrations/destination-words.js";
import { cronInWords, scheduleInWords } from "../../contract/cron-words.js";
import { currentTimeZones, currentZoneName, timeZoneChoices, zoneOffset } from "../../contract/time-zones.js";
import { isScheduleTimeZone, SCHEDULE_CHOICES, TIME_ZONES } from "../../contract/schedules.js";
import { DESTINATION_MANIFESTS } from "../../contract/integrations/destinations.js";

/** Issue 35, defects 5, 8 and 10: stored values, schedules and time zones in words. */
describe("words for stored values", () => {
  it("names platforms, data styles, categories, options and types as people read them", () => {
    expect(platformLabel("ZOOM")).toBe("ZOOM");
    expect(platformLabel("GONG")).toBe("GONG");
    expect(platformLabel("TEAMS")).toBe("TEAMS");
    expect(dataStyleLabel("gong")).toBe("Gong calls");
    expect(categoryLabel("STORAGE")).toBe("Storage");
    expect(optionLabel("hosted_llm")).toBe("Hosted model");
    expect(transformTypeLabel("topic_modeling")).toBe("Topic Modeling");
    // Something new still reads as words, never as a code.
    expect(plainWords("top_weighted_terms")).toBe("Top weighted terms");
    expect(platformLabel("NEW_PLATFORM")).toBe("NEW PLATFORM");
  });

  it("lists every destination kind from the registry, PostgreSQL included", () => {
    expect(inWords(["a", "b", "c"])).toBe("a, b or c");
    expect(inWords(["a"], "and")).toBe("a");
    const words = destinationKindsInWords();
    for (const m of DESTINATION_MANIFESTS) if (m.name !== "snowflake_stage") expect(words).toContain(m.label);
    expect(words).toContain("PostgreSQL");
    expect(words).not.toContain("Snowflake Stage");
    expect(warehouseKindsInWords()).toContain("PostgreSQL");
    expect(warehouseKindsInWords()).not.toContain("Google Cloud Storage");
  });
});

describe("schedules in words", () => {
  it("says a cron expression in words, with its time zone", () => {
    expect(cronInWords("0 9 * * 1-5")).toBe("At 09:00, Monday through Friday");
    expect(scheduleInWords({ kind: "cron", expression: "0 9 * * 1-5", time_zone: "America/New_York" }, "daily")).toBe("At 09:00, Monday through Friday (America/New_York)");
    expect(scheduleInWords({ kind: "daily", time: "07:30", time_zone: "Asia/Calcutta" }, "daily")).toBe("Daily at 07:30 (Asia/Kolkata)");
    expect(scheduleInWords({ kind: "interval", every: 30, unit: "minutes" }, "daily")).toBe("Every 30 minutes");
  });

  it("says the interval rule the right way round", () => {
    expect(SCHEDULE_CHOICES.find((c) => c.value === "interval")?.hint).toBe("At least 15 minutes apart.");
  });
});

describe("time zones", () => {
  it("lists current IANA names, never the retired ones, and accepts both", () => {
    const zones = currentTimeZones();
    expect(zones).toEqual(TIME_ZONES);
    for (const zone of ["Asia/Kolkata", "Europe/Kyiv", "Asia/Ho_Chi_Minh", "America/Nuuk", "UTC"]) expect(zones).toContain(zone);
    for (const zone of ["Asia/Calcutta", "Europe/Kiev", "Asia/Saigon", "America/Godthab"]) expect(zones).not.toContain(zone);
    expect(new Set(zones).size).toBe(zones.length);
    for (const zone of zones) expect(isScheduleTimeZone(zone), zone).toBe(true);
    expect(isScheduleTimeZone("Asia/Calcutta")).toBe(true);
    expect(currentZoneName("Europe/Kiev")).toBe("Europe/Kyiv");
  });

  it("gives each zone its offset", () => {
    const at = new Date("2026-01-15T12:00:00Z");
    expect(zoneOffset("Asia/Kolkata", at)).toBe("UTC+05:30");
    expect(zoneOffset("UTC", at)).toBe("UTC+00:00");
    expect(zoneOffset("America/New_York", at)).toBe("UTC-05:00");
    expect(zoneOffset("America/New_York", new Date("2026-07-15T12:00:00Z"))).toBe("UTC-04:00");
    expect(timeZoneChoices(["Asia/Kolkata", "America/New_York"], at)).toEqual([
      { value: "Asia/Kolkata", label: "Asia/Kolkata (UTC+05:30)" },
      { value: "America/New_York", label: "America/New York (UTC-05:00)" },
    ]);
  });
});

describe("templates name every warehouse kind (issue 35, defect 10)", () => {
  it("each template's first requirement lists the warehouse destinations from the registry, PostgreSQL included", async () => {
    const { allDefinitions } = await import("../../backend/transforms/catalogue.js");
    const warehouses = DESTINATION_MANIFESTS.filter((m) => m.warehouse).map((m) => m.label);
    expect(warehouses).toContain("PostgreSQL");
    for (const template of allDefinitions()) {
      const requirement = template.requirements[0]!;
      expect(requirement, template.id).toContain(warehouseKindsInWords());
      expect(requirement, template.id).not.toMatch(/local, BigQuery or Snowflake/);
    }
  });
});
