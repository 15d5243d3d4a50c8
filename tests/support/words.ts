import type { Locator } from "@playwright/test";

/**
 * The words (runs of non-space characters) shorter than `shortest` characters that the browser broke across two
 * lines inside `scope`'s elements matching `selector`: each word's range is measured with Range.getClientRects,
 * one rectangle per line box it sits on. Returns "word (in: cell text)" for each, so a failing test names them.
 */
export async function brokenShortWords(scope: Locator, selector: string, shortest = 20): Promise<string[]> {
  return scope.evaluate(
    (root, { selector, shortest }) => {
      const broken: string[] = [];
      for (const element of root.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? "";
          for (const match of text.matchAll(/\S+/g)) {
            if (match[0].length >= shortest) continue;
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (tops.size > 1) broken.push(`${match[0]} (in: ${(element.textContent ?? "").trim().slice(0, 80)})`);
          }
        }
      }
      return broken;
    },
    { selector, shortest },
  );
}

/** How many lines the text of `locator` takes (its line boxes' distinct tops). */
export async function lineCount(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });
}
