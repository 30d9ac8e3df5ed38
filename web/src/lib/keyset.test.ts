import { describe, expect, it } from "vitest";
import { cursorOf, keysetFilter, quoteValue } from "./keyset";

describe("keysetFilter", () => {
  it("continues a descending list after (value, id)", () => {
    expect(keysetFilter({ column: "updated_at", ascending: false }, { value: "2026-01-02T03:04:05Z", id: "b" })).toBe(
      'updated_at.lt."2026-01-02T03:04:05Z",and(updated_at.eq."2026-01-02T03:04:05Z",id.lt."b")',
    );
  });

  it("continues an ascending list and keeps nulls last for nullable columns", () => {
    expect(keysetFilter({ column: "expires_at", ascending: true, nullable: true }, { value: "2027-01-01", id: "a" })).toBe(
      'expires_at.gt."2027-01-01",and(expires_at.eq."2027-01-01",id.gt."a"),expires_at.is.null',
    );
    expect(keysetFilter({ column: "expires_at", ascending: true, nullable: true }, { value: null, id: "a" })).toBe(
      'and(expires_at.is.null,id.gt."a")',
    );
  });

  it("quotes values with reserved characters", () => {
    expect(quoteValue('Hello, "world" (1)')).toBe('"Hello, \\"world\\" (1)"');
    expect(keysetFilter({ column: "title", ascending: true }, { value: "a,b", id: "x" })).toContain('title.gt."a,b"');
  });
});

describe("cursorOf", () => {
  it("reads the sort column and id of the last row", () => {
    expect(cursorOf({ column: "title", ascending: true }, { id: "1", title: "T" })).toEqual({ id: "1", value: "T" });
    expect(cursorOf({ column: "expires_at", ascending: true }, { id: "1", expires_at: null })).toEqual({ id: "1", value: null });
    expect(cursorOf({ column: "title", ascending: true }, { title: "T" })).toBeNull();
  });
});
