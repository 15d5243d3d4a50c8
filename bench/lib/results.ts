/**
 * bench/RESULTS.md is made of sections, each a level-2 heading ("## Sync throughput …") and what follows it, after a
 * title. A run of some parts (BENCH_PARTS) replaces the sections it produced, by heading, and keeps every other one
 * where it stands: the other parts' figures and the hand-written notes (the V8 settings, …) stay. A section new to
 * the file goes at its end; a produced title replaces the title.
 */

interface Blocks {
  preamble: string;
  sections: { heading: string; text: string }[];
}

function blocksOf(markdown: string): Blocks {
  const lines = markdown.split("\n");
  const blocks: Blocks = { preamble: "", sections: [] };
  let current: string[] = [];
  let heading: string | null = null;
  const close = () => {
    const text = current.join("\n");
    if (heading === null) blocks.preamble = text;
    else blocks.sections.push({ heading, text });
  };
  for (const line of lines) {
    if (line.startsWith("## ")) {
      close();
      heading = line.trim();
      current = [line];
    } else current.push(line);
  }
  close();
  return blocks;
}

const trimmed = (text: string) => text.replace(/\s+$/, "");

/** `existing` with the sections (and title) of `produced` in place of its own of the same heading. */
export function mergeResults(existing: string, produced: string): string {
  const old = blocksOf(existing);
  const fresh = blocksOf(produced);
  const byHeading = new Map(fresh.sections.map((s) => [s.heading, s.text]));
  const parts: string[] = [];
  const preamble = fresh.preamble.trim() ? fresh.preamble : old.preamble;
  if (preamble.trim()) parts.push(trimmed(preamble));
  for (const section of old.sections) {
    const replacement = byHeading.get(section.heading);
    parts.push(trimmed(replacement ?? section.text));
    byHeading.delete(section.heading);
  }
  for (const text of byHeading.values()) parts.push(trimmed(text));
  return `${parts.join("\n\n")}\n`;
}
