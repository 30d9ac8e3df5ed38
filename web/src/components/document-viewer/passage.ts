// Finding a quoted passage in the text pdf.js reads from a page, and
// marking it in the page's text layer. Kept apart from the viewer so the
// matching can be tested without pdf.js.

/** The characters [start, end) of text item `item` that belong to a match. */
export interface PassagePart {
  item: number;
  start: number;
  end: number;
}

/** The attribute every highlight of a passage carries. */
export const PASSAGE_HIGHLIGHT_ATTR = "data-passage-highlight";

/** Text items folded for matching, with where each folded unit came from. */
export interface Folded {
  /** The folded text: compatibility forms (ligatures) decomposed, lower case, no white space. */
  text: string;
  /** For each UTF-16 unit of `text`: the item and the range of the character it came from. */
  from: { item: number; start: number; end: number }[];
}

const SPACE = /\s/u;

/**
 * Folds text items for matching: compatibility forms (ligatures)
 * decomposed, lower case, white space dropped; each folded UTF-16 unit
 * remembers its item and character.
 */
export function fold(items: readonly string[]): Folded {
  let text = "";
  const from: Folded["from"] = [];
  items.forEach((str, item) => {
    let i = 0;
    for (const ch of str) {
      const start = i;
      i += ch.length;
      for (const f of ch.normalize("NFKC").toLowerCase()) {
        if (SPACE.test(f)) continue;
        text += f;
        // One entry per UTF-16 unit, so indexes into `text` index this too.
        from.push(...Array<Folded["from"][number]>(f.length).fill({ item, start, end: i }));
      }
    }
  });
  return { text, from };
}

/**
 * Where `passage` first occurs in a page's text items (pdf.js's text
 * content, one string per span of the text layer), ignoring case and white
 * space — also the absence of a space where one item ends and the next
 * begins, since pdf.js does not always emit one between lines. The server
 * accepted the passage on the same terms (case and runs of white space).
 * Returns the match's part of each item it covers, in order; none when the
 * passage is empty or not there.
 */
export function findPassage(items: readonly string[], passage: string): PassagePart[] {
  const needle = fold([passage]).text;
  if (!needle) return [];
  const hay = fold(items);
  const at = hay.text.indexOf(needle);
  if (at < 0) return [];
  return partsOf(hay, at, needle.length);
}

/** The parts of each item that the folded units [at, at + length) came from, in order. */
export function partsOf(hay: Folded, at: number, length: number): PassagePart[] {
  const parts: PassagePart[] = [];
  for (let k = at; k < at + length; k++) {
    const src = hay.from[k];
    if (!src) break;
    const last = parts[parts.length - 1];
    if (last?.item === src.item) {
      last.start = Math.min(last.start, src.start);
      last.end = Math.max(last.end, src.end);
    } else {
      parts.push({ item: src.item, start: src.start, end: src.end });
    }
  }
  return parts;
}

/**
 * Wraps each part of a match in a <mark> inside its span of the text layer
 * (`spans[i]` shows item i), leaving the text around it as it was, and
 * returns the marks in reading order.
 */
export function markPassage(spans: readonly HTMLElement[], parts: readonly PassagePart[]): HTMLElement[] {
  const marks: HTMLElement[] = [];
  for (const { item, start, end } of parts) {
    const span = spans[item];
    if (!span) continue;
    const text = span.textContent;
    const mark = document.createElement("mark");
    mark.setAttribute(PASSAGE_HIGHLIGHT_ATTR, "");
    mark.textContent = text.slice(start, end);
    const nodes: Node[] = [];
    if (start > 0) nodes.push(document.createTextNode(text.slice(0, start)));
    nodes.push(mark);
    if (end < text.length) nodes.push(document.createTextNode(text.slice(end)));
    span.replaceChildren(...nodes);
    marks.push(mark);
  }
  return marks;
}
