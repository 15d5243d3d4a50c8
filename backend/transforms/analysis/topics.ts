/**
 * Topic modelling: TF-IDF document vectors clustered with spherical k-means.
 *
 * 1. Each document is tokenised (stop words out, Porter stems by default). Documents with fewer than
 *    `minDocumentWords` tokens are left out (no assignment).
 * 2. Vocabulary: terms in at least `minDocumentFrequency` (2) documents and at most `maxDocumentShare` (0.5) of
 *    them — words that appear everywhere say nothing about a topic — then the `maxVocabulary` most frequent
 *    (fewer on very large inputs, so that documents × terms stays under `maxMatrixCells`).
 * 3. Weights: sublinear term frequency (1 + ln tf) × smoothed idf (ln((1 + n) / (1 + df)) + 1), then each
 *    vector is L2-normalised; documents left with no vocabulary term get no assignment.
 * 4. ml-kmeans with k-means++ seeding from `seed` and cosine distance (on unit vectors: spherical k-means).
 *    `numTopics` is clamped to the number of distinct usable documents.
 * 5. Each topic's words are the heaviest terms of its (normalised) centroid, shown as the surface word most
 *    often seen for that stem; the label is its top 3 words. Topics are numbered from 1, largest first;
 *    empty clusters are dropped. An assignment's score is the cosine of the document with its topic.
 */
import { kmeans } from "ml-kmeans";
import { stopwordTest, surfaceTokens } from "./text.js";
import { compareText, round4 } from "./types.js";

export interface Topic {
  topic_id: number;
  label: string;
  top_words: { word: string; weight: number }[];
  documents: number;
}

export interface TopicModelOptions {
  numTopics: number;
  topWords: number;
  /** Seed of the k-means++ initialisation (default 1): the same input and seed give the same topics. */
  seed?: number;
  extraStopwords?: string[];
  /** Documents with fewer tokens than this are left out (default 5). */
  minDocumentWords?: number;
  /** Porter-stem the words before counting (default true). */
  stem?: boolean;
  /** A term must occur in at least this many documents (default 2). */
  minDocumentFrequency?: number;
  /** A term must occur in at most this share of the documents (default 0.5). */
  maxDocumentShare?: number;
  /** At most this many terms (default 3000). */
  maxVocabulary?: number;
  /** Dense matrix budget: documents × terms is kept under this (default 5,000,000). */
  maxMatrixCells?: number;
  /** k-means iterations at most (default 100). */
  maxIterations?: number;
}

export interface TopicModelResult {
  topics: Topic[];
  assignments: { id: string; topic_id: number; score: number }[];
}

export const TOPIC_MODEL_DEFAULTS = {
  seed: 1,
  minDocumentWords: 5,
  minDocumentFrequency: 2,
  maxDocumentShare: 0.5,
  maxVocabulary: 3000,
  maxMatrixCells: 5_000_000,
  maxIterations: 100,
} as const;

const LABEL_WORDS = 3;

/** 1 − cosine similarity; a zero vector is at distance 1 from everything. */
function cosineDistance(p: number[], q: number[]): number {
  let dot = 0;
  let pp = 0;
  let qq = 0;
  for (let i = 0; i < p.length; i++) {
    const a = p[i]!;
    const b = q[i]!;
    dot += a * b;
    pp += a * a;
    qq += b * b;
  }
  if (pp === 0 || qq === 0) return 1;
  return 1 - dot / Math.sqrt(pp * qq);
}

const intOption = (value: number | undefined, fallback: number, min: number) =>
  value === undefined || !Number.isFinite(value) ? fallback : Math.max(min, Math.floor(value));

