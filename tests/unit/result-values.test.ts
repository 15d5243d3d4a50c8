import { describe, expect, it } from "vitest";
import { resultColumnLabel } from "@contract/labels";
import { showResult } from "~/components/transform-results";

/** Issue 54: a result table's cells as a person reads them, whatever warehouse stored them. */
describe("a result cell in words", () => {
  it("names stored values in words: a speaker side and a risk level", () => {
    expect(["all", "internal", "external", "unknown"].map((side) => showResult("speaker_side", side, "UTC"))).toEqual(["All speakers", "Our side", "Their side", "Side not known"]);
    expect(showResult("risk_level", "high", "UTC")).toBe("High");
    expect(resultColumnLabel("speaker_side")).toBe("Speakers");
    expect(resultColumnLabel("spoken_at")).toBe("Said at");
  });

  it("formats numbers by what the column holds", () => {
    expect(showResult("positive_share", 0.5172, "UTC")).toBe("51.7%");
    expect(showResult("avg_sentiment", 0.6369, "UTC")).toBe("+0.64");
    expect(showResult("median_their_reply_minutes", 1079, "UTC")).toBe("17h 59m");
  });
});
