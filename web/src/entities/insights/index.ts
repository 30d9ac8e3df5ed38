import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { CsvCell } from "@/lib/csv";
import { unwrap } from "@/lib/data";
import { getSupabase } from "@/lib/supabase";

/**
 * Compliance Intelligence (rpc compliance_insights): one call returns every
 * series of the insights screen for a product (or all) and a period. The
 * history series (approvals, findings, reasons, completed steps) cover the
 * period; open and overdue steps and expiries are as of now. Review
 * changes invalidate it with the assets (entities/assets).
 */

/** The screen's filters, as the URL keeps them; "" for the server's default (all products, the last twelve months). */
export interface InsightsFilters {
  product: string;
  /** YYYY-MM-DD, included. */
  from: string;
  /** YYYY-MM-DD, included. */
  to: string;
}

export const NO_INSIGHTS_FILTERS: InsightsFilters = { product: "", from: "", to: "" };

export interface FirstPass {
  approved: number;
  first_pass: number;
  /** 0 to 1; null without approvals. */
  rate: number | null;
}

export interface CycleTime {
  approved: number;
  median_hours: number | null;
  p90_hours: number | null;
}

export interface RoundsBucket {
  /** 4 means four or more. */
  rounds: number;
  assets: number;
}

export interface FindingsMonth {
  /** YYYY-MM (UTC). */
  month: string;
  rule: string;
  count: number;
}

export interface ReasonCount {
  role: string;
  decision?: "rejected" | "changes_requested";
  /** An annotation category, or "general" for a change request pointing at none. */
  category?: string;
  count: number;
}

export interface FrequentRequest {
  text: string;
  role: string;
  count: number;
}

export interface RejectionNote {
  role: string;
  asset_id: string;
  asset_title: string;
  comment: string;
  decided_at: string;
}

export interface RoleWorkload {
  role: string;
  open_steps: number;
  overdue_steps: number;
  completed_steps: number;
  median_turnaround_hours: number | null;
}

export interface OverdueStep {
  step_id: string;
  review_id: string;
  asset_id: string;
  asset_title: string;
  role: string;
  claimed_by: string | null;
  due_at: string;
  days_overdue: number;
}

export interface ExpiryWindow {
  days: number;
  count: number;
}

export interface ExpiringAsset {
  asset_id: string;
  title: string;
  job_code: string;
  expires_at: string;
  days_left: number;
}

/** What compliance_insights returns. */
export interface Insights {
  product_id: string | null;
  from: string;
  to: string;
  as_of: string;
  first_pass: FirstPass;
  cycle_time: CycleTime;
  rounds_per_asset: RoundsBucket[];
  findings_by_rule: FindingsMonth[];
  reasons: {
    decisions: ReasonCount[];
    by_category: ReasonCount[];
    top_requests: FrequentRequest[];
    recent_rejections: RejectionNote[];
  };
  workload: RoleWorkload[];
  overdue: OverdueStep[];
  overdue_total: number;
  expiring: ExpiryWindow[];
  expiring_assets: ExpiringAsset[];
}

export const insightsKeys = {
  all: ["insights"] as const,
  detail: (filters: InsightsFilters) => [...insightsKeys.all, filters] as const,
};

/** compliance_insights' arguments: only the filters that are set. */
export function insightsArgs(filters: InsightsFilters): Record<string, string> {
  const args: Record<string, string> = {};
  if (filters.product) args.product_id = filters.product;
  if (filters.from) args.from = filters.from;
  if (filters.to) args.to = filters.to;
  return args;
}

export function insightsQuery(filters: InsightsFilters) {
  return queryOptions({
    queryKey: insightsKeys.detail(filters),
    queryFn: async (): Promise<Insights> => {
      const sb = await getSupabase();
      return unwrap(await sb.rpc("compliance_insights", insightsArgs(filters))) as unknown as Insights;
    },
  });
}

/** Refreshes every insights query (a review changed). */
export function invalidateInsights(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: insightsKeys.all });
}

// ---- the series as charts and tables read them

/** Hours as days when a day or more ("2.5 d"), else hours ("7 h"); "—" for none. */
export function formatDuration(hours: number | null): string {
  if (hours === null) return "—";
  if (hours >= 24) return `${(Math.round((hours / 24) * 10) / 10).toLocaleString("en-US")} d`;
  return `${(Math.round(hours * 10) / 10).toLocaleString("en-US")} h`;
}

