/**
 * Tokenisation for the text analyses: lowercase, split on anything that is not a letter (an apostrophe
 * inside a word stays: "don't"), drop stop words — stopword's English list, conversational fillers and
 * contractions, and the caller's extra words — drop tokens of fewer than 3 letters (numbers never survive
 * the split), and optionally reduce each word to its Porter stem.
 */
import { eng } from "stopword";
import { stemmer } from "stemmer";
import { normalizeQuotes } from "./types.js";

/** What people say in meetings that carries no topic: fillers, hedges, contractions, small talk. */
export const CONVERSATIONAL_STOPWORDS: readonly string[] = [
  // fillers and backchannels
  "yeah", "yep", "yup", "yes", "nope", "okay", "ok", "um", "umm", "uh", "uhh", "hmm", "mhm", "huh", "ah", "oh", "wow",
  "gonna", "wanna", "gotta", "kinda", "sorta", "dunno", "lemme", "gimme", "ya", "hey", "hi", "hello", "bye",
  "like", "just", "really", "actually", "basically", "literally", "totally", "definitely", "probably", "maybe",
  "perhaps", "right", "well", "sure", "alright", "anyway", "anyways", "stuff", "thing", "things", "lot",
  "lots", "kind", "sort", "bit", "pretty", "quite", "very", "much", "many", "even", "still", "already", "also",
  "though", "although", "whether", "either", "neither", "else", "etc", "thanks", "thank", "please", "sounds",
  "good", "great", "cool", "nice", "fine", "awesome", "honestly", "frankly", "obviously", "mean", "guess",
  "think", "know", "see", "say", "said", "says", "tell", "told", "let", "lets", "get", "gets", "got", "getting",
  "go", "goes", "going", "went", "gone", "come", "comes", "coming", "came", "make", "makes", "made", "making",
  "take", "takes", "took", "want", "wants", "wanted", "need", "needs", "look", "looks", "looking", "put",
  "keep", "one", "two", "three", "first", "second", "every", "everyone", "everything", "someone", "something",
  "anything", "nothing", "anyone", "today", "now", "then", "there", "here", "back", "around", "able", "way",
  "time", "yet", "ever", "never", "always", "often", "sometimes", "again", "once", "may", "might",
  "must", "shall", "should", "would", "could", "can", "will", "wont", "cant", "dont", "didnt", "doesnt",
  "isnt", "arent", "wasnt", "werent", "im", "ive", "id", "ill", "youre", "youve", "youll", "theyre", "thats",
  "theres", "whats", "about", "above", "after", "before", "because", "into", "onto", "upon", "over",
  "under", "between", "through", "during", "without", "within", "across", "along", "among", "toward",
  "towards", "since", "until", "unless", "while", "where", "which", "who", "whom", "whose", "why", "how",
  "what", "when", "our", "ours", "ourselves", "your", "yours", "yourself", "yourselves", "their", "theirs",
  "themselves", "them", "they", "his", "her", "hers", "him", "himself", "herself", "its", "itself", "myself",
  "this", "that", "these", "those", "some", "any", "all", "both", "each", "few", "more", "most", "other",
  "others", "such", "only", "own", "same", "than", "too", "off", "out", "does", "did", "done", "doing",
  "has", "have", "had", "having", "been", "being", "was", "were", "are", "the", "and", "but", "for", "nor",
  "not", "with", "from", "per", "via", "you", "she",
  // contractions, with their apostrophe (tokens keep inner apostrophes)
  "i'm", "i've", "i'd", "i'll", "you're", "you've", "you'd", "you'll", "he's", "he'd", "he'll", "she's",
  "she'd", "she'll", "it's", "it'd", "it'll", "we're", "we've", "we'd", "we'll", "they're", "they've",
  "they'd", "they'll", "that's", "that'd", "that'll", "there's", "there'd", "there'll", "here's", "what's",
  "what'd", "what'll", "who's", "who'd", "who'll", "where's", "when's", "why's", "how's", "let's", "don't",
  "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "won't", "wouldn't", "can't", "couldn't",
  "shouldn't", "mustn't", "mightn't", "needn't", "haven't", "hasn't", "hadn't", "ain't", "y'all", "o'clock",
  "would've", "could've", "should've", "might've", "must've",
];

const BASE_STOPWORDS: ReadonlySet<string> = new Set([...eng.map((w) => w.toLowerCase()), ...CONVERSATIONAL_STOPWORDS]);

const stems = new Map<string, string>();
const STEM_CACHE_LIMIT = 100_000;

/** Porter stem of one lowercase word (apostrophes removed first); memoised, as vocabularies are small. */
export function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word.replace(/'/g, ""));
    if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
    stems.set(word, stemmed);
  }
  return stemmed;
}

/** Is `word` (lowercase) a stop word of the base list? */
export function isStopword(word: string): boolean {
  return BASE_STOPWORDS.has(word);
}

const SPLIT = /[^\p{L}']+/u;
const LETTER = /\p{L}/gu;

/** A prepared stop-word test for one call (base list + extra words, also compared by stem when stemming). */
export function stopwordTest(extraStopwords: readonly string[] = [], stemming = false): (surface: string, stemmed: string) => boolean {
  const extra = new Set<string>();
  const extraStems = new Set<string>();
  for (const raw of extraStopwords) {
    const word = normalizeQuotes(raw).trim().toLowerCase();
    if (!word) continue;
    extra.add(word);
    if (stemming) extraStems.add(stem(word));
  }
  return (surface, stemmed) => BASE_STOPWORDS.has(surface) || extra.has(surface) || (stemming && extraStems.has(stemmed));
}

/**
 * The surface words of a text that survive the filters, in order (lowercase, possessive "'s" removed,
 * apostrophes kept inside words, stop words and words of fewer than 3 letters dropped).
 */
export function surfaceTokens(text: string, isStop: (surface: string, stemmed: string) => boolean, stemming: boolean): { surface: string; term: string }[] {
  const out: { surface: string; term: string }[] = [];
  for (const piece of normalizeQuotes(text ?? "").toLowerCase().split(SPLIT)) {
    let word = piece.replace(/^'+|'+$/g, "");
    if (word.endsWith("'s")) word = word.slice(0, -2);
    if (!word) continue;
    if ((word.match(LETTER)?.length ?? 0) < 3) continue;
    const term = stemming ? stem(word) : word;
    if (isStop(word, term)) continue;
    out.push({ surface: word, term });
  }
  return out;
}

export interface TokenizeOptions {
  /** More words to drop (compared lowercase; when stemming, also by stem so "meetings" drops with "meeting"). */
  extraStopwords?: string[];
  /** Reduce each word to its Porter stem (default false). */
  stem?: boolean;
}

/** The content words of `text`, in order (stems when `stem` is set). */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const stemming = options.stem === true;
  return surfaceTokens(text, stopwordTest(options.extraStopwords, stemming), stemming).map((t) => t.term);
}
