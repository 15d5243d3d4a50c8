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

/**
 * The model built from documents added one at a time (a stream of meetings), so that a caller never holds their
 * texts: each document is kept as its terms' ids and counts (typed arrays), then `result` builds the vocabulary, the
 * vectors (documents × terms is bounded by `maxMatrixCells`) and the clusters.
 */
export class TopicModelBuilder {
  private readonly stemming: boolean;
  private readonly minWords: number;
  private readonly isStop: (surface: string, stemmed: string) => boolean;
  /** Terms by id: their text, the surface words seen for each, document frequency and total count. */
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly surfaces: Map<string, number>[] = [];
  private readonly df: number[] = [];
  private readonly total: number[] = [];
  /** Documents: ids, and (term id, count) pairs in the order the terms first appear, ends[d] after the last. */
  private readonly ids: string[] = [];
  private readonly ends: number[] = [];
  private pairTerms = new Int32Array(1 << 16);
  private pairCounts = new Int32Array(1 << 16);
  private pairs = 0;

  constructor(private readonly options: TopicModelOptions) {
    this.stemming = options.stem ?? true;
    this.minWords = intOption(options.minDocumentWords, TOPIC_MODEL_DEFAULTS.minDocumentWords, 0);
    this.isStop = stopwordTest(options.extraStopwords, this.stemming);
  }

  /** Documents kept so far (those with enough words). */
  get documents(): number {
    return this.ids.length;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      this.surfaces.push(new Map());
      this.df.push(0);
      this.total.push(0);
    }
    return id;
  }

  private push(term: number, count: number): void {
    if (this.pairs === this.pairTerms.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.pairTerms = grow(this.pairTerms);
      this.pairCounts = grow(this.pairCounts);
    }
    this.pairTerms[this.pairs] = term;
    this.pairCounts[this.pairs] = count;
    this.pairs += 1;
  }

  /** A document: kept when it has at least `minDocumentWords` words after the filters. */
  add(id: string, text: string): void {
    const tokens = surfaceTokens(text ?? "", this.isStop, this.stemming);
    if (tokens.length === 0 || tokens.length < this.minWords) return;
    const counts = new Map<number, number>();
    for (const { surface, term } of tokens) {
      const t = this.termId(term);
      counts.set(t, (counts.get(t) ?? 0) + 1);
      const seen = this.surfaces[t]!;
      seen.set(surface, (seen.get(surface) ?? 0) + 1);
    }
    for (const [t, count] of counts) {
      this.df[t]! += 1;
      this.total[t]! += count;
      this.push(t, count);
    }
    this.ids.push(id);
    this.ends.push(this.pairs);
  }

  /** The vocabulary (term ids), and each kept document's L2-normalised TF-IDF vector over it. */
  private vectors(): { vocabulary: number[]; ids: string[]; points: number[][] } {
    const { df, total, terms, options } = this;
    const n = this.ids.length;
    const minDf = intOption(options.minDocumentFrequency, TOPIC_MODEL_DEFAULTS.minDocumentFrequency, 1);
    const maxShare = options.maxDocumentShare ?? TOPIC_MODEL_DEFAULTS.maxDocumentShare;
    const maxVocabulary = intOption(options.maxVocabulary, TOPIC_MODEL_DEFAULTS.maxVocabulary, 1);
    const maxCells = intOption(options.maxMatrixCells, TOPIC_MODEL_DEFAULTS.maxMatrixCells, 1);
    const cap = Math.min(maxVocabulary, Math.max(1, Math.floor(maxCells / n)));
    const vocabulary = terms
      .map((_, t) => t)
      .filter((t) => df[t]! >= minDf && df[t]! <= maxShare * n)
      .sort((a, b) => total[b]! - total[a]! || df[b]! - df[a]! || compareText(terms[a]!, terms[b]!))
      .slice(0, cap);
    const ids: string[] = [];
    const points: number[][] = [];
    if (vocabulary.length === 0) return { vocabulary, ids, points };
    const index = new Int32Array(terms.length).fill(-1);
    vocabulary.forEach((t, i) => (index[t] = i));
    const idf = vocabulary.map((t) => Math.log((1 + n) / (1 + df[t]!)) + 1);
    let start = 0;
    for (let d = 0; d < n; d++) {
      const end = this.ends[d]!;
      const vector = new Array<number>(vocabulary.length).fill(0);
      let norm = 0;
      for (let p = start; p < end; p++) {
        const i = index[this.pairTerms[p]!]!;
        if (i < 0) continue;
        const weight = (1 + Math.log(this.pairCounts[p]!)) * idf[i]!;
        vector[i] = weight;
        norm += weight * weight;
      }
      start = end;
      if (norm === 0) continue;
      norm = Math.sqrt(norm);
      for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) vector[i] = vector[i]! / norm;
      ids.push(this.ids[d]!);
      points.push(vector);
    }
    return { vocabulary, ids, points };
  }

  /** The topics and each vectored document's assignment. */
  result(): TopicModelResult {
    const { options } = this;
    if (this.ids.length === 0) return { topics: [], assignments: [] };
    const { vocabulary, ids, points } = this.vectors();
    // The documents' pairs are not needed any more.
    this.pairTerms = new Int32Array(0);
    this.pairCounts = new Int32Array(0);
    if (points.length === 0) return { topics: [], assignments: [] };
    const topWords = intOption(options.topWords, 10, 1);
    const requestedTopics = intOption(options.numTopics, 1, 1);
    const seed = intOption(options.seed, TOPIC_MODEL_DEFAULTS.seed, 0);

    // Spherical k-means.
    // No more topics than distinct documents (counted only as far as the topics asked for).
    const distinct = new Set<string>();
    for (const p of points) {
      if (distinct.size >= requestedTopics) break;
      distinct.add(p.map((v) => v.toFixed(12)).join(","));
    }
    const k = Math.min(requestedTopics, distinct.size);
    const clusters =
      k === 1
        ? points.map(() => 0)
        : kmeans(points, k, {
            initialization: "kmeans++",
            seed,
            distanceFunction: cosineDistance,
            maxIterations: intOption(options.maxIterations, TOPIC_MODEL_DEFAULTS.maxIterations, 1),
          }).clusters;

    // Topics from the members' normalised mean.
    const readable = (t: number) => [...this.surfaces[t]!.entries()].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))[0]?.[0] ?? this.terms[t]!;
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
        .sort((a, b) => b.weight - a.weight || compareText(this.terms[vocabulary[a.d]!]!, this.terms[vocabulary[b.d]!]!))
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
}

/** The model over documents held in memory (both passes over the array). */
export function topicModel(documents: { id: string; text: string }[], options: TopicModelOptions): TopicModelResult {
  const builder = new TopicModelBuilder(options);
  for (const doc of documents) builder.add(doc.id, doc.text);
  return builder.result();
}