/** A rate 0–1 as a whole percentage ("67%"); "—" for none. */
export function formatRate(rate: number | null): string {
  return rate === null ? "—" : `${Math.round(rate * 100)}%`;
}

/** Every month of the period, YYYY-MM, oldest first (the chart's x axis has no gaps). */
export function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  const endY = Number(to.slice(0, 4));
  const endM = Number(to.slice(5, 7));
  if (!y || !m || !endY || !endM) return out;
  while ((y < endY || (y === endY && m <= endM)) && out.length < 61) {
    out.push(`${String(y)}-${String(m).padStart(2, "0")}`);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return out;
}

/** Findings by rule as one row per month with a count per rule (0 where none), and the rules by total, most first. */
export function findingsByMonth(ins: Pick<Insights, "from" | "to" | "findings_by_rule">): {
  rules: string[];
  rows: ({ month: string } & Record<string, number | string>)[];
} {
  const totals = new Map<string, number>();
  for (const f of ins.findings_by_rule) totals.set(f.rule, (totals.get(f.rule) ?? 0) + f.count);
  const rules = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([r]) => r);
  const rows = monthsOf(ins.from, ins.to).map((month) => {
    const row: { month: string } & Record<string, number | string> = { month };
    for (const r of rules) row[r] = 0;
    return row;
  });
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  for (const f of ins.findings_by_rule) {
    const row = byMonth.get(f.month);
    if (row) row[f.rule] = (row[f.rule] as number) + f.count;
  }
  return { rules, rows };
}

/** A series as a table: the header and the rows, as the accessible table and the CSV show them. */
export interface SeriesTable {
  header: string[];
  rows: CsvCell[][];
}

/** The rounds an approval took, as a table. */
export function roundsTable(ins: Pick<Insights, "rounds_per_asset">): SeriesTable {
  return {
    header: ["Rounds to approval", "Approvals"],
    rows: ins.rounds_per_asset.map((b) => [b.rounds >= 4 ? "4 or more" : String(b.rounds), b.assets]),
  };
}

/** Findings per month and rule, as a table (a column per rule, and the month's total). */
export function findingsTable(ins: Pick<Insights, "from" | "to" | "findings_by_rule">): SeriesTable {
  const { rules, rows } = findingsByMonth(ins);
  return {
    header: ["Month", ...rules, "Total"],
    rows: rows.map((r) => {
      const counts = rules.map((rule) => r[rule] as number);
      return [r.month, ...counts, counts.reduce((a, b) => a + b, 0)];
    }),
  };
}

/** The decisions that stopped rounds, per role: rejections and changes requested. */
export function decisionsByRole(ins: Pick<Insights, "reasons">, roles: readonly string[]): { role: string; rejected: number; changes_requested: number }[] {
  return roles.map((role) => ({
    role,
    rejected: ins.reasons.decisions.find((d) => d.role === role && d.decision === "rejected")?.count ?? 0,
    changes_requested: ins.reasons.decisions.find((d) => d.role === role && d.decision === "changes_requested")?.count ?? 0,
  }));
}

/** Reviewer workload and turnaround by role, as a table (`label` names a role). */
export function workloadTable(ins: Pick<Insights, "workload">, label: (role: string) => string): SeriesTable {
  return {
    header: ["Role", "Open steps", "Overdue steps", "Completed in period", "Median turnaround (hours)"],
    rows: ins.workload.map((w) => [label(w.role), w.open_steps, w.overdue_steps, w.completed_steps, w.median_turnaround_hours]),
  };
}

/** Approved assets expiring within 30, 60 and 90 days, and the assets, as a table. */
export function expiringTable(ins: Pick<Insights, "expiring_assets">): SeriesTable {
  return {
    header: ["Asset", "Job code", "Expires", "Days left"],
    rows: ins.expiring_assets.map((a) => [a.title, a.job_code, a.expires_at, a.days_left]),
  };
}

/** Change requests by role and the category of the annotation they point at. */
export function categoriesByRole(ins: Pick<Insights, "reasons">): { category: string; count: number }[] {
  const totals = new Map<string, number>();
  for (const r of ins.reasons.by_category) if (r.category) totals.set(r.category, (totals.get(r.category) ?? 0) + r.count);
  return [...totals.entries()].map(([category, count]) => ({ category, count })).sort((a, b) => b.count - a.count || a.category.localeCompare(b.category));
}
