import { describe, expect, it } from "vitest";
import { findPassage, markPassage, PASSAGE_HIGHLIGHT_ATTR } from "./passage";

// A page's text as pdf.js reads it: one item per run of text, lines not
// always separated by a space.
const PAGE = ["Results", "PASI 75 was reached by 71% of patients", "at week 16 in the", " zephyrimab arm."];

describe("findPassage", () => {
  it("finds a passage within one item, whatever its case", () => {
    const start = "PASI 75 was ".length;
    expect(findPassage(PAGE, "reached BY 71%")).toEqual([{ item: 1, start, end: start + "reached by 71%".length }]);
  });

  it("finds a passage across items, whatever the white space between and within them", () => {
    expect(findPassage(PAGE, "71% of\n patients   at week 16 in the zephyrimab")).toEqual([
      { item: 1, start: 23, end: 38 },
      { item: 2, start: 0, end: 17 },
      { item: 3, start: 1, end: 11 },
    ]);
  });

  it("matches a ligature in the PDF with the letters typed", () => {
    expect(findPassage(["Ef\uFB01cacy was shown"], "efficacy")).toEqual([{ item: 0, start: 0, end: 7 }]);
  });

  it("finds nothing for a passage that is not there, or an empty one", () => {
    expect(findPassage(PAGE, "PASI 90")).toEqual([]);
    expect(findPassage(PAGE, "  \n ")).toEqual([]);
    expect(findPassage([], "Results")).toEqual([]);
  });

  it("finds the first occurrence", () => {
    expect(findPassage(["a b", "x", "a b"], "ab")).toEqual([{ item: 0, start: 0, end: 3 }]);
  });
});

describe("markPassage", () => {
  it("wraps each part in a mark and keeps the text around it", () => {
    const spans = PAGE.map((text) => {
      const span = document.createElement("span");
      span.textContent = text;
      return span;
    });
    const marks = markPassage(spans, findPassage(PAGE, "71% of patients at week"));
    expect(marks.map((m) => m.textContent)).toEqual(["71% of patients", "at week"]);
    expect(marks.every((m) => m.hasAttribute(PASSAGE_HIGHLIGHT_ATTR))).toBe(true);
    expect(spans.map((s) => s.textContent)).toEqual(PAGE);
    expect(spans[1]?.innerHTML).toBe(`PASI 75 was reached by <mark ${PASSAGE_HIGHLIGHT_ATTR}="">71% of patients</mark>`);
    expect(spans[2]?.innerHTML).toBe(`<mark ${PASSAGE_HIGHLIGHT_ATTR}="">at week</mark> 16 in the`);
  });
});
