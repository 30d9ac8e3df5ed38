import { AlertTriangle, CalendarClock, ChevronRight } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { QueueItem, QueueStep } from "@/entities/review-queue";
import { assetTypeLabel } from "@/lib/content-types";
import { formatDate, formatDateTime, formatRelativeTime } from "@/lib/format-time";
import { byStepOrder, dueOf, reviewerRoleLabel, reviewStatusLabel, reviewStatusVariant, stepStatusLabel, stepStatusVariant } from "@/lib/review-types";
import { cn } from "@/lib/utils";

/** What the rows need beside the items: who is who, product names, the reader, and the time they read at. */
export interface RowContext {
  me: string | undefined;
  names: ReadonlyMap<string, string>;
  products: ReadonlyMap<string, string>;
  now: Date;
}

function personName(id: string | null | undefined, ctx: RowContext): string {
  if (!id) return "—";
  if (id === ctx.me) return "you";
  return ctx.names.get(id) ?? "a former member";
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The steps a row lists: a step item its own step; a round every step. */
function stepsOf(item: QueueItem): QueueStep[] {
  return item.kind === "step" ? [item] : byStepOrder(item.steps);
}

function roundOf(item: QueueItem) {
  return item.kind === "step" ? item.review : item;
}

/** "FB-US-0001 · Email · Cardiomax". */
function assetLine(item: QueueItem, ctx: RowContext): string {
  const parts = [item.asset.job_code, assetTypeLabel(item.asset.type)];
  const product = item.asset.product_id ? ctx.products.get(item.asset.product_id) : undefined;
  if (product) parts.push(product);
  return parts.join(" · ");
}

/** Who holds a step, or decided it: "Claimed by you", "Unclaimed", "by Lee Legal". */
function stepHolder(step: QueueStep, ctx: RowContext): string | null {
  if (step.status === "active") return step.claimed_by ? `Claimed by ${personName(step.claimed_by, ctx)}` : "Unclaimed";
  if (step.decided_by) return `by ${personName(step.decided_by, ctx)}`;
  return null;
}

/** Each step of the row: its review (Medical, Legal…), its state and who holds or decided it. */
function StepLines({ item, ctx }: { item: QueueItem; ctx: RowContext }) {
  return (
    <ul className="grid gap-1" aria-label="Review steps">
      {stepsOf(item).map((s) => {
        const holder = stepHolder(s, ctx);
        return (
          <li key={s.id} className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 text-sm" data-step-role={s.role} data-step-status={s.status}>
            <Badge variant={stepStatusVariant(s.status)}>
              {reviewerRoleLabel(s.role)}: {stepStatusLabel(s.status)}
            </Badge>
            {holder ? (
              <span className={cn("min-w-0 text-xs wrap-anywhere", s.status === "active" && !s.claimed_by ? "text-muted-foreground italic" : "text-muted-foreground")}>
                {holder}
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** "Round 2 · v3", and a closed round's outcome. */
function RoundLine({ item }: { item: QueueItem }) {
  const round = roundOf(item);
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <span className="whitespace-nowrap tabular-nums">
        Round {round.round}
        {item.version_number ? <span className="text-muted-foreground"> · v{item.version_number}</span> : null}
      </span>
      {round.status !== "open" ? <Badge variant={reviewStatusVariant(round.status)}>{reviewStatusLabel(round.status)}</Badge> : null}
    </span>
  );
}

/** The due date, marked when overdue (icon and words, not colour alone) or close; a closed round its closing date. */
function DueLine({ item, ctx }: { item: QueueItem; ctx: RowContext }) {
  const round = roundOf(item);
  const due = dueOf(item.due_at, ctx.now, item.overdue);
  if (!due) {
    return round.closed_at ? (
      <span className="text-sm text-muted-foreground">
        Closed <time dateTime={round.closed_at}>{formatDate(round.closed_at)}</time>
      </span>
    ) : (
      <span className="text-sm text-muted-foreground">—</span>
    );
  }
  const tone =
    due.state === "overdue"
      ? "font-medium text-red-700 dark:text-red-300"
      : due.state === "later"
        ? "text-muted-foreground"
        : "font-medium text-amber-700 dark:text-amber-300";
  const Icon = due.state === "overdue" ? AlertTriangle : CalendarClock;
  return (
    <span className="grid gap-0.5 text-sm" data-due={due.state}>
      <span className={cn("inline-flex items-center gap-1", tone)}>
        <Icon aria-hidden="true" className="size-3.5 shrink-0" />
        {due.label}
      </span>
      <time dateTime={item.due_at ?? undefined} title={formatDateTime(item.due_at)} className="text-xs text-muted-foreground tabular-nums">
        {formatDate(item.due_at)}
      </time>
    </span>
  );
}

/** Who submitted the round ("you" for the reader) and how long ago. */
function submittedText(item: QueueItem, ctx: RowContext): { who: string; when: string } {
  const round = roundOf(item);
  return { who: personName(round.submitted_by, ctx), when: formatRelativeTime(round.submitted_at, ctx.now.getTime()) };
}

/** The queue as a table (wide screens): one row per step or round, the title linking to the asset. */
export function QueueTable({ items, ctx, label }: { items: QueueItem[]; ctx: RowContext; label: string }) {
  const navigate = useNavigate();
  return (
    <div className="overflow-hidden rounded-xl border bg-card">
      <Table className="table-fixed" aria-label={label}>
        <colgroup>
          <col />
          <col className="w-36" />
          <col className="w-76" />
          <col className="w-44" />
          <col className="w-32" />
        </colgroup>
        <TableHeader>
          <TableRow>
            <TableHead>Asset</TableHead>
            <TableHead>Round</TableHead>
            <TableHead>Steps</TableHead>
            <TableHead>Due</TableHead>
            <TableHead>Submitted</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {items.map((item) => {
            const sub = submittedText(item, ctx);
            const round = roundOf(item);
            return (
              <TableRow
                key={item.id}
                data-queue-item={item.id}
                data-overdue={item.overdue ? "true" : undefined}
                className={cn("cursor-pointer align-top", item.overdue && "bg-red-50/50 hover:bg-red-50 dark:bg-red-950/20 dark:hover:bg-red-950/30")}
                onClick={(e) => {
                  if ((e.target as HTMLElement).closest("a")) return;
                  void navigate(`/assets/${item.asset.id}`);
                }}
              >
                <TableCell className="min-w-0 align-top">
                  <Link
                    to={`/assets/${item.asset.id}`}
                    title={item.asset.title}
                    className="line-clamp-2 font-medium break-words hover:underline focus-visible:underline focus-visible:outline-none"
                  >
                    {item.asset.title}
                  </Link>
                  <span className="block truncate text-xs text-muted-foreground" title={assetLine(item, ctx)}>
                    {assetLine(item, ctx)}
                  </span>
                </TableCell>
                <TableCell className="align-top">
                  <RoundLine item={item} />
                </TableCell>
                <TableCell className="align-top">
                  <StepLines item={item} ctx={ctx} />
                </TableCell>
                <TableCell className="align-top">
                  <DueLine item={item} ctx={ctx} />
                </TableCell>
                <TableCell className="min-w-0 align-top text-sm">
                  <span className="block truncate" title={capitalised(sub.who)}>
                    {capitalised(sub.who)}
                  </span>
                  <time dateTime={round.submitted_at} title={formatDateTime(round.submitted_at)} className="text-xs text-muted-foreground">
                    {sub.when}
                  </time>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

/** The queue as cards (phones and narrow windows): each card opens the asset. */
export function QueueCards({ items, ctx, label }: { items: QueueItem[]; ctx: RowContext; label: string }) {
  return (
    <ul className="grid grid-cols-1 gap-2" aria-label={label}>
      {items.map((item) => {
        const sub = submittedText(item, ctx);
        return (
          <li key={item.id} data-queue-item={item.id} data-overdue={item.overdue ? "true" : undefined}>
            <div
              className={cn(
                "relative grid gap-3 rounded-xl border bg-card p-4 transition-colors focus-within:ring-2 focus-within:ring-ring hover:bg-accent/50",
                item.overdue && "border-red-200 dark:border-red-900",
              )}
            >
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <Link to={`/assets/${item.asset.id}`} className="line-clamp-2 font-medium break-words focus-visible:outline-none after:absolute after:inset-0 after:rounded-xl">
                    {item.asset.title}
                  </Link>
                  <p className="text-xs wrap-anywhere text-muted-foreground">{assetLine(item, ctx)}</p>
                </div>
                <ChevronRight aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
              </div>
              <RoundLine item={item} />
              <StepLines item={item} ctx={ctx} />
              <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-2">
                <DueLine item={item} ctx={ctx} />
                <p className="min-w-0 text-xs wrap-anywhere text-muted-foreground">
                  Submitted by {sub.who} {sub.when}
                </p>
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** Placeholder rows while a tab loads. */
export function QueueSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <div className="divide-y rounded-xl border bg-card" aria-busy="true" aria-label="Loading the review queue">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="grid gap-3 px-4 py-4 lg:grid-cols-[1fr_9rem_19rem_11rem_8rem] lg:items-start lg:gap-6">
          <div className="grid gap-2">
            <Skeleton className="h-4 w-3/5" />
            <Skeleton className="h-3 w-2/5" />
          </div>
          <Skeleton className="h-4 w-20" />
          <div className="grid gap-1.5">
            <Skeleton className="h-5 w-40 rounded-full" />
            <Skeleton className="h-5 w-36 rounded-full" />
          </div>
          <Skeleton className="h-4 w-24" />
          <Skeleton className="hidden h-4 w-28 lg:block" />
        </div>
      ))}
    </div>
  );
}
