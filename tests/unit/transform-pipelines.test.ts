import { describe, expect, it } from "vitest";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import { allDefinitions } from "../../backend/transforms/catalogue.js";
import { runProgram } from "../support/programs.js";

/** The data generator's meetings as the runner reads them from a warehouse. */
function synced() {
  const meetings = [...generateMeetings({ sourceId: "pipeline-test", company: "Acme Rockets", from: new Date("2026-01-01T00:00:00Z"), to: new Date("2026-01-20T00:00:00Z") })];
  return {
    raw: meetings,
    meetings: meetings.map((m) => ({ meeting_id: m.id, title: m.title, started_at: m.startedAt, account: m.account })),
    lines: meetings.flatMap((m) =>
      m.utterances.map((u) => ({
        meeting_id: m.id,
        utterance_id: `${m.id}-${u.index}`,
        speaker_id: u.speaker.id,
        speaker_name: u.speaker.name,
        affiliation: u.speaker.affiliation,
        spoken_at: new Date(m.startedAt.getTime() + u.startMs),
        start_ms: u.startMs,
        end_ms: u.endMs,
        text: u.text,
      })),
    ),
  };
}

describe("the topic-modeling pipeline", () => {
  it("names topics by what is discussed, never by the people or companies in the meetings", async () => {
    const data = synced();
    const [topics] = await runProgram("topic_modeling", data);
    expect(topics!.rows.length).toBeGreaterThanOrEqual(3);
    const names = new Set<string>();
    for (const m of data.raw) {
      for (const w of `${m.account} ${m.title.split(" / ")[0]}`.toLowerCase().split(/[^a-z']+/)) if (w) names.add(w);
      for (const p of m.participants) for (const w of p.name.toLowerCase().split(/\s+/)) names.add(w);
    }
    for (const row of topics!.rows) {
      for (const word of String(row.label).split(", ")) expect(names.has(word), `${word} in "${row.label}"`).toBe(false);
    }
  });
});

describe("each template's program", () => {
  it("steps through exactly the nodes its flowchart draws (but the data), and writes only its declared outputs", async () => {
    const data = synced();
    for (const d of allDefinitions()) {
      const steps: string[] = [];
      const outputs = await runProgram(d.id, data, undefined, {}, steps);
      const drawn = d.nodes.filter((n) => n.kind !== "data").map((n) => n.id);
      expect(new Set(steps), d.id).toEqual(new Set(drawn));
      expect(outputs.map((o) => o.suffix)).toEqual(d.outputs.map((o) => o.suffix));
    }
  });
});
