import { describe, expect, it } from "vitest";
import { countable, queryFilters } from "./api";
import { diffRows, unwrapSingle } from "./diff";
import {
  actionFilter,
  actionVariant,
  csvFilename,
  cursorFromSearch,
  EMPTY_FILTERS,
  filtersFromSearch,
  hasFilters,
  metaSummary,
  periodBounds,
  searchFromFilters,
} from "./filters";
import { verificationHeadline } from "./verification";

const now = new Date("2026-03-10T12:00:00.000Z");

describe("periodBounds", () => {
  it("turns the preset periods into a lower created_at bound", () => {
    expect(periodBounds({ period: "24h", from: "", to: "" }, now)).toEqual({ since: "2026-03-09T12:00:00.000Z" });
    expect(periodBounds({ period: "7d", from: "", to: "" }, now)).toEqual({ since: "2026-03-03T12:00:00.000Z" });
    expect(periodBounds({ period: "30d", from: "", to: "" }, now)).toEqual({ since: "2026-02-08T12:00:00.000Z" });
  });

  it("has no bounds for any time", () => {
    expect(periodBounds({ period: "", from: "2026-01-01", to: "" }, now)).toEqual({});
  });

  it("includes both custom days whole, in local time", () => {
    const b = periodBounds({ period: "custom", from: "2026-03-01", to: "2026-03-02" }, now);
    expect(b.since).toBe(new Date(2026, 2, 1).toISOString());
    expect(b.until).toBe(new Date(2026, 2, 3).toISOString());
  });

  it("allows open-ended custom ranges and swaps reversed ones", () => {
    expect(periodBounds({ period: "custom", from: "2026-03-01", to: "" }, now)).toEqual({ since: new Date(2026, 2, 1).toISOString() });
    expect(periodBounds({ period: "custom", from: "", to: "2026-03-01" }, now)).toEqual({ until: new Date(2026, 2, 2).toISOString() });
    expect(periodBounds({ period: "custom", from: "2026-03-05", to: "2026-03-01" }, now)).toEqual({
      since: new Date(2026, 2, 1).toISOString(),
      until: new Date(2026, 2, 6).toISOString(),
    });
  });
});

describe("URL round trip", () => {
  it("writes only the filters that are set, and the cursor", () => {
    const f = { ...EMPTY_FILTERS, actor: "u1", action: "invite_created", period: "7d" as const };
    const s = searchFromFilters(f, 120);
    expect(s.toString()).toBe("actor=u1&action=invite_created&period=7d&before=120");
    expect(filtersFromSearch(s)).toEqual(f);
    expect(cursorFromSearch(s)).toBe(120);
  });

  it("keeps custom dates only with the custom period", () => {
    expect(searchFromFilters({ ...EMPTY_FILTERS, period: "24h", from: "2026-01-01" }).toString()).toBe("period=24h");
    expect(searchFromFilters({ ...EMPTY_FILTERS, period: "custom", from: "2026-01-01", to: "2026-01-31" }).toString()).toBe(
      "period=custom&from=2026-01-01&to=2026-01-31",
    );
  });

  it("drops malformed values", () => {
    const f = filtersFromSearch(new URLSearchParams("period=year&from=yesterday&to=2026-02-30x&action=%20x%20"));
    expect(f).toEqual({ ...EMPTY_FILTERS, action: "x" });
    expect(cursorFromSearch(new URLSearchParams("before=-3"))).toBeNull();
    expect(cursorFromSearch(new URLSearchParams("before=abc"))).toBeNull();
    expect(cursorFromSearch(new URLSearchParams("before=0"))).toBeNull();
    expect(cursorFromSearch(new URLSearchParams(""))).toBeNull();
  });

  it("knows when a filter is set", () => {
    expect(hasFilters(EMPTY_FILTERS)).toBe(false);
    expect(hasFilters({ ...EMPTY_FILTERS, type: "invite" })).toBe(true);
    expect(hasFilters({ ...EMPTY_FILTERS, period: "24h" })).toBe(true);
  });
});

describe("queryFilters", () => {
  it("maps the filters to indexed PostgREST conditions (the period is resolved to ids separately)", () => {
    expect(queryFilters({ actor: "u1", action: "invite_created", type: "invite", period: "24h", from: "", to: "" })).toEqual([
      ["actor_id", "eq", "u1"],
      ["action", "eq", "invite_created"],
      ["object_type", "eq", "invite"],
    ]);
  });

  it("matches unknown or partial actions as a case-insensitive substring, and does not count them", () => {
    const f = queryFilters({ ...EMPTY_FILTERS, action: "invite" });
    expect(f).toEqual([["action", "ilike", "*invite*"]]);
    expect(countable(f)).toBe(false);
    expect(countable(queryFilters({ ...EMPTY_FILTERS, action: "invite_created", actor: "u" }))).toBe(true);
    expect(actionFilter("  ")).toBeNull();
    expect(actionFilter("orgs.update")).toEqual({ op: "eq", value: "orgs.update" });
    expect(actionFilter("custom", ["custom"])).toEqual({ op: "eq", value: "custom" });
  });

  it("is empty without filters", () => {
    expect(queryFilters(EMPTY_FILTERS)).toEqual([]);
  });
});

