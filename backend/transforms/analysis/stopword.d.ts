/** The part of stopword 3's API the analysis library uses (the package ships no types). */
declare module "stopword" {
  /** English stop words (ISO 639-3 code). */
  export const eng: string[];
  export function removeStopwords(tokens: string[], stopwords?: string[]): string[];
}
