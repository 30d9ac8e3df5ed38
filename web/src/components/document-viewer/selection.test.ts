import { describe, expect, it } from "vitest";
import { linearOffset, linearText, quoteContext, selectionQuote } from "./selection";

// From a selection on screen to an annotation's quote: the words, and up to
// 32 characters either side of them from the same page, white space
// collapsed; a line's or a block's end never runs two words together.

function element(html: string): HTMLElement {
  const div = document.createElement("div");
  div.innerHTML = html;
  document.body.append(div);
  return div;
}

/** A range over `words` inside the text node that holds them. */
function rangeOver(root: Node, words: string, end?: string): Range {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let started = false;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n as Text;
    if (!started && t.data.includes(words)) {
      range.setStart(t, t.data.indexOf(words));
      started = true;
      if (!end) {
        range.setEnd(t, t.data.indexOf(words) + words.length);
        return range;
      }
    }
    if (started && end && t.data.includes(end)) {
      range.setEnd(t, t.data.indexOf(end) + end.length);
      return range;
    }
  }
  throw new Error(`no "${words}"`);
}

describe("a selection's quote and context", () => {
  it("cuts the context to 32 characters either side, white space collapsed, the quote trimmed", () => {
    const text = "Zentria (zentramab) detail aid\nZentria relieves  moderate pain within two weeks for most adults in the trial.";
    const start = text.indexOf(" relieves");
    const end = text.indexOf("weeks") + "weeks ".length;
    expect(quoteContext(text, start, end)).toEqual({
      exact: "relieves moderate pain within two weeks",
      prefix: " (zentramab) detail aid Zentria ",
      suffix: " for most adults in the trial.",
    });
    const long = quoteContext(`${"a".repeat(50)} quote ${"b".repeat(50)}`, 51, 56);
    expect(Array.from(long.prefix)).toHaveLength(32);
    expect(Array.from(long.suffix)).toHaveLength(32);
  });

  it("reads a pdf.js text layer as lines: a <br> ends one, spans of a line run on", () => {
    const layer = element(
      '<div class="textLayer"><span>Zentria relieves moderate</span><span> pain within two</span><br><span>weeks for most adults.</span><br><span>Most patients felt better.</span></div>',
    );
    const linear = linearText(layer);
    expect(linear.text).toBe("Zentria relieves moderate pain within two\nweeks for most adults.\nMost patients felt better.");
    const quote = selectionQuote(layer, rangeOver(layer, "moderate", "weeks"));
    expect(quote).toEqual({ exact: "moderate pain within two weeks", prefix: "Zentria relieves ", suffix: " for most adults. Most patients " });
  });

  it("reads composed text with a line break at every block, so no two blocks' words join", () => {
    const article = element("<article><h1>Zentria</h1><p>Relieves pain <strong>within two weeks</strong>.</p><ul><li>Once daily</li><li>With food</li></ul></article>");
    expect(linearText(article).text).toBe("Zentria\nRelieves pain within two weeks.\nOnce daily\nWith food");
    expect(selectionQuote(article, rangeOver(article, "within two weeks"))).toEqual({ exact: "within two weeks", prefix: "Zentria Relieves pain ", suffix: ". Once daily With food" });
  });

  it("places a boundary between elements at the text that follows it", () => {
    const article = element("<article><p>One</p><p>Two</p></article>");
    const linear = linearText(article);
    const second = article.querySelectorAll("p")[1];
    if (!second) throw new Error("no p");
    expect(linearOffset(linear, article.firstChild as Node, 1)).toBe(linear.text.indexOf("Two"));
    expect(linearOffset(linear, second, 0)).toBe(linear.text.indexOf("Two"));
    expect(linearOffset(linear, article.firstChild as Node, 2)).toBe(linear.text.length);
  });

  it("has no quote for an empty selection, only white space, or one leaving the root", () => {
    const root = element("<p>Alpha beta</p>");
    const other = element("<p>Gamma</p>");
    const empty = document.createRange();
    empty.setStart(root.firstChild?.firstChild as Node, 2);
    expect(selectionQuote(root, empty)).toBeNull();
    const space = rangeOver(root, " ");
    expect(selectionQuote(root, space)).toBeNull();
    const outside = rangeOver(other, "Gamma");
    expect(selectionQuote(root, outside)).toBeNull();
  });

});