describe("metaSummary", () => {
  it("lists key and value pairs in a line", () => {
    expect(metaSummary({ rows: 1, via: "data_api" })).toBe("rows: 1 · via: data_api");
    expect(metaSummary({ invited_email: "a@b.c", invited_role: "marketer" })).toBe("invited email: a@b.c · invited role: marketer");
  });

  it("abbreviates nested values", () => {
    expect(metaSummary({ completed_steps: ["organization_setup", "user_invites"], detail: { a: 1 }, gone: null })).toBe(
      "completed steps: organization_setup, user_invites · detail: {…} · gone: —",
    );
    expect(metaSummary({ list: [{ a: 1 }, { b: 2 }] })).toBe("list: 2 items");
  });

  it("cuts long summaries with an ellipsis", () => {
    const s = metaSummary({ note: "x".repeat(200) }, 40);
    expect(s).toHaveLength(40);
    expect(s.endsWith("…")).toBe(true);
  });

  it("says nothing for no meta", () => {
    expect(metaSummary(null)).toBe("");
    expect(metaSummary(undefined)).toBe("");
    expect(metaSummary({})).toBe("");
    expect(metaSummary("plain")).toBe("plain");
  });
});

describe("csvFilename", () => {
  it("names the export by the local date", () => {
    expect(csvFilename(new Date(2026, 0, 5, 23, 59))).toBe("audit-log-2026-01-05.csv");
    expect(csvFilename(new Date(2026, 11, 31, 0, 0))).toBe("audit-log-2026-12-31.csv");
  });
});

describe("actionVariant", () => {
  it("colours actions by what they do", () => {
    expect(actionVariant("orgs.delete")).toBe("red");
    expect(actionVariant("audit_chain_verification_failed")).toBe("red");
    expect(actionVariant("invite_created")).toBe("green");
    expect(actionVariant("orgs.update")).toBe("blue");
    expect(actionVariant("demo_role_switched")).toBe("amber");
    expect(actionVariant("something")).toBe("gray");
  });
});

describe("diffRows", () => {
  it("compares one-row arrays as rows and marks changed fields", () => {
    const rows = diffRows([{ id: "o1", name: "Acme", industry: "Pharma" }], [{ id: "o1", name: "Acme Pharma", industry: "Pharma" }]);
    expect(rows.map((r) => [r.key, r.changed])).toEqual([
      ["id", false],
      ["name", true],
      ["industry", false],
    ]);
  });

  it("marks added and removed fields", () => {
    const rows = diffRows({ a: 1, gone: true }, { a: 1, added: "x" });
    expect(rows.find((r) => r.key === "gone")).toMatchObject({ removed: true, changed: true });
    expect(rows.find((r) => r.key === "added")).toMatchObject({ added: true, changed: true });
  });

  it("treats a creation as every field added", () => {
    const rows = diffRows(null, { role: "marketer" });
    expect(rows).toEqual([{ key: "role", before: undefined, after: "marketer", added: true, removed: false, changed: true }]);
  });

  it("compares nested values structurally", () => {
    expect(diffRows({ x: { a: 1, b: [1, 2] } }, { x: { b: [1, 2], a: 1 } })[0]?.changed).toBe(false);
  });

  it("falls back to one value row for several rows", () => {
    const rows = diffRows([{ a: 1 }, { a: 2 }], null);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key).toBe("value");
    expect(unwrapSingle([1])).toBe(1);
  });

  it("is empty with nothing before or after", () => {
    expect(diffRows(null, null)).toEqual([]);
  });
});

describe("verificationHeadline", () => {
  it("says the chain is intact with the count, or where it broke", () => {
    expect(verificationHeadline({ ok: true, checked: 1234, firstBrokenId: null })).toBe("Chain intact — 1,234 entries verified");
    expect(verificationHeadline({ ok: true, checked: 1, firstBrokenId: null })).toBe("Chain intact — 1 entry verified");
    expect(verificationHeadline({ ok: false, checked: 10, firstBrokenId: 7 })).toBe("Chain broken at entry #7");
  });
});
