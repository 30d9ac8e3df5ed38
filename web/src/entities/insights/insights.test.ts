import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { invalidateAssets } from "@/entities/assets";
import { toCsv } from "@/lib/csv";
import {
  categoriesByRole,
  decisionsByRole,
  findingsByMonth,
  findingsTable,
  formatDuration,
  formatRate,
  type Insights,
  insightsArgs,
  insightsKeys,
  monthsOf,
  roundsTable,
  workloadTable,
} from "./index";

const base: Pick<Insights, "from" | "to" | "findings_by_rule" | "rounds_per_asset" | "reasons" | "workload"> = {
  from: "2025-11-01",
  to: "2026-02-14",
  findings_by_rule: [
    { month: "2025-11", rule: "superlative", count: 3 },
    { month: "2026-01", rule: "comparative", count: 1 },
    { month: "2026-01", rule: "superlative", count: 2 },
  ],
  rounds_per_asset: [
    { rounds: 1, assets: 5 },
    { rounds: 2, assets: 2 },
    { rounds: 3, assets: 0 },
    { rounds: 4, assets: 1 },
  ],
  reasons: {
    decisions: [
      { role: "reviewer_legal", decision: "rejected", count: 2 },
      { role: "reviewer_medical", decision: "changes_requested", count: 4 },
    ],
    by_category: [
      { role: "reviewer_medical", category: "claim_needs_reference", count: 3 },
      { role: "reviewer_legal", category: "general", count: 1 },
      { role: "reviewer_legal", category: "claim_needs_reference", count: 1 },
    ],
    top_requests: [],
    recent_rejections: [],
  },
  workload: [{ role: "reviewer_medical", open_steps: 2, overdue_steps: 1, completed_steps: 9, median_turnaround_hours: 30.5 }],
};

describe("insights entity", () => {
  it("sends only the filters that are set", () => {
    expect(insightsArgs({ product: "", from: "", to: "" })).toEqual({});
    expect(insightsArgs({ product: "p1", from: "2026-01-01", to: "2026-02-01" })).toEqual({ product_id: "p1", from: "2026-01-01", to: "2026-02-01" });
    expect(insightsKeys.detail({ product: "p1", from: "", to: "" })).toEqual(["insights", { product: "p1", from: "", to: "" }]);
  });

  it("lists every month of the period, across a year's end", () => {
    expect(monthsOf("2025-11-01", "2026-02-14")).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
    expect(monthsOf("", "2026-02-14")).toEqual([]);
  });

  it("pivots findings into months without gaps, rules by total", () => {
    const { rules, rows } = findingsByMonth(base);
    expect(rules).toEqual(["superlative", "comparative"]);
    expect(rows).toEqual([
      { month: "2025-11", superlative: 3, comparative: 0 },
      { month: "2025-12", superlative: 0, comparative: 0 },
      { month: "2026-01", superlative: 2, comparative: 1 },
      { month: "2026-02", superlative: 0, comparative: 0 },
    ]);
    expect(findingsTable(base)).toEqual({
      header: ["Month", "superlative", "comparative", "Total"],
      rows: [
        ["2025-11", 3, 0, 3],
        ["2025-12", 0, 0, 0],
        ["2026-01", 2, 1, 3],
        ["2026-02", 0, 0, 0],
      ],
    });
  });

  it("tables the rounds, decisions, categories and workload", () => {
    expect(roundsTable(base).rows).toEqual([
      ["1", 5],
      ["2", 2],
      ["3", 0],
      ["4 or more", 1],
    ]);
    expect(decisionsByRole(base, ["reviewer_medical", "reviewer_legal"])).toEqual([
      { role: "reviewer_medical", rejected: 0, changes_requested: 4 },
      { role: "reviewer_legal", rejected: 2, changes_requested: 0 },
    ]);
    expect(categoriesByRole(base)).toEqual([
      { category: "claim_needs_reference", count: 4 },
      { category: "general", count: 1 },
    ]);
    expect(workloadTable(base, (r) => r.replace("reviewer_", "")).rows).toEqual([["medical", 2, 1, 9, 30.5]]);
  });

  it("formats rates and durations", () => {
    expect(formatRate(0.6667)).toBe("67%");
    expect(formatRate(null)).toBe("—");
    expect(formatDuration(7.25)).toBe("7.3 h");
    expect(formatDuration(60)).toBe("2.5 d");
    expect(formatDuration(null)).toBe("—");
  });

  it("is refreshed when an asset changes", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    const key = insightsKeys.detail({ product: "", from: "", to: "" });
    client.setQueryData(key, { cached: true });
    await invalidateAssets(client);
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
    client.clear();
  });
});

describe("CSV", () => {
  it("quotes what needs quoting, leaves numbers and empties plain, and ends lines with CRLF", () => {
    expect(toCsv(["Request", "Times", "Median"], [["Add the ISI, please", 3, null], ['Say "not the only"', 1, 2.5], ["two\nlines", 0, undefined]])).toBe(
      'Request,Times,Median\r\n"Add the ISI, please",3,\r\n"Say ""not the only""",1,2.5\r\n"two\nlines",0,\r\n',
    );
  });

  it("defuses what a spreadsheet would run as a formula", () => {
    expect(toCsv(["Asset"], [["=HYPERLINK(\"x\")"], ["+1"], ["-2"], ["@SUM(A1)"]])).toBe("Asset\r\n\"'=HYPERLINK(\"\"x\"\")\"\r\n'+1\r\n'-2\r\n'@SUM(A1)\r\n");
    expect(toCsv(["n"], [[-2]])).toBe("n\r\n-2\r\n");
  });
});
