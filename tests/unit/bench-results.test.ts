import { describe, expect, it } from "vitest";
import { mergeResults } from "../../bench/lib/results.js";

/** bench/run.ts writes only the sections a run produced into bench/RESULTS.md (a run of one part erased the others). */
describe("mergeResults", () => {
  const existing = "# Results\n\nMachine: 2 cores.\n\n## Pages\n\nold pages\n\n## Sync\n\nold sync\n\n### rounds\n\nold rounds\n\n## Notes\n\nhand-written\n";

  it("replaces the sections produced, by heading, and keeps the others and the title in place", () => {
    expect(mergeResults(existing, "## Sync\n\nnew sync\n")).toBe("# Results\n\nMachine: 2 cores.\n\n## Pages\n\nold pages\n\n## Sync\n\nnew sync\n\n## Notes\n\nhand-written\n");
  });

  it("takes a produced title, and adds a section new to the file at its end", () => {
    expect(mergeResults(existing, "# Results\n\nMachine: 4 cores.\n\n## Pages\n\nnew pages\n\n## Streams\n\nnew part\n")).toBe(
      "# Results\n\nMachine: 4 cores.\n\n## Pages\n\nnew pages\n\n## Sync\n\nold sync\n\n### rounds\n\nold rounds\n\n## Notes\n\nhand-written\n\n## Streams\n\nnew part\n",
    );
  });

  it("writes what was produced when there is no file yet", () => {
    expect(mergeResults("", "## Sync\n\nnew sync")).toBe("## Sync\n\nnew sync\n");
  });
});
