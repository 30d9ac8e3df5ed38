import { AlertTriangle, CalendarCheck, CalendarClock, FilePen, FileStack, Inbox } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import type { Asset } from "@/entities/assets";
import type { ContentCounts } from "@/entities/content";
import type { QueuePage, RoundItem, StepItem } from "@/entities/review-queue";
import { type AssetStatus, assetStatusLabel, assetStatusVariant, assetTypeLabel, daysUntil } from "@/lib/content-types";
import { formatDate, formatRelativeTime } from "@/lib/format-time";
import { dueOf, reviewerRoleLabel } from "@/lib/review-types";
import { cn } from "@/lib/utils";
import { EXPIRY_WINDOW_DAYS } from "./api";
import { LoadError, SectionHeader } from "./parts";

/** The state of one of the Command Center's reads, as its cards take it. */
interface Read<T> {
  data: T | undefined;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** The statuses the pipeline counts, in workflow order (archived assets are out of it). */
const PIPELINE: readonly AssetStatus[] = ["draft", "in_review", "changes_requested", "approved", "rejected", "expired", "withdrawn"];

const DOT: Record<string, string> = {
  gray: "bg-slate-400",
  blue: "bg-blue-500",
  amber: "bg-amber-500",
  green: "bg-green-600",
  red: "bg-red-500",
};

function ListSkeleton({ rows = 3, label }: { rows?: number; label: string }) {
  return (
    <ul className="grid gap-4" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className="grid gap-1.5">
          <Skeleton className="h-4 w-3/5" />
          <Skeleton className="h-3 w-2/5" />
        </li>
      ))}
    </ul>
  );
}

/** A row of a work list: the asset's title linking to it, a line under it, and what stands on the right. */
function WorkRow({ assetId, title, meta, aside, overdue }: { assetId: string; title: string; meta: ReactNode; aside: ReactNode; overdue?: boolean }) {
  return (
    <li className="flex min-w-0 flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4" data-overdue={overdue ? "true" : undefined}>
      <div className="grid min-w-0 gap-0.5">
        <Link to={`/assets/${assetId}`} className="line-clamp-2 text-sm font-medium break-words hover:underline focus-visible:underline focus-visible:outline-none">
          {title}
        </Link>
        <span className="text-xs wrap-anywhere text-muted-foreground">{meta}</span>
      </div>
      <div className="shrink-0 text-sm sm:text-right">{aside}</div>
    </li>
  );
}

