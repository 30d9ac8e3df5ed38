import { CheckCircle2, CircleDashed, Lock, LockOpen, XCircle } from "lucide-react";
import { Skeleton } from "@/components/ui/skeleton";
import { formatLocalDateTime, formatRelative, formatUtc } from "@/lib/format-time";
import { cn } from "@/lib/utils";
import type { ChainVerification, SealStatus } from "./api";
import { sealComparison, sealHeadline, shortHash } from "./verification";

/**
 * The seal of the chain: its last checkpoint — the chain's head as the
 * server signed it and wrote it outside the database — and whether the
 * last verification found the chain still matching it.
 */
export function SealRow({
  seal,
  loading,
  failed,
  verification,
  running,
}: {
  seal: SealStatus | null;
  loading: boolean;
  failed: boolean;
  verification: ChainVerification | null;
  running: boolean;
}) {
  const checkpoint = seal?.checkpoint ?? null;
  const comparison = running
    ? { tone: "unknown" as const, text: checkpoint ? "Comparing the chain with the checkpoint…" : "" }
    : sealComparison(checkpoint, verification);
  const state = !seal ? "unknown" : comparison.tone === "broken" || seal.refused ? "mismatch" : checkpoint ? "sealed" : seal.sealing === "off" ? "off" : "unsealed";
  const ToneIcon = comparison.tone === "ok" ? CheckCircle2 : comparison.tone === "broken" ? XCircle : CircleDashed;
  const every = seal?.intervalSeconds ? (seal.intervalSeconds >= 60 ? "at least every minute" : `every ${seal.intervalSeconds} seconds`) : "at least every minute";

  return (
    <div data-testid="seal-panel" data-state={state} className="flex items-start gap-3 border-t px-4 py-3 sm:px-5" aria-live="polite">
      <span className="inline-flex size-10 shrink-0 items-center justify-center text-muted-foreground">
        {checkpoint ? <Lock aria-hidden="true" className="size-4" /> : <LockOpen aria-hidden="true" className="size-4" />}
      </span>
      <div className="grid min-w-0 gap-0.5">
        <h3 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Sealed checkpoint</h3>
        {loading ? (
          <Skeleton className="mt-1 h-5 w-56 max-w-full" />
        ) : failed || !seal ? (
          <p className="text-sm text-muted-foreground">The checkpoint could not be loaded.</p>
        ) : (
          <>
            <p className="font-medium" data-testid="seal-status">
              {sealHeadline(seal)}
            </p>
            {checkpoint ? (
              <p className="text-sm break-words text-muted-foreground">
                Signed{" "}
                <time dateTime={checkpoint.at} title={`${formatLocalDateTime(checkpoint.at)} (${formatUtc(checkpoint.at)})`}>
                  {formatRelative(checkpoint.at)}
                </time>
                {" · "}hash{" "}
                <code className="font-mono text-xs" title={checkpoint.hash}>
                  {shortHash(checkpoint.hash)}
                </code>
                {checkpoint.keyId ? (
                  <>
                    {" · "}key <code className="font-mono text-xs">{checkpoint.keyId}</code>
                  </>
                ) : null}
              </p>
            ) : (
              <p className="text-sm text-muted-foreground">
                {seal.sealing === "off"
                  ? "This server does not seal the audit trail, so a rewrite made directly in the database could go unnoticed."
                  : `The server signs the chain’s latest entry ${every} while it grows and keeps the checkpoint outside the database.`}
              </p>
            )}
            {comparison.text ? (
              <p
                data-testid="seal-comparison"
                className={cn(
                  "flex items-start gap-1.5 text-sm",
                  comparison.tone === "ok" && "text-green-800 dark:text-green-300",
                  comparison.tone === "broken" && "font-medium text-red-800 dark:text-red-300",
                  comparison.tone === "unknown" && "text-muted-foreground",
                )}
              >
                <ToneIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                <span>{comparison.text}</span>
              </p>
            ) : null}
            {seal.refused ? (
              <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-300">
                Sealing stopped: {seal.refused}.
              </p>
            ) : null}
            {seal.sealing === "failing" ? (
              <p className="text-sm text-amber-900 dark:text-amber-200">
                The server could not write its last checkpoints everywhere; an administrator can see why under Diagnostics.
              </p>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}
