import { useQuery } from "@tanstack/react-query";
import { AlarmClock, CalendarClock, CheckCheck, CircleAlert, Hourglass, Sparkles } from "lucide-react";
import { type ReactNode, useMemo } from "react";
import { Link, useSearchParams } from "react-router";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { NativeSelect } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import {
  categoriesByRole,
  decisionsByRole,
  expiringTable,
  findingsByMonth,
  findingsTable,
  formatDuration,
  formatRate,
  type Insights,
  type InsightsFilters,
  type SeriesTable,
  insightsQuery,
  roundsTable,
  workloadTable,
} from "@/entities/insights";
import { peopleQuery } from "@/entities/members";
import { productsQuery } from "@/entities/products";
import { annotationCategoryLabel } from "@/lib/annotation-types";
import { errorMessage } from "@/lib/errors";
import { formatDate } from "@/lib/format-time";
import { REVIEWER_ROLES, reviewerRoleLabel } from "@/lib/review-types";
import { useDocumentTitle } from "@/lib/use-document-title";
import { ChartCard } from "./chart-card";

/** The periods the screen offers; the URL keeps the key ("12m", the server's default, is left out). */
const PERIODS = [
  { key: "12m", label: "Last 12 months", months: 12 },
  { key: "6m", label: "Last 6 months", months: 6 },
  { key: "3m", label: "Last 3 months", months: 3 },
  { key: "1m", label: "Last month", months: 1 },
] as const;
type PeriodKey = (typeof PERIODS)[number]["key"];

/** The filters of a period ending today (UTC): whole calendar months, as the server's default is. */
function periodFilters(product: string, period: PeriodKey, today: Date = new Date()): InsightsFilters {
  if (period === "12m") return { product, from: "", to: "" };
  const months = PERIODS.find((p) => p.key === period)?.months ?? 12;
  const from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (months - 1), 1));
  return { product, from: from.toISOString().slice(0, 10), to: today.toISOString().slice(0, 10) };
}

// Colours that read on both themes and apart from each other.
const SERIES = ["#0f766e", "#d97706", "#7c3aed", "#2563eb", "#db2777", "#65a30d", "#0891b2", "#b91c1c", "#4b5563", "#ca8a04", "#9333ea"];
const axis = { fontSize: 12, fill: "var(--muted-foreground)" };

function shortMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return new Date(Date.UTC(y ?? 2000, (m ?? 1) - 1, 1)).toLocaleDateString("en-US", { month: "short", year: "2-digit", timeZone: "UTC" });
}

const categoryLabel = (c: string) => (c === "general" ? "No annotation" : annotationCategoryLabel(c));

/**
 * Compliance Intelligence (/compliance-intel, section #insights): how
 * content moves through review — the first-pass approval rate, cycle time,
 * rounds per approval, findings by rule per month, why rounds did not
 * pass, reviewer workload and turnaround, overdue steps and coming
 * expiries — for one product or all, over a period kept in the URL. Each
 * chart shows its numbers as a table on request and downloads them as
 * CSV.
 */
export function InsightsPage() {
  useDocumentTitle("Compliance Intelligence");
  const [params, setParams] = useSearchParams();
  const product = params.get("product") ?? "";
  const rawPeriod = params.get("period") ?? "12m";
  const period: PeriodKey = PERIODS.some((p) => p.key === rawPeriod) ? (rawPeriod as PeriodKey) : "12m";
  const filters = useMemo(() => periodFilters(product, period), [product, period]);
  const insights = useQuery(insightsQuery(filters));
  const products = useQuery(productsQuery());

  const update = (key: string, value: string, fallback: string) => {
    const next = new URLSearchParams(params);
    if (!value || value === fallback) next.delete(key);
    else next.set(key, value);
    setParams(next, { replace: true, preventScrollReset: true });
  };

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      <PageHeader
        title="Compliance Intelligence"
        description="How content moves through medical, legal and regulatory review: where rounds are lost, who is waiting, and what expires next."
      />
      <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Filters">
        <label className="grid gap-1 text-sm font-medium">
          Product
          <NativeSelect
            className="w-56 max-w-full"
            value={product}
            onChange={(e) => {
              update("product", e.target.value, "");
            }}
            data-testid="insights-product"
          >
            <option value="">All products</option>
            {(products.data ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.active ? p.brand_name : `${p.brand_name} (inactive)`}
              </option>
            ))}
          </NativeSelect>
        </label>
        <label className="grid gap-1 text-sm font-medium">
          Period
          <NativeSelect
            className="w-48 max-w-full"
            value={period}
            onChange={(e) => {
              update("period", e.target.value, "12m");
            }}
            data-testid="insights-period"
          >
            {PERIODS.map((p) => (
              <option key={p.key} value={p.key}>
                {p.label}
              </option>
            ))}
          </NativeSelect>
        </label>
        {insights.data ? (
          <p className="pb-2 text-sm text-muted-foreground" data-testid="insights-period-text">
            {formatDate(insights.data.from)} – {formatDate(insights.data.to)}
          </p>
        ) : null}
      </div>

      <section id="insights" aria-labelledby="insights-title" className="grid min-w-0 scroll-mt-20 gap-6">
        <h2 id="insights-title" className="sr-only">
          Insights
        </h2>
        {insights.isPending ? <InsightsSkeleton /> : null}
        {insights.isError ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertTitle>The insights could not be loaded</AlertTitle>
            <AlertDescription>{errorMessage(insights.error, "The server did not answer. Check your connection and try again.")}</AlertDescription>
          </Alert>
        ) : null}
        {insights.data ? <InsightsBody data={insights.data} /> : null}
      </section>
    </div>
  );
}

