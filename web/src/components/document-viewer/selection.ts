
/**
 * From a selection of text on screen to an annotation's quote: the
 * selected words (exact) with up to 32 characters before (prefix) and
 * after (suffix) them, read from the page's text layer or the composed
 * version's elements. The server locates the quote in the version's own
 * text, white space aside, so line breaks need not match; a block's or a
 * line's end becomes a line break here so that words of two lines never
 * run together in the prefix or suffix.
 */

/** The quote's context width, in code points (the server keeps as many). */
export const QUOTE_CONTEXT = 32;

/** A container's text as one string, with where each text node starts in it. */
export interface LinearText {
  text: string;
  nodes: { node: Text; start: number }[];
}

// The elements that end a line of composed text (as the server's extraction has it).
const BLOCKS = new Set(["P", "H1", "H2", "H3", "H4", "H5", "H6", "LI", "UL", "OL", "BLOCKQUOTE", "PRE", "HR", "DIV", "TABLE", "TR"]);

/**
 * The text of `root` in document order: its text nodes, a line break at a
 * <br> (pdf.js marks a line's end so) and at the start of every block.
 */
export function linearText(root: Node): LinearText {
  let text = "";
  const nodes: LinearText["nodes"] = [];
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) {
      const t = node as Text;
      nodes.push({ node: t, start: text.length });
      text += t.data;
    } else {
      const tag = (node as Element).tagName;
      if (tag === "BR" || (BLOCKS.has(tag) && text !== "" && !text.endsWith("\n"))) text += "\n";
    }
  }
  return { text, nodes };
}

/**
 * The offset in `linear.text` of the boundary point (`node`, `offset`) of a
 * selection: in a text node, its character; between elements, the start
 * of the first text that follows.
 */
export function linearOffset(linear: LinearText, node: Node, offset: number): number {
  if (node.nodeType === Node.TEXT_NODE) {
    const entry = linear.nodes.find((n) => n.node === node);
    if (entry) return entry.start + Math.min(offset, entry.node.data.length);
  }
  const doc = node.ownerDocument ?? document;
  const point = doc.createRange();
  point.setStart(node, offset);
  point.collapse(true);
  for (const entry of linear.nodes) {
    // 1: the text node starts after the point.
    if (point.comparePoint(entry.node, 0) >= 0) return entry.start;
  }
  return linear.text.length;
}

const collapse = (s: string) => s.replace(/\s+/g, " ");

/** The quote [start, end) of `text` with its context: white space collapsed, the quote trimmed. */
export function quoteContext(text: string, start: number, end: number, width = QUOTE_CONTEXT): { exact: string; prefix: string; suffix: string } {
  const raw = text.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const trail = raw.length - raw.trimEnd().length;
  const s = start + lead;
  const e = Math.max(s, end - trail);
  const before = Array.from(collapse(text.slice(0, s)).trimStart());
  const after = Array.from(collapse(text.slice(e)).trimEnd());
  return {
    exact: collapse(text.slice(s, e)),
    prefix: before.slice(Math.max(0, before.length - width)).join(""),
    suffix: after.slice(0, width).join(""),
  };
}

/** A selection's quote inside `root`, or null when the selection is empty or leaves it. */
export function selectionQuote(root: Node, range: Range): { exact: string; prefix: string; suffix: string } | null {
  if (range.collapsed || !root.contains(range.startContainer) || !root.contains(range.endContainer)) return null;
  const linear = linearText(root);
  const start = linearOffset(linear, range.startContainer, range.startOffset);
  const end = linearOffset(linear, range.endContainer, range.endOffset);
  if (end <= start) return null;
  const quote = quoteContext(linear.text, start, end);
  return quote.exact.trim() === "" ? null : quote;
}
