import { describe, expect, it } from "vitest";
import { collapseUnchanged, countWords, diffPages, diffText } from "./text-diff";
import { pageTexts, renditionOf } from "./types";

describe("diffText", () => {
  it("marks inserted and deleted words and counts them", () => {
    const d = diffText("Relief in two weeks for most adults.", "Relief in one week for many adults.");
    expect(d.added).toBe(3);
    expect(d.removed).toBe(3);
    expect(d.parts.filter((p) => p.kind === "ins").map((p) => ("text" in p ? p.text.trim() : ""))).toEqual(["one week", "many"]);
    expect(d.parts.filter((p) => p.kind === "del").map((p) => ("text" in p ? p.text.trim() : ""))).toEqual(["two weeks", "most"]);
  });

  it("reports nothing for identical texts", () => {
    expect(diffText("same words", "same words")).toEqual({ page: null, parts: [{ kind: "same", text: "same words" }], added: 0, removed: 0 });
  });
});

describe("diffPages", () => {
  it("compares page by page and treats a new page as inserted", () => {
    const pages = diffPages(["alpha beta", "gamma"], ["alpha beta", "gamma delta", "new page here"]);
    expect(pages.map((p) => [p.page, p.added, p.removed])).toEqual([
      [1, 0, 0],
      [2, 1, 0],
      [3, 3, 0],
    ]);
  });

  it("compares single-page texts whole", () => {
    const [only] = diffPages(["one"], ["two"]);
    expect(only?.page).toBeNull();
  });

  it("compares a written version with a PDF as whole texts", () => {
    const pages = diffPages(["alpha beta", "gamma"], ["alpha beta\n\ngamma delta"]);
    expect(pages).toHaveLength(1);
    expect([pages[0]?.added, pages[0]?.removed]).toEqual([1, 0]);
  });
});

describe("collapseUnchanged", () => {
  it("keeps context around changes and counts the words left out", () => {
    const long = Array.from({ length: 50 }, (_, i) => `w${i}`).join(" ");
    const d = diffText(`${long} old tail`, `${long} new tail`);
    const collapsed = collapseUnchanged(d.parts, 5);
    expect(collapsed[0]).toEqual({ kind: "gap", words: 45 });
    expect(collapsed.some((p) => p.kind === "ins")).toBe(true);
  });
});

describe("helpers", () => {
  it("counts words", () => {
    expect(countWords("  a b\n c ")).toBe(3);
    expect(countWords("")).toBe(0);
  });

  it("chooses the viewer from the version", () => {
    expect(renditionOf({ kind: "authored", mimetype: null, file_name: null })).toBe("authored");
    expect(renditionOf({ kind: "file", mimetype: "application/pdf", file_name: "a.pdf" })).toBe("pdf");
    expect(renditionOf({ kind: "file", mimetype: "image/png", file_name: "a.png" })).toBe("image");
  });

  it("reads page texts, falling back to form feeds", () => {
    expect(pageTexts({ page_texts: ["a", "b"], plain_text: "a\fb" })).toEqual(["a", "b"]);
    expect(pageTexts({ page_texts: [], plain_text: "a\fb" })).toEqual(["a", "b"]);
  });
});