function InsightsSkeleton() {
  return (
    <div className="grid gap-4" aria-busy="true" aria-label="Loading insights">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Skeleton className="h-80" />
        <Skeleton className="h-80" />
      </div>
    </div>
  );
}

function Kpi({ label, value, detail, icon: Icon, testId }: { label: string; value: string; detail: string; icon: typeof Sparkles; testId: string }) {
  return (
    <Card className="min-w-0" data-testid={testId}>
      <CardContent className="grid gap-1 p-4">
        <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
          <Icon aria-hidden="true" className="size-4 shrink-0" />
          {label}
        </p>
        <p className="text-2xl font-semibold tabular-nums" data-testid={`${testId}-value`}>
          {value}
        </p>
        <p className="text-xs text-muted-foreground">{detail}</p>
      </CardContent>
    </Card>
  );
}

function InsightsBody({ data }: { data: Insights }) {
  const people = useQuery(peopleQuery());
  const names = useMemo(() => new Map((people.data ?? []).map((p) => [p.id, p.full_name || p.email])), [people.data]);
  const findings = useMemo(() => findingsByMonth(data), [data]);
  const decisions = decisionsByRole(data, REVIEWER_ROLES);
  const categories = categoriesByRole(data);
  const workload = data.workload.map((w) => ({ ...w, label: reviewerRoleLabel(w.role) }));
  const expiring = (days: number) => data.expiring.find((e) => e.days === days)?.count ?? 0;
  const rounds = data.rounds_per_asset.map((b) => ({ label: b.rounds >= 4 ? "4+" : String(b.rounds), assets: b.assets }));
  const noHistory = data.first_pass.approved === 0 && data.findings_by_rule.length === 0 && data.reasons.decisions.length === 0;

  return (
    <>
      <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-5">
        <Kpi
          testId="kpi-first-pass"
          icon={CheckCheck}
          label="First-pass approval"
          value={formatRate(data.first_pass.rate)}
          detail={`${String(data.first_pass.first_pass)} of ${String(data.first_pass.approved)} approvals at round 1`}
        />
        <Kpi
          testId="kpi-cycle"
          icon={Hourglass}
          label="Median cycle time"
          value={formatDuration(data.cycle_time.median_hours)}
          detail={`Submission to approval; 90% within ${formatDuration(data.cycle_time.p90_hours)}`}
        />
        <Kpi testId="kpi-approvals" icon={Sparkles} label="Approvals" value={String(data.first_pass.approved)} detail="Rounds that approved an asset" />
        <Kpi testId="kpi-overdue" icon={AlarmClock} label="Overdue steps" value={String(data.overdue_total)} detail="Active review steps past due, now" />
        <Kpi
          testId="kpi-expiring"
          icon={CalendarClock}
          label="Expiring in 30 days"
          value={String(expiring(30))}
          detail={`${String(expiring(60))} in 60 days, ${String(expiring(90))} in 90`}
        />
      </div>

      {noHistory ? (
        <EmptyState icon={Sparkles} title="No review history in this period">
          Insights fill in as rounds are decided. Pick a longer period or another product, or <Link to="/review" className="underline">open the Review Center</Link>.
        </EmptyState>
      ) : null}

      <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-2">
        <ChartCard
          testId="chart-findings"
          title="Findings by rule over time"
          description="Compliance-check findings raised each month, by rule (a finding carried to a new version counts once)."
          table={findingsTable(data)}
          filename={`findings-by-rule-${data.from}-${data.to}`}
          empty={data.findings_by_rule.length === 0 ? "No compliance findings were raised in this period." : undefined}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart accessibilityLayer={false} data={findings.rows} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
              <CartesianGrid vertical={false} stroke="var(--border)" />
              <XAxis dataKey="month" tickFormatter={shortMonth} tick={axis} tickLine={false} axisLine={false} interval="preserveStartEnd" />
              <YAxis allowDecimals={false} tick={axis} tickLine={false} axisLine={false} />
              <Tooltip labelFormatter={(m) => (typeof m === "string" ? shortMonth(m) : "")} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              {findings.rules.map((rule, i) => (
                <Bar key={rule} dataKey={rule} stackId="f" fill={SERIES[i % SERIES.length]} isAnimationActive={false} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>

        <ChartCard
          testId="chart-rounds"
          title="Rounds per approval"
          description="How many review rounds each approval of the period took."
          table={roundsTable(data)}
          filename={`rounds-per-approval-${data.from}-${data.to}`}
          empty={data.first_pass.approved === 0 ? "No asset was approved in this period." : undefined}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart accessibilityLayer={false} data={rounds} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
              <CartesianGrid vertical={false} stroke="var(--border)" />
              <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={false} label={{ value: "rounds", position: "insideBottomRight", offset: -2, fontSize: 12 }} />
              <YAxis allowDecimals={false} tick={axis} tickLine={false} axisLine={false} />
              <Tooltip />
              <Bar dataKey="assets" name="Approvals" fill="var(--primary)" radius={[4, 4, 0, 0]} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>

        <ChartCard
          testId="chart-decisions"
          title="Why rounds did not pass"
          description="Rejections and change requests by reviewer role."
          table={{
            header: ["Role", "Changes requested", "Rejected"],
            rows: decisions.map((d) => [reviewerRoleLabel(d.role), d.changes_requested, d.rejected]),
          }}
          filename={`decisions-by-role-${data.from}-${data.to}`}
          empty={data.reasons.decisions.length === 0 ? "No round was sent back or rejected in this period." : undefined}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart accessibilityLayer={false} data={decisions.map((d) => ({ ...d, label: reviewerRoleLabel(d.role) }))} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
              <CartesianGrid vertical={false} stroke="var(--border)" />
              <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={false} />
              <YAxis allowDecimals={false} tick={axis} tickLine={false} axisLine={false} />
              <Tooltip />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar dataKey="changes_requested" name="Changes requested" stackId="d" fill="var(--warning)" isAnimationActive={false} />
              <Bar dataKey="rejected" name="Rejected" stackId="d" fill="var(--destructive)" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>

        <ChartCard
          testId="chart-categories"
          title="Change requests by what they point at"
          description="The category of the annotation each change request points at."
          table={{ header: ["Category", "Change requests"], rows: categories.map((c) => [categoryLabel(c.category), c.count]) }}
          filename={`change-requests-by-category-${data.from}-${data.to}`}
          empty={categories.length === 0 ? "No change requests in this period." : undefined}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart accessibilityLayer={false} data={categories.map((c) => ({ ...c, label: categoryLabel(c.category) }))} layout="vertical" margin={{ top: 0, right: 16, left: 8, bottom: 0 }}>
              <CartesianGrid horizontal={false} stroke="var(--border)" />
              <XAxis type="number" allowDecimals={false} tick={axis} tickLine={false} axisLine={false} />
              <YAxis type="category" dataKey="label" width={130} tick={axis} tickLine={false} axisLine={false} />
              <Tooltip />
              <Bar dataKey="count" name="Change requests" fill="#7c3aed" radius={[0, 4, 4, 0]} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>

        <ChartCard
          testId="chart-workload"
          title="Reviewer workload and turnaround"
          description="Steps open now and decided in the period, by role; the table adds the median turnaround."
          table={workloadTable(data, reviewerRoleLabel)}
          filename={`reviewer-workload-${data.from}-${data.to}`}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart accessibilityLayer={false} data={workload} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
              <CartesianGrid vertical={false} stroke="var(--border)" />
              <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={false} />
              <YAxis allowDecimals={false} tick={axis} tickLine={false} axisLine={false} />
              <Tooltip />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar dataKey="completed_steps" name="Completed" fill="var(--primary)" isAnimationActive={false} />
              <Bar dataKey="open_steps" name="Open" fill="#2563eb" isAnimationActive={false} />
              <Bar dataKey="overdue_steps" name="Overdue" fill="var(--destructive)" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
        <TurnaroundCard data={data} />
      </div>

      <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-2">
        <ListCard
          testId="list-requests"
          title="Most frequent change requests"
          description="The same request raised again and again is a guideline waiting to be written."
          table={{
            header: ["Request", "Role", "Times"],
            rows: data.reasons.top_requests.map((r) => [r.text, reviewerRoleLabel(r.role), r.count]),
          }}
          filename={`frequent-change-requests-${data.from}-${data.to}`}
          empty="No change requests in this period."
        />
        <ListCard
          testId="list-rejections"
          title="Latest rejections"
          description="What the reviewers wrote when they rejected a piece."
          table={{
            header: ["Asset", "Reason", "Role", "Decided"],
            rows: data.reasons.recent_rejections.map((r) => [r.asset_title, r.comment || "—", reviewerRoleLabel(r.role), formatDate(r.decided_at)]),
          }}
          links={data.reasons.recent_rejections.map((r) => `/assets/${r.asset_id}`)}
          filename={`rejections-${data.from}-${data.to}`}
          empty="No rejections in this period."
        />
        <ListCard
          testId="list-overdue"
          title={`Overdue steps (${String(data.overdue_total)})`}
          description="Active review steps past their due date now, the most overdue first."
          table={{
            header: ["Asset", "Role", "Reviewer", "Days overdue"],
            rows: data.overdue.map((o) => [
              o.asset_title,
              reviewerRoleLabel(o.role),
              o.claimed_by ? (names.get(o.claimed_by) ?? "A reviewer") : "Unclaimed",
              o.days_overdue,
            ]),
          }}
          links={data.overdue.map((o) => `/assets/${o.asset_id}`)}
          filename="overdue-steps"
          empty="Nothing is overdue."
        />
        <ListCard
          testId="list-expiring"
          title="Expiring in the next 90 days"
          description={`${String(expiring(30))} within 30 days, ${String(expiring(60))} within 60, ${String(expiring(90))} within 90.`}
          table={expiringTable(data)}
          links={data.expiring_assets.map((a) => `/assets/${a.asset_id}`)}
          filename="expiring-assets"
          empty="No approved asset expires in the next 90 days."
        />
      </div>
    </>
  );
}

function TurnaroundCard({ data }: { data: Insights }) {
  return (
    <ChartCard
      testId="chart-turnaround"
      title="Median turnaround by role"
      description="From a step's activation to its decision, over the steps decided in the period."
      table={{
        header: ["Role", "Median turnaround (hours)", "Steps decided"],
        rows: data.workload.map((w) => [reviewerRoleLabel(w.role), w.median_turnaround_hours, w.completed_steps]),
      }}
      filename={`turnaround-by-role-${data.from}-${data.to}`}
      empty={data.workload.every((w) => w.median_turnaround_hours === null) ? "No step was decided in this period." : undefined}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          accessibilityLayer={false}
          data={data.workload.map((w) => ({ label: reviewerRoleLabel(w.role), days: w.median_turnaround_hours === null ? 0 : Math.round((w.median_turnaround_hours / 24) * 10) / 10 }))}
          layout="vertical"
          margin={{ top: 0, right: 24, left: 8, bottom: 0 }}
        >
          <CartesianGrid horizontal={false} stroke="var(--border)" />
          <XAxis type="number" tick={axis} tickLine={false} axisLine={false} allowDecimals={false} unit=" d" />
          <YAxis type="category" dataKey="label" width={90} tick={axis} tickLine={false} axisLine={false} />
          <Tooltip formatter={(v) => `${String(v)} days`} />
          <Bar dataKey="days" name="Median turnaround" fill="#0891b2" radius={[0, 4, 4, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

/** A list of rows (no chart): its table, the first column linking where `links` says, and a CSV download. */
function ListCard(props: {
  title: string;
  description: string;
  table: SeriesTable;
  links?: string[];
  filename: string;
  empty: ReactNode;
  testId: string;
}) {
  return <ChartCard {...props} empty={props.table.rows.length === 0 ? props.empty : undefined} />;
}
