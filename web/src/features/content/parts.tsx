import { AlertTriangle, CircleAlert, Clock, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { expiryState } from "@/lib/content-types";
import { errorMessage } from "@/lib/errors";
import { formatDate } from "@/lib/format-time";
import { cn } from "@/lib/utils";
import { splitSnippet } from "./snippet";

/** A search snippet with its matches in <mark>; the text is never parsed as HTML. */
export function Snippet({ text, className }: { text: string; className?: string }) {
  return (
    <p className={cn("text-sm leading-6 text-muted-foreground", className)} data-testid="search-snippet">
      {splitSnippet(text).map((part, i) =>
        part.match ? (
          <mark key={i} className="rounded-sm bg-amber-100 px-0.5 font-medium text-foreground dark:bg-amber-500/30">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}

/** An expiry date, flagged amber within 30 days and red once past. */
export function Expiry({ date, compact = false }: { date: string | null | undefined; compact?: boolean }) {
  const state = expiryState(date);
  if (!date) return <span className="text-muted-foreground">—</span>;
  const label = formatDate(`${date}T12:00:00`);
  if (!state) return <span className="whitespace-nowrap tabular-nums">{label}</span>;
  const Icon = state === "expired" ? AlertTriangle : Clock;
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 font-medium whitespace-nowrap tabular-nums",
        state === "expired" ? "text-red-700 dark:text-red-300" : "text-amber-700 dark:text-amber-300",
      )}
      title={state === "expired" ? "Expired: do not use" : "Expires within 30 days"}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {label}
      {compact ? null : <span className="sr-only">{state === "expired" ? " (expired)" : " (expires soon)"}</span>}
    </span>
  );
}

/** A failed load, with the server's message and a Retry button. */
export function LoadError({ error, onRetry, what }: { error: unknown; onRetry: () => void; what: string }) {
  return (
    <Alert variant="destructive">
      <CircleAlert aria-hidden="true" />
      <AlertTitle>Couldn’t load {what}</AlertTitle>
      <AlertDescription className="flex flex-wrap items-center justify-between gap-3">
        <span>{errorMessage(error, "The server did not answer. Check your connection and try again.")}</span>
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RefreshCw aria-hidden="true" />
          Retry
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** Placeholder rows while a list loads. */
export function ListSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <div className="divide-y rounded-xl border bg-card" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center gap-4 px-4 py-3">
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-2/5" />
            <Skeleton className="h-3 w-1/4" />
          </div>
          <Skeleton className="hidden h-5 w-20 rounded-full sm:block" />
          <Skeleton className="hidden h-4 w-24 md:block" />
        </div>
      ))}
    </div>
  );
}

/** "Load more" under a keyset-paged list. */
export function LoadMore({
  hasMore,
  loading,
  onMore,
  shown,
}: {
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
  shown: number;
}) {
  if (shown === 0) return null;
  return (
    <div className="flex items-center justify-between gap-3 pt-1 text-sm text-muted-foreground">
      <span aria-live="polite">
        {shown} shown{hasMore ? "" : " · end of list"}
      </span>
      {hasMore ? (
        <Button variant="outline" size="sm" onClick={onMore} disabled={loading}>
          {loading ? "Loading…" : "Load more"}
        </Button>
      ) : null}
    </div>
  );
}

/** A label/value pair in the dense cards used under 768 px. */
export function Meta({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-[11px] font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="min-w-0 truncate text-sm">{children}</dd>
    </div>
  );
}
