import { fold } from "@/components/document-viewer/passage";
import { locateQuote, type QuoteContext } from "@/components/document-viewer/quote";
import { type Box, boxOfRect } from "@/components/document-viewer/page-box";

/**
 * Quotes found on screen: for each text annotation on a page (a PDF page's
 * text layer, or the composed version's text), the DOM ranges of its words
 * — painted with the CSS Custom Highlight API, without changing the page's
 * elements — and their boxes in page-relative units, for its marker and
 * for telling which thread a click hit.
 */

/** A quote to find. */
export interface QuoteToFind extends QuoteContext {
  id: string;
  exact: string;
}

/** A quote found: its ranges and their line boxes in units of the frame. */
export interface Anchor {
  ranges: Range[];
  boxes: Box[];
}

/** The text nodes under `root`, in document order. */
function textNodes(root: Node): Text[] {
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const out: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(n as Text);
  return out;
}

/**
 * Finds each quote in the text under `root` (folded once for all of them)
 * and measures its lines against `frame`, the element the boxes are
 * relative to. A quote that is not there has no anchor.
 */
export function anchorQuotes(root: Node, frame: Element, quotes: readonly QuoteToFind[]): Map<string, Anchor> {
  const out = new Map<string, Anchor>();
  if (quotes.length === 0) return out;
  const nodes = textNodes(root);
  const hay = fold(nodes.map((n) => n.data));
  const bounds = frame.getBoundingClientRect();
  const doc = root.ownerDocument ?? document;
  for (const q of quotes) {
    const parts = locateQuote(hay, q.exact, q);
    if (parts.length === 0) continue;
    const ranges: Range[] = [];
    const boxes: Box[] = [];
    for (const part of parts) {
      const node = nodes[part.item];
      if (!node) continue;
      const range = doc.createRange();
      range.setStart(node, part.start);
      range.setEnd(node, part.end);
      ranges.push(range);
      if (bounds.width > 0 && bounds.height > 0 && typeof range.getClientRects === "function") {
        for (const rect of Array.from(range.getClientRects())) {
          if (rect.width > 0 && rect.height > 0) boxes.push(boxOfRect(rect, bounds));
        }
      }
    }
    if (ranges.length > 0) out.set(q.id, { ranges, boxes });
  }
  return out;
}

/** The highlight names the stylesheet paints (annotations.css). */
export const HIGHLIGHT = { open: "fb-annotation", selected: "fb-annotation-selected" } as const;

/** Whether the browser paints highlights of ranges (the CSS Custom Highlight API). */
export function canHighlight(): boolean {
  return typeof CSS !== "undefined" && "highlights" in CSS && typeof Highlight !== "undefined";
}

/**
 * Paints `ranges` under the highlight `name` (replacing what it painted
 * before); returns the function that clears them. Without the API the
 * markers alone show where the quotes are.
 */
export function paintHighlight(name: string, ranges: readonly Range[], priority = 0): () => void {
  if (!canHighlight()) return () => undefined;
  const highlight = new Highlight(...ranges);
  highlight.priority = priority;
  CSS.highlights.set(name, highlight);
  return () => {
    if (CSS.highlights.get(name) === highlight) CSS.highlights.delete(name);
  };
}
