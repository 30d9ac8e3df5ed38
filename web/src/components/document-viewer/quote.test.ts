import { describe, expect, it } from "vitest";
import { fold } from "./passage";
import { locateQuote, quoteIndex, quoteOffsets } from "./quote";

// A quote is found as the server located it: case and white space aside,
// prefix and suffix deciding between repeats, the expected place breaking
// what they leave tied.

describe("locating a quote in text items", () => {
  it("finds a quote across items whatever their white space and case", () => {
    // pdf.js splits a line into items and may drop the space between lines.
    const items = ["Zentria relieves moderate", "pain within TWO", "weeks for most adults."];
    expect(locateQuote(fold(items), "moderate pain within two weeks")).toEqual([
      { item: 0, start: 17, end: 25 },
      { item: 1, start: 0, end: 15 },
      { item: 2, start: 0, end: 5 },
    ]);
    expect(locateQuote(fold(items), "not there")).toEqual([]);
    expect(locateQuote(fold(items), "   ")).toEqual([]);
  });

  it("takes the repeat whose prefix and suffix match, not the first", () => {
    const text = "Take one tablet daily. Children: take one tablet daily with food. Adults: take one tablet daily.";
    const hay = fold([text]);
    const first = quoteIndex(hay, "take one tablet daily");
    const children = quoteIndex(hay, "take one tablet daily", { prefix: "Children: ", suffix: " with food." });
    const adults = quoteIndex(hay, "take one tablet daily", { prefix: "Adults: ", suffix: "." });
    expect(first?.at).toBe(0);
    expect(children && children.at > (first?.at ?? 0)).toBe(true);
    expect(adults && children && adults.at > children.at).toBe(true);
    expect(quoteOffsets(text, "take one tablet daily", { prefix: "Children: ", suffix: " with food." })).toEqual({ start: 33, end: 54 });
  });

  it("breaks a tie by the place the quote is expected at", () => {
    const text = "See the ISI. More words in between here. See the ISI.";
    expect(quoteOffsets(text, "See the ISI", { near: 0.9 })).toEqual({ start: 41, end: 52 });
    expect(quoteOffsets(text, "See the ISI", { near: 0 })).toEqual({ start: 0, end: 11 });
  });

  it("gives offsets in code points, as the server keeps them", () => {
    // "𝛼" is one code point and two UTF-16 units.
    expect(quoteOffsets("𝛼-blocker: reduces pain", "reduces pain")).toEqual({ start: 11, end: 23 });
  });
});
