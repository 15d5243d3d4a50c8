import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod";
import { CONNECTOR_MESSAGES as M, connectorIntentSchema, updateConnectorBodySchema } from "../../contract/connectors.js";
import { createFormSchema, type CascadeRules } from "../../app/routes/_app.connectors.add/schema.js";

/** A form as the browser sends it: every field, empty ones as "". */
const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
};
/** The field errors of a refused form (null when it parsed). */
const errorsOf = (result: { status?: string; reply(): { error?: Record<string, string[] | null> | null } }) => (result.status === "success" ? null : result.reply().error);

const EMPTY = { name: "", description: "", source: "", frequency: "", lookback_days: "1", prev_source: "", prev_platform: "" };
const NONE_CHOSEN: CascadeRules = { platforms: null, destinations: null, requiredCategories: [] };
const CHOSEN: CascadeRules = { platforms: ["zoom"], destinations: [{ id: "d1", category: "STORAGE" }], requiredCategories: [] };

describe("the Create Connector form", () => {
  it("an empty form: the spec's message at each required field (not zod's generic Required)", () => {
    expect(errorsOf(parseWithZod(form(EMPTY), { schema: createFormSchema(NONE_CHOSEN) }))).toEqual({
      name: [M.nameRequired],
      source: [M.sourceRequired],
      frequency: [M.frequencyRequired],
    });
  });

  it("the chosen source's rules: its platform, its destinations, its required categories", () => {
    const base = { ...EMPTY, name: "N", source: "s1", frequency: "daily" };
    expect(errorsOf(parseWithZod(form(base), { schema: createFormSchema(CHOSEN) }))).toEqual({ platform: [M.platformRequired], destination_ids: [M.destinationsRequired] });
    expect(errorsOf(parseWithZod(form({ ...base, platform: "gong" }), { schema: createFormSchema(CHOSEN) }))?.platform).toEqual([M.platformInvalid]);
    expect(errorsOf(parseWithZod(form({ ...base, platform: "zoom" }), { schema: createFormSchema({ ...CHOSEN, destinations: [] }) }))).toEqual({ destination_ids: [M.noDestinationsForPlatform] });
    const warehouse = createFormSchema({ ...CHOSEN, requiredCategories: ["WAREHOUSE", "storage"] });
    expect(errorsOf(parseWithZod(form({ ...base, platform: "zoom", destination_ids: "d1" }), { schema: warehouse }))).toEqual({ destination_ids: [M.missingCategories(["WAREHOUSE"])] });
  });

  it("the parsed value is the payload of POST /connectors/create: trimmed, typed, source as source_id", () => {
    const result = parseWithZod(form({ ...EMPTY, name: "  Nightly ", source: "s1", platform: "ZOOM", destination_ids: ["d1"], frequency: " Hourly ", lookback_days: "7" }), {
      schema: createFormSchema(CHOSEN),
    });
    expect(result.status === "success" ? result.value : result.reply()).toEqual({
      name: "Nightly",
      description: "",
      source_id: "s1",
      platform: "zoom",
      destination_ids: ["d1"],
      frequency: "hourly",
      lookback_days: 7,
    });
  });
});

describe("the Update Connector form and the details page's intents", () => {
  it("every required field with its own message; the description is optional, as on Create (issue 35)", () => {
    const result = parseWithZod(form({ name: "", description: "", source_id: "", destination_id: "", frequency: "", lookback_days: "" }), { schema: updateConnectorBodySchema });
    expect(errorsOf(result)).toEqual({
      name: [M.nameRequired],
      source_id: [M.sourceRequired],
      // The edit page's destinations are checkboxes (issue 35 item 2): the error sits at their group.
      destination_ids: [M.destinationRequired],
      frequency: [M.frequencyRequired],
    });
  });

  it("an intent is one of the page's buttons", () => {
    for (const intent of ["sync", "pause", "resume", "delete"]) expect(parseWithZod(form({ intent }), { schema: connectorIntentSchema }).status).toBe("success");
    expect(errorsOf(parseWithZod(form({ intent: "explode" }), { schema: connectorIntentSchema }))).toEqual({ intent: [M.intentInvalid] });
    expect(errorsOf(parseWithZod(form({}), { schema: connectorIntentSchema }))).toEqual({ intent: [M.intentInvalid] });
  });
});
