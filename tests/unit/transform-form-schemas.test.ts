import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod";
import { type RequirementInput, type TemplateInput } from "../../contract/transforms";
import { foundNoInput, INPUT_MESSAGES, preferredFileType, requirementInputsSchema, templateInputsSchema } from "../../contract/transform-forms";

/** The transform wizard's form schemas as conform parses a posted form, and the input helpers (issue 26). */

/** The field errors of a refused submission (null when it was accepted). */
const errorsOf = (submission: { status?: string; error?: unknown }) => (submission.status === "error" ? submission.error : null);

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
};

describe("requirementInputsSchema", () => {
  const inputs: RequirementInput[] = [
    { key: "results_prefix", label: "Result table prefix", type: "string", required: true },
    { key: "region", label: "Region", type: "enum", enum: ["eu", "us"], required: false },
  ];
  const schema = requirementInputsSchema(inputs);

  it("needs the required ones filled (spaces are not filled) and an enum among its options", () => {
    const blank = parseWithZod(form([["results_prefix", "   "], ["region", "mars"]]), { schema });
    expect(blank.status).toBe("error");
    expect(errorsOf(blank)).toMatchObject({ results_prefix: ["Please fill in Result table prefix"], region: ["Please choose one of the options for Region"] });
    const missing = parseWithZod(form([]), { schema });
    expect(errorsOf(missing)).toMatchObject({ results_prefix: ["Please fill in Result table prefix"] });
  });

  it("answers the trimmed values, an optional one left blank as empty", () => {
    const ok = parseWithZod(form([["results_prefix", " weekly "], ["region", ""]]), { schema });
    expect(ok.status).toBe("success");
    expect(ok.status === "success" && ok.value).toEqual({ results_prefix: "weekly", region: "" });
  });
});

describe("templateInputsSchema", () => {
  const defs: Record<string, TemplateInput> = {
    num_topics: { type: "integer", required: true, description: "", label: "Number of topics", min: 2, max: 20 },
    extra_stopwords: { type: "list[string]", required: false, description: "" },
    provider: { type: "enum", required: true, description: "", enum: ["local", "hosted_llm"] },
    include_internal: { type: "boolean", required: false, description: "" },
    seed: { type: "integer", required: false, description: "", hidden: true, default: 42 },
  };
  const schema = templateInputsSchema(defs);
  const parse = (entries: [string, string][]) => parseWithZod(form(entries), { schema });

  it("reads each type: whole numbers in range, comma lists trimmed, ticked boxes, enums; hidden inputs keep their defaults", () => {
    const ok = parse([["num_topics", "3"], ["extra_stopwords", " acme ,  rockets,, "], ["provider", "local"], ["include_internal", "true"]]);
    expect(ok.status === "success" && ok.value).toEqual({ seed: 42, num_topics: 3, extra_stopwords: ["acme", "rockets"], provider: "local", include_internal: true });
    const unticked = parse([["num_topics", "3"], ["provider", "hosted_llm"]]);
    expect(unticked.status === "success" && unticked.value).toMatchObject({ include_internal: false, extra_stopwords: [] });
  });

  it("refuses with the field's own sentence", () => {
    expect(errorsOf(parse([["num_topics", "25"], ["provider", "local"]]))).toEqual({ num_topics: ["Number of topics must be between 2 and 20"] });
    expect(errorsOf(parse([["num_topics", "2.5"], ["provider", "local"]]))).toEqual({ num_topics: ["Number of topics must be a whole number"] });
    expect(errorsOf(parse([["provider", "cloud"]]))).toEqual({ num_topics: ["Please fill in Number of topics"], provider: ["Please choose one of the options for Provider"] });
  });
});

describe("what a connector's data holds", () => {
  it("prefers the form's default file type when the data has it, else the first it has", () => {
    expect(preferredFileType([".vtt", ".txt"])).toBe(".vtt");
    expect(preferredFileType([".txt", ".json"])).toBe(".txt");
    expect(preferredFileType([])).toBe(".vtt");
  });

  it("calls a succeeded run without records one with no input, and words the lists", () => {
    expect(foundNoInput({ status: "succeeded", records: 0 })).toBe(true);
    expect(foundNoInput({ status: "succeeded", records: 3 })).toBe(false);
    expect(foundNoInput({ status: "failed", records: 0 })).toBe(false);
    expect(INPUT_MESSAGES.dataHas([".txt", ".json"])).toBe("This connector's data comes as .txt and .json files.");
    expect(INPUT_MESSAGES.typeMissing(".vtt", [".txt", ".json"])).toContain("Choose .txt or .json.");
  });
});
