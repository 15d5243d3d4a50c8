import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { resultsCsv } from "../../backend/transforms/results-csv.js";

describe("resultsCsv: a result table as a CSV file", () => {
  it("writes the header, then every row in column order, with values a spreadsheet and a program both read back", () => {
    const text = resultsCsv(
      ["label", "documents", "score", "active", "top_words", "computed_at", "note"],
      [
        { label: "roadmap, pricing", documents: 3, score: 0.21534, active: true, top_words: [{ word: "roadmap", weight: 0.2 }], computed_at: new Date("2025-01-05T15:04:05Z"), note: 'said "no"\nthen left' },
        { label: "empty", documents: 0, score: null, active: false, top_words: [], computed_at: null, note: undefined },
      ],
    );
    expect(text.endsWith("\r\n")).toBe(true);
    expect(parse(text)).toEqual([
      ["label", "documents", "score", "active", "top_words", "computed_at", "note"],
      ["roadmap, pricing", "3", "0.21534", "true", '[{"word":"roadmap","weight":0.2}]', "2025-01-05T15:04:05.000Z", 'said "no"\nthen left'],
      ["empty", "0", "", "false", "[]", "", ""],
    ]);
  });

  it("quotes text a spreadsheet would run as a formula, and leaves numbers alone", () => {
    const rows = ["=HYPERLINK(\"x\")", "+1", "-2", "@SUM(A1)", "\tx", "plain"].map((label, i) => ({ label, n: -i }));
    const [, ...records] = parse(resultsCsv(["label", "n"], rows)) as string[][];
    expect(records).toEqual([
      ["'=HYPERLINK(\"x\")", "0"],
      ["'+1", "-1"],
      ["'-2", "-2"],
      ["'@SUM(A1)", "-3"],
      ["'\tx", "-4"],
      ["plain", "-5"],
    ]);
  });

  it("quotes every cell holding a line break, and neutralises a formula that starts a line inside a cell (issue 50 item 4)", () => {
    const subjects = ["Invoice\n=cmd|' /C calc'!A0", "Invoice\r=cmd|' /C calc'!A0", "Invoice\r\n+1", "a\n\n@SUM(A1)\n-2", "two\nlines", "a\r\r=x"];
    const text = resultsCsv(["subject"], subjects.map((subject) => ({ subject })));
    // Read line by line, as a careless importer splits it: no line of the file starts a formula.
    for (const line of text.split(/\r\n|\r|\n/)) expect(line).not.toMatch(/^[=+\-@\t]/);
    const [, ...records] = parse(text) as string[][];
    expect(records.map(([cell]) => cell)).toEqual([
      "Invoice\n'=cmd|' /C calc'!A0",
      "Invoice\r'=cmd|' /C calc'!A0",
      "Invoice\r\n'+1",
      "a\n\n'@SUM(A1)\n'-2",
      "two\nlines",
      "a\r'\r'=x",
    ]);
    // Each of those cells is quoted: a line break outside quotes would end the record.
    const raw = (parse(text, { raw: true, from_line: 2 }) as unknown as { raw: string }[]).map((record) => record.raw);
    expect(raw.every((record) => record.startsWith('"') && record.trimEnd().endsWith('"'))).toBe(true);
  });

  it("an empty table is its header alone", () => {
    expect(resultsCsv(["a", "b"], [])).toBe("a,b\r\n");
  });
});
