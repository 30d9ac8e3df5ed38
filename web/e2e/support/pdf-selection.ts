import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";

// Selecting words in a PDF page's text layer (pdf.js), as a reader dragging
// over them would: the annotation and passage-picking specs share it.

/** The text layer of page `n` in `scope`, once pdf.js has built it. */
export async function textLayer(scope: Locator | Page, n: number): Promise<Locator> {
  const layer = scope.locator(`[data-page-number="${n}"] .textLayer`);
  await expect(layer).toBeAttached({ timeout: 30_000 });
  await expect(layer).toContainText(/\S/);
  return layer;
}

/**
 * Selects `words` on page `n` as a reader dragging over them would: a
 * selection inside the text layer's span that shows them.
 */
export async function selectWords(scope: Locator | Page, n: number, words: string): Promise<void> {
  const layer = await textLayer(scope, n);
  await layer.scrollIntoViewIfNeeded();
  const found = await layer.evaluate((el, w) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node as Text;
      const at = text.data.indexOf(w);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + w.length);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      return true;
    }
    return false;
  }, words);
  expect(found, `"${words}" on page ${n}`).toBe(true);
}
