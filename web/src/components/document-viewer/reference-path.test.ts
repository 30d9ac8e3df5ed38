import { describe, expect, it } from "vitest";
import { passageFromSearch, referencePath } from "./reference-path";

describe("a reference viewer's address", () => {
  it("carries the passage's page and quote, and reads them back", () => {
    const path = referencePath("1a2b", { page: 2, text: "71% of patients & more" });
    expect(path).toBe("/content/references/1a2b?page=2&quote=71%25+of+patients+%26+more");
    const search = new URLSearchParams(path.slice(path.indexOf("?")));
    expect(passageFromSearch(search)).toEqual({ passage: { page: 2, text: "71% of patients & more" }, page: 2 });
  });

  it("opens at page 1 without a passage, and at a page without a quote", () => {
    expect(referencePath("1a2b")).toBe("/content/references/1a2b");
    expect(passageFromSearch(new URLSearchParams(""))).toEqual({ passage: null, page: 1 });
    expect(passageFromSearch(new URLSearchParams("page=3"))).toEqual({ passage: null, page: 3 });
  });

  it("ignores a page that is not a page number, and a blank quote", () => {
    expect(passageFromSearch(new URLSearchParams("page=0&quote=x"))).toEqual({ passage: null, page: 1 });
    expect(passageFromSearch(new URLSearchParams("page=-2&quote=x"))).toEqual({ passage: null, page: 1 });
    expect(passageFromSearch(new URLSearchParams("page=2.5&quote=x"))).toEqual({ passage: null, page: 1 });
    expect(passageFromSearch(new URLSearchParams("page=2&quote=%20%20"))).toEqual({ passage: null, page: 2 });
  });
});
