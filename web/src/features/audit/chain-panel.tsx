import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ShieldAlert, ShieldCheck, ShieldQuestion } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/lib/auth";
import { errorMessage } from "@/lib/errors";
import { cn } from "@/lib/utils";
import { type AuditMember, fetchLastVerification, fetchSealStatus, verifyChain } from "./api";
import { actorLabel } from "./actors";
import { formatLocalDateTime, formatRelative, formatUtc } from "@/lib/format-time";
import { SealRow } from "./seal-row";
import { LAST_VERIFICATION_KEY, SEAL_STATUS_KEY, verificationHeadline } from "./verification";

/**
 * The chain verification panel: the last recorded result (from the trail
 * itself) and a button that recomputes the organisation's chain on the
 * server, against its last checkpoint too; below, that checkpoint. A run is
 * recorded in the trail, so the list refreshes after it.
 */
export function ChainPanel({ members }: { members: Map<string, AuditMember> }) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const last = useQuery({ queryKey: LAST_VERIFICATION_KEY, queryFn: fetchLastVerification, staleTime: 30_000 });
  // The server seals a grown chain at least every minute: look again as often.
  const seal = useQuery({ queryKey: SEAL_STATUS_KEY, queryFn: fetchSealStatus, staleTime: 30_000, refetchInterval: 60_000 });
  const run = useMutation({
    mutationFn: verifyChain,
    onSuccess: (result) => {
      queryClient.setQueryData(LAST_VERIFICATION_KEY, { ...result, actorId: user?.id ?? null });
      // The run appended an entry (except in the demo): show it.
      void queryClient.invalidateQueries({ queryKey: ["audit", "page"] });
      void queryClient.invalidateQueries({ queryKey: ["audit", "count"] });
      void queryClient.invalidateQueries({ queryKey: SEAL_STATUS_KEY });
    },
  });

  const result = last.data ?? null;
  const tone = run.isPending ? "running" : result === null ? "unknown" : result.ok ? "ok" : "broken";
  const Icon = tone === "broken" ? ShieldAlert : tone === "ok" ? ShieldCheck : ShieldQuestion;

  return (
    <Card
      role="region"
      aria-labelledby="chain-title"
      data-testid="chain-panel"
      data-state={tone}
      className={cn(
        tone === "ok" && "border-green-200 dark:border-green-900",
        tone === "broken" && "border-red-300 bg-red-50/60 dark:border-red-900 dark:bg-red-950/30",
      )}
    >
      <div className="flex flex-col gap-4 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
        <div className="flex min-w-0 items-start gap-3">
          <span
            className={cn(
              "inline-flex size-10 shrink-0 items-center justify-center rounded-full",
              tone === "ok" && "bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300",
              tone === "broken" && "bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300",
              (tone === "unknown" || tone === "running") && "bg-muted text-muted-foreground",
            )}
          >
            <Icon aria-hidden="true" className="size-5" />
          </span>
          <div className="grid min-w-0 gap-0.5" aria-live="polite">
            <h2 id="chain-title" className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
              Chain verification
            </h2>
            {last.isPending ? (
              <Skeleton className="mt-1 h-5 w-64 max-w-full" />
            ) : run.isPending ? (
              <p className="font-semibold">Verifying every entry…</p>
            ) : result ? (
              <>
                <p
                  className={cn("font-semibold", result.ok ? "text-green-800 dark:text-green-300" : "text-red-800 dark:text-red-300")}
                  data-testid="chain-status"
                  role={result.ok ? undefined : "alert"}
                >
                  {verificationHeadline(result)}
                </p>
                <p className="text-sm text-muted-foreground">
                  {result.reason ? `${result.reason} · ` : null}
                  Verified{" "}
                  <time dateTime={result.verifiedAt} title={`${formatLocalDateTime(result.verifiedAt)} (${formatUtc(result.verifiedAt)})`}>
                    {formatRelative(result.verifiedAt)}
                  </time>
                  {result.actorId ? ` by ${actorLabel({ actor_id: result.actorId, actor_email: "" }, members).name}` : null}
                  {result.headId !== null ? ` · up to entry #${result.headId}` : null}
                </p>
              </>
            ) : (
              <>
                <p className="font-semibold" data-testid="chain-status">
                  Not verified yet
                </p>
                <p className="text-sm text-muted-foreground">Recompute every entry’s hash to prove nothing was changed or removed.</p>
              </>
            )}
            {run.isError ? (
              <p role="alert" className="text-sm font-medium text-destructive">
                {errorMessage(run.error, "The verification could not be run. Please try again.")}
              </p>
            ) : null}
            {last.isError && !run.isError ? (
              <p className="text-sm text-muted-foreground">The last result could not be loaded; you can still verify now.</p>
            ) : null}
          </div>
        </div>
        <Button
          variant={tone === "broken" ? "outline" : "default"}
          className="shrink-0 self-start sm:self-center"
          onClick={() => {
            run.mutate();
          }}
          disabled={run.isPending}
        >
          {run.isPending ? <Spinner size="sm" label={null} className="text-current" /> : <ShieldCheck aria-hidden="true" />}
          {run.isPending ? "Verifying…" : "Verify chain"}
        </Button>
      </div>
      <SealRow seal={seal.data ?? null} loading={seal.isPending} failed={seal.isError} verification={result} running={run.isPending} />
    </Card>
  );
}
