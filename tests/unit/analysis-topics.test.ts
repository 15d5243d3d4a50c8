import { describe, expect, it } from "vitest";
import { topicModel } from "../../backend/transforms/analysis/index.js";

// Two clean themes. Every term is in 2 or 3 of the 6 usable documents, so none is pruned (df ≥ 2, share ≤ 0.5).
const docs = [
  { id: "d1", text: "pricing discount invoice" },
  { id: "d2", text: "Pricing, discount and budget." },
  { id: "d3", text: "invoice budget discount" },
  { id: "d4", text: "onboarding kickoff training" },
  { id: "d5", text: "onboarding kickoff webinar" },
  { id: "d6", text: "training webinar kickoff" },
  { id: "short", text: "hi there pricing" },
  { id: "blank", text: "" },
];

/*
 * By hand: idf(df=3) = ln(7/4)+1 = 1.5596, idf(df=2) = ln(7/3)+1 = 1.8473; each document is one df=3 term and
 * two df=2 terms, normalised to (0.5126, 0.6071, 0.6071). A theme's normalised centroid is 0.5902 on its df=3
 * term and 0.4661 on the three others (ties broken by stem: budget < invoic < price), and each member's cosine
 * with it is 0.8685.
 */
const expected = {
  topics: [
    {
      topic_id: 1,
      label: "discount, budget, invoice",
      top_words: [
        { word: "discount", weight: 0.5902 },
        { word: "budget", weight: 0.4661 },
        { word: "invoice", weight: 0.4661 },
      ],
      documents: 3,
    },
    {
      topic_id: 2,
      label: "kickoff, onboarding, training",
      top_words: [
        { word: "kickoff", weight: 0.5902 },
        { word: "onboarding", weight: 0.4661 },
        { word: "training", weight: 0.4661 },
      ],
      documents: 3,
    },
  ],
  assignments: ["d1", "d2", "d3", "d4", "d5", "d6"].map((id, i) => ({ id, topic_id: i < 3 ? 1 : 2, score: 0.8685 })),
};

describe("topicModel", () => {
  it("finds the themes with TF-IDF and spherical k-means, leaving short documents out", () => {
    expect(topicModel(docs, { numTopics: 2, topWords: 3, minDocumentWords: 3 })).toEqual(expected);
  });

  it("is deterministic for a seed, and independent of the seed on well separated themes", () => {
    const a = topicModel(docs, { numTopics: 2, topWords: 3, minDocumentWords: 3, seed: 7 });
    expect(topicModel(docs, { numTopics: 2, topWords: 3, minDocumentWords: 3, seed: 7 })).toEqual(a);
    expect(a).toEqual(expected);
  });

  it("labels with the most frequent surface word of a stem", () => {
    const withPlurals = docs.map((d) => (d.id === "d1" || d.id === "d3" ? { ...d, text: d.text.replace("discount", "discounts") } : d));
    const topic = topicModel(withPlurals, { numTopics: 2, topWords: 3, minDocumentWords: 3 }).topics[0]!;
    expect(topic.top_words[0]!.word).toBe("discounts");
    expect(topic.label).toBe("discounts, budget, invoice");
  });

  it("clamps the number of topics to the distinct usable documents", () => {
    const twins = ["d1", "d1", "d1", "d4", "d4", "d4"].map((id, i) => ({ id: `${id}-${i}`, text: docs.find((d) => d.id === id)!.text }));
    const result = topicModel(twins, { numTopics: 5, topWords: 2, minDocumentWords: 1 });
    expect(result.topics.map((t) => [t.label, t.documents])).toEqual([
      ["discount, invoice", 3], // equal weights: by stem, discount < invoic < price
      ["kickoff, onboarding", 3],
    ]);
    expect(result.assignments.map((a) => a.score)).toEqual([1, 1, 1, 1, 1, 1]);
    const one = topicModel(docs, { numTopics: 1, topWords: 2, minDocumentWords: 3 });
    expect(one.topics).toHaveLength(1);
    expect(one.topics[0]!.documents).toBe(6);
  });

  it("drops extra stop words from the vocabulary", () => {
    // Without them every document has 2 words left, so the minimum is lowered to 2.
    const result = topicModel(docs, { numTopics: 2, topWords: 3, minDocumentWords: 2, extraStopwords: ["discount", "kickoff"] });
    const words = result.topics.flatMap((t) => t.top_words.map((w) => w.word));
    expect(words).not.toContain("discount");
    expect(words).not.toContain("kickoff");
    expect(result.topics.map((t) => [t.label, t.documents])).toEqual([
      ["budget, invoice, pricing", 3],
      ["onboarding, training, webinar", 3],
    ]);
  });

  it("returns nothing for no, one, or only short documents, or when no word is shared by few enough documents", () => {
    const none = { topics: [], assignments: [] };
    expect(topicModel([], { numTopics: 3, topWords: 5 })).toEqual(none);
    expect(topicModel([{ id: "a", text: "pricing discount invoice budget contract" }], { numTopics: 3, topWords: 5 })).toEqual(none);
    expect(topicModel(docs, { numTopics: 2, topWords: 3, minDocumentWords: 10 })).toEqual(none);
    const same = [1, 2, 3, 4].map((i) => ({ id: `s${i}`, text: "pricing discount invoice budget contract" }));
    expect(topicModel(same, { numTopics: 2, topWords: 3 })).toEqual(none);
  });
});
