import { describe, expect, it } from "vitest";
import { splitSnippet } from "./snippet";

describe("splitSnippet", () => {
  it("splits on the private-use markers", () => {
    expect(splitSnippet("…reduces \uE000pain\uE001 in \uE000adults\uE001.")).toEqual([
      { text: "…reduces ", match: false },
      { text: "pain", match: true },
      { text: " in ", match: false },
      { text: "adults", match: true },
      { text: ".", match: false },
    ]);
  });

  it("keeps markup as text and tolerates stray markers", () => {
    expect(splitSnippet("<b>x</b>\uE001 y")).toEqual([{ text: "<b>x</b> y", match: false }]);
    expect(splitSnippet("\uE000open")).toEqual([{ text: "open", match: true }]);
    expect(splitSnippet(null)).toEqual([]);
  });
});