/** "Overdue by 2 days" in red with an icon, "Due tomorrow" in amber, later dates quiet. */
function DueText({ dueAt, overdue }: { dueAt: string | null; overdue: boolean }) {
  const due = dueOf(dueAt, new Date(), overdue);
  if (!due) return null;
  const Icon = due.state === "overdue" ? AlertTriangle : CalendarClock;
  return (
    <span
      title={formatDate(dueAt)}
      className={cn(
        "inline-flex items-center gap-1 whitespace-nowrap",
        due.state === "overdue" ? "font-medium text-red-700 dark:text-red-300" : due.state === "later" ? "text-muted-foreground" : "font-medium text-amber-700 dark:text-amber-300",
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {due.label}
    </span>
  );
}

/**
 * The organisation's assets by status, each count opening the Content Hub
 * filtered by it. A workspace without content yet is told where to start
 * rather than shown a row of zeros.
 */
export function PipelineCard({ counts }: { counts: Read<ContentCounts> }) {
  return (
    <Card>
      <SectionHeader title="Content pipeline" description="Your organization's assets by where they stand in review." to="/content" linkLabel="Open the Content Hub" />
      <CardContent>
        {counts.isError ? (
          <LoadError what="the pipeline" error={counts.error} onRetry={() => void counts.refetch()} />
        ) : !counts.data ? (
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 xl:grid-cols-7" aria-busy="true" aria-label="Loading the pipeline">
            {PIPELINE.map((s) => (
              <Skeleton key={s} className="h-[4.5rem] rounded-lg" />
            ))}
          </div>
        ) : counts.data.assets === 0 ? (
          <EmptyState
            className="py-8"
            icon={FileStack}
            title="No content in review yet"
            action={
              <Link to="/content-hub" className={buttonVariants({ variant: "outline", size: "sm" })}>
                Go to the Content Hub
              </Link>
            }
          >
            Once your team creates assets in the Content Hub and submits them for medical, legal and regulatory review, their progress shows up here.
          </EmptyState>
        ) : (
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4 xl:grid-cols-7" aria-label="Assets by status" data-testid="pipeline-counts">
            {PIPELINE.map((s) => {
              const n = counts.data?.by_status?.[s] ?? 0;
              return (
                <li key={s} className="min-w-0">
                  <Link
                    to={`/content?status=${s}`}
                    data-status={s}
                    className="flex h-full min-w-0 flex-col gap-1 rounded-lg border bg-card p-3 transition-colors hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    <span className="flex min-w-0 items-baseline gap-1.5 text-xs leading-4 font-medium text-muted-foreground">
                      <span aria-hidden="true" className={cn("size-2 shrink-0 translate-y-px rounded-full", DOT[assetStatusVariant(s)])} />
                      <span className="min-w-0 wrap-anywhere">{assetStatusLabel(s)}</span>
                    </span>
                    <span className={cn("mt-auto text-2xl leading-8 font-semibold tabular-nums", n === 0 && "text-muted-foreground")}>{n}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** "and 3 more" under a short list whose tab holds more. */
function More({ shown, total, to, noun }: { shown: number; total: number | undefined; to: string; noun: string }) {
  if (total === undefined || total <= shown) return null;
  return (
    <p className="mt-4 text-sm text-muted-foreground">
      and {total - shown} more —{" "}
      <Link to={to} className="font-medium text-primary underline-offset-4 hover:underline">
        see all {noun}
      </Link>
    </p>
  );
}

/** A reviewer's open steps (claimed by them, or waiting for their role), by due date. */
export function MyStepsCard({ steps, role }: { steps: Read<QueuePage>; role: string | null | undefined }) {
  const kind = reviewerRoleLabel(role).toLowerCase();
  const items = (steps.data?.items ?? []) as StepItem[];
  return (
    <Card>
      <SectionHeader
        title="My open review steps"
        description={`Steps claimed by you or waiting for a ${kind} reviewer, overdue first.`}
        to="/review?tab=mine"
        linkLabel="Open my queue"
      />
      <CardContent>
        {steps.isError ? (
          <LoadError what="your review steps" error={steps.error} onRetry={() => void steps.refetch()} />
        ) : !steps.data ? (
          <ListSkeleton label="Loading your review steps" />
        ) : items.length === 0 ? (
          <EmptyState className="py-8" icon={Inbox} title="Nothing is waiting for you">
            When a round needs a {kind} review, its step shows here until it is decided.
          </EmptyState>
        ) : (
          <>
            <ul className="grid gap-4" aria-label="My open review steps" data-testid="my-steps">
              {items.map((s) => (
                <WorkRow
                  key={s.id}
                  assetId={s.asset.id}
                  title={s.asset.title}
                  overdue={s.overdue}
                  meta={
                    <>
                      {reviewerRoleLabel(s.role)} review · round {s.review.round}
                      {s.version_number ? ` · v${s.version_number}` : ""} · {s.claimed_by ? "claimed by you" : "unclaimed"}
                    </>
                  }
                  aside={<DueText dueAt={s.due_at} overdue={s.overdue} />}
                />
              ))}
            </ul>
            <More shown={items.length} total={steps.data.counts?.mine} to="/review?tab=mine" noun="your steps" />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** How far a round has got: "2 of 3 steps decided". */
function progressOf(round: RoundItem): string {
  const required = round.steps.filter((s) => s.required);
  const decided = required.filter((s) => s.status !== "waiting" && s.status !== "active" && s.status !== "skipped").length;
  return `${decided} of ${required.length} ${required.length === 1 ? "step" : "steps"} decided`;
}

/**
 * An author's work: their drafts and assets sent back with changes
 * (waiting for them), and the rounds they submitted that are in review.
 */
export function MyWorkCard({
  drafts,
  submissions,
  userId,
  readOnly,
}: {
  drafts: Read<Asset[]>;
  submissions: Read<QueuePage>;
  userId: string | undefined;
  /** The read-only demo: no way to create an asset is offered. */
  readOnly: boolean;
}) {
  const rounds = (submissions.data?.items ?? []) as RoundItem[];
  return (
    <Card>
      <SectionHeader
        title="My drafts and submissions"
        description="Your content that waits for you, and what you submitted that is in review."
        to="/review?tab=submitted"
        linkLabel="Open my submissions"
      />
      <CardContent className="grid gap-6">
        <section aria-labelledby="my-drafts-title" className="grid gap-3">
          <h3 id="my-drafts-title" className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            Waiting for you
          </h3>
          {drafts.isError ? (
            <LoadError what="your drafts" error={drafts.error} onRetry={() => void drafts.refetch()} />
          ) : !drafts.data ? (
            <ListSkeleton rows={2} label="Loading your drafts" />
          ) : drafts.data.length === 0 ? (
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
              <FilePen aria-hidden="true" className="size-4" />
              No drafts of yours.
              {readOnly ? null : (
                <Link to="/content?new=1" className="font-medium text-primary underline-offset-4 hover:underline">
                  Create an asset
                </Link>
              )}
            </p>
          ) : (
            <>
              <ul className="grid gap-4" aria-label="My drafts" data-testid="my-drafts">
                {drafts.data.map((a) => (
                  <WorkRow
                    key={a.id}
                    assetId={a.id}
                    title={a.title}
                    meta={
                      <>
                        {a.job_code} · {assetTypeLabel(a.type)} · v{a.current_version_number} · updated {formatRelativeTime(a.updated_at)}
                      </>
                    }
                    aside={<Badge variant={assetStatusVariant(a.status)}>{assetStatusLabel(a.status)}</Badge>}
                  />
                ))}
              </ul>
              {userId ? (
                <Link to={`/content?owner=${userId}`} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
                  All my assets
                </Link>
              ) : null}
            </>
          )}
        </section>

        <section aria-labelledby="my-submissions-title" className="grid gap-3">
          <h3 id="my-submissions-title" className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            In review
          </h3>
          {submissions.isError ? (
            <LoadError what="your submissions" error={submissions.error} onRetry={() => void submissions.refetch()} />
          ) : !submissions.data ? (
            <ListSkeleton rows={2} label="Loading your submissions" />
          ) : rounds.length === 0 ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Inbox aria-hidden="true" className="size-4" />
              Nothing you submitted is in review.
            </p>
          ) : (
            <>
              <ul className="grid gap-4" aria-label="My submissions in review" data-testid="my-submissions">
                {rounds.map((r) => (
                  <WorkRow
                    key={r.id}
                    assetId={r.asset.id}
                    title={r.asset.title}
                    overdue={r.overdue}
                    meta={
                      <>
                        Round {r.round}
                        {r.version_number ? ` · v${r.version_number}` : ""} · {progressOf(r)}
                      </>
                    }
                    aside={<DueText dueAt={r.due_at} overdue={r.overdue} />}
                  />
                ))}
              </ul>
              <More shown={rounds.length} total={submissions.data.counts?.submitted} to="/review?tab=submitted&status=open" noun="your rounds in review" />
            </>
          )}
        </section>
      </CardContent>
    </Card>
  );
}

/** "in 12 days", "tomorrow", "today", "3 days ago" for an expiry date. */
function expiresIn(date: string | null): string {
  const days = daysUntil(date);
  if (days === null) return "";
  if (days === 0) return "today";
  if (days === 1) return "tomorrow";
  if (days < 0) return days === -1 ? "yesterday" : `${-days} days ago`;
  return `in ${days} days`;
}

/** Approved assets whose approval ends within the window, soonest first: to renew or retire. */
export function ExpiringCard({ expiring }: { expiring: Read<Asset[]> }) {
  return (
    <Card>
      <SectionHeader
        title="Expiring soon"
        description={`Approved assets whose approval ends within ${EXPIRY_WINDOW_DAYS} days.`}
        to="/content?status=approved&sort=expiry"
        linkLabel={
          <>
            View all<span className="sr-only"> approved assets</span>
          </>
        }
      />
      <CardContent>
        {expiring.isError ? (
          <LoadError what="expiring assets" error={expiring.error} onRetry={() => void expiring.refetch()} />
        ) : !expiring.data ? (
          <ListSkeleton rows={2} label="Loading expiring assets" />
        ) : expiring.data.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <CalendarCheck aria-hidden="true" className="size-4 shrink-0" />
            No approval ends in the next {EXPIRY_WINDOW_DAYS} days.
          </p>
        ) : (
          <ul className="grid gap-4" aria-label="Assets expiring soon" data-testid="expiring-assets">
            {expiring.data.map((a) => {
              const past = (daysUntil(a.expires_at) ?? 0) < 0;
              return (
                <li key={a.id} className="grid min-w-0 gap-0.5">
                  <Link to={`/assets/${a.id}`} className="line-clamp-2 text-sm font-medium break-words hover:underline focus-visible:underline focus-visible:outline-none">
                    {a.title}
                  </Link>
                  <span className="text-xs wrap-anywhere text-muted-foreground">
                    {a.job_code} ·{" "}
                    <span className={cn("font-medium", past ? "text-red-700 dark:text-red-300" : "text-amber-700 dark:text-amber-300")}>
                      {past ? "expired" : "expires"} {expiresIn(a.expires_at)}
                    </span>{" "}
                    <time dateTime={a.expires_at ?? undefined}>({formatDate(a.expires_at ? `${a.expires_at}T12:00:00` : null)})</time>
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
