import { describe, expect, it } from "vitest";
import { dispositionFilename } from "./download";

describe("dispositionFilename", () => {
  it("reads the name the server gave an attachment", () => {
    expect(dispositionFilename('attachment; filename="review-record-FB-US-0001-round-2.pdf"')).toBe("review-record-FB-US-0001-round-2.pdf");
    expect(dispositionFilename("attachment; filename=form-2253-FB-US-0001.json")).toBe("form-2253-FB-US-0001.json");
    expect(dispositionFilename("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf")).toBe("résumé.pdf");
  });

  it("gives none when the header names none", () => {
    expect(dispositionFilename(null)).toBeNull();
    expect(dispositionFilename("attachment")).toBeNull();
    expect(dispositionFilename('attachment; filename=""')).toBeNull();
  });
});