export function topicModel(documents: { id: string; text: string }[], options: TopicModelOptions): TopicModelResult {
  const empty: TopicModelResult = { topics: [], assignments: [] };
  const stemming = options.stem ?? true;
  const minWords = intOption(options.minDocumentWords, TOPIC_MODEL_DEFAULTS.minDocumentWords, 0);
  const minDf = intOption(options.minDocumentFrequency, TOPIC_MODEL_DEFAULTS.minDocumentFrequency, 1);
  const maxShare = options.maxDocumentShare ?? TOPIC_MODEL_DEFAULTS.maxDocumentShare;
  const maxVocabulary = intOption(options.maxVocabulary, TOPIC_MODEL_DEFAULTS.maxVocabulary, 1);
  const maxCells = intOption(options.maxMatrixCells, TOPIC_MODEL_DEFAULTS.maxMatrixCells, 1);
  const topWords = intOption(options.topWords, 10, 1);
  const requestedTopics = intOption(options.numTopics, 1, 1);
  const seed = intOption(options.seed, TOPIC_MODEL_DEFAULTS.seed, 0);
  const isStop = stopwordTest(options.extraStopwords, stemming);

  // 1. Tokens, term counts per document, and the surface words seen for each term.
  const surfaces = new Map<string, Map<string, number>>();
  const docs: { id: string; counts: Map<string, number> }[] = [];
  for (const doc of documents) {
    const tokens = surfaceTokens(doc.text ?? "", isStop, stemming);
    if (tokens.length === 0 || tokens.length < minWords) continue;
    const counts = new Map<string, number>();
    for (const { surface, term } of tokens) {
      counts.set(term, (counts.get(term) ?? 0) + 1);
      let seen = surfaces.get(term);
      if (!seen) surfaces.set(term, (seen = new Map()));
      seen.set(surface, (seen.get(surface) ?? 0) + 1);
    }
    docs.push({ id: doc.id, counts });
  }
  const n = docs.length;
  if (n === 0) return empty;

  // 2. Vocabulary.
  const df = new Map<string, number>();
  const total = new Map<string, number>();
  for (const { counts } of docs) {
    for (const [term, count] of counts) {
      df.set(term, (df.get(term) ?? 0) + 1);
      total.set(term, (total.get(term) ?? 0) + count);
    }
  }
  const cap = Math.min(maxVocabulary, Math.max(1, Math.floor(maxCells / n)));
  const vocabulary = [...df.entries()]
    .filter(([, d]) => d >= minDf && d <= maxShare * n)
    .map(([term]) => term)
    .sort((a, b) => total.get(b)! - total.get(a)! || df.get(b)! - df.get(a)! || compareText(a, b))
    .slice(0, cap);
  if (vocabulary.length === 0) return empty;
  const index = new Map(vocabulary.map((term, i) => [term, i]));
  const idf = vocabulary.map((term) => Math.log((1 + n) / (1 + df.get(term)!)) + 1);

  // 3. L2-normalised TF-IDF vectors (dense: ml-kmeans works on arrays of points).
  const ids: string[] = [];
  const points: number[][] = [];
  for (const { id, counts } of docs) {
    const vector = new Array<number>(vocabulary.length).fill(0);
    let norm = 0;
    for (const [term, count] of counts) {
      const i = index.get(term);
      if (i === undefined) continue;
      const weight = (1 + Math.log(count)) * idf[i]!;
      vector[i] = weight;
      norm += weight * weight;
    }
    if (norm === 0) continue;
    norm = Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) vector[i] = vector[i]! / norm;
    ids.push(id);
    points.push(vector);
  }
  if (points.length === 0) return empty;

  // 4. Spherical k-means.
  const distinct = new Set(points.map((p) => p.map((v) => v.toFixed(12)).join(","))).size;
  const k = Math.min(requestedTopics, distinct);
  const clusters =
    k === 1
      ? points.map(() => 0)
      : kmeans(points, k, {
          initialization: "kmeans++",
          seed,
          distanceFunction: cosineDistance,
          maxIterations: intOption(options.maxIterations, TOPIC_MODEL_DEFAULTS.maxIterations, 1),
        }).clusters;

  // 5. Topics from the members' normalised mean.
  const readable = (term: string) =>
    [...(surfaces.get(term) ?? new Map([[term, 1]])).entries()].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))[0]![0];
  const built: { cluster: number; centroid: number[]; members: number[]; topic: Omit<Topic, "topic_id"> }[] = [];
  for (let c = 0; c < k; c++) {
    const members = clusters.flatMap((cluster, i) => (cluster === c ? [i] : []));
    if (members.length === 0) continue;
    const centroid = new Array<number>(vocabulary.length).fill(0);
    for (const i of members) {
      const point = points[i]!;
      for (let d = 0; d < point.length; d++) centroid[d]! += point[d]!;
    }
    const norm = Math.sqrt(centroid.reduce((s, v) => s + v * v, 0));
    for (let d = 0; d < centroid.length; d++) centroid[d] = norm === 0 ? 0 : centroid[d]! / norm;
    const words = centroid
      .map((weight, d) => ({ d, weight }))
      .filter((w) => w.weight > 0)
      .sort((a, b) => b.weight - a.weight || compareText(vocabulary[a.d]!, vocabulary[b.d]!))
      .slice(0, topWords)
      .map(({ d, weight }) => ({ word: readable(vocabulary[d]!), weight: round4(weight) }));
    built.push({
      cluster: c,
      centroid,
      members,
      topic: { label: words.slice(0, LABEL_WORDS).map((w) => w.word).join(", "), top_words: words, documents: members.length },
    });
  }
  built.sort((a, b) => b.members.length - a.members.length || compareText(a.topic.label, b.topic.label) || a.cluster - b.cluster);

  const topics: Topic[] = built.map((b, i) => ({ topic_id: i + 1, ...b.topic }));
  const assignmentOf = new Array<{ topic_id: number; score: number }>(points.length);
  built.forEach((b, i) => {
    for (const member of b.members) {
      assignmentOf[member] = { topic_id: i + 1, score: round4(1 - cosineDistance(points[member]!, b.centroid)) };
    }
  });
  return { topics, assignments: ids.map((id, i) => ({ id, ...assignmentOf[i]! })) };
}
