import { describe, expect, it } from "vitest";
import { textTarget } from "./annotation-selection";

describe("a selected quote's target", () => {
  it("sends the quote's offsets in the version's text as a hint, when the page's text is known", () => {
    const pageTexts = ["Title\nTake one tablet daily.", "Children: take one tablet daily with food."];
    const quote = { exact: "take one tablet daily", prefix: "Children: ", suffix: " with food." };
    expect(textTarget(quote, 2, pageTexts, [0, 28])).toEqual({ type: "text", ...quote, start: 38, end: 59 });
    expect(textTarget(quote, 2, null, [])).toEqual({ type: "text", ...quote });
    expect(textTarget({ ...quote, exact: "not on the page" }, 2, pageTexts, [0, 28])).toEqual({ type: "text", ...quote, exact: "not on the page" });
  });
});
