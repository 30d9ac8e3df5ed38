import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CircleCheck, LoaderCircle, LocateFixed, RotateCcw, ShieldCheck, ShieldOff } from "lucide-react";
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { FormField } from "@/components/ui/form";
import { Textarea } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import {
  countLabel,
  dismissFinding,
  groupFindings,
  invalidateAfterCompliance,
  reopenFinding,
  severityLabel,
  severityVariant,
  type VersionFinding,
  type VersionFindings,
} from "@/entities/compliance";
import { type DismissInput, dismissSchema } from "@/entities/compliance/schema";
import { formatDateTime } from "@/lib/format-time";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { cn } from "@/lib/utils";

/**
 * The "Compliance check" panel of a version: its open findings grouped by
 * severity (critical first, with counts), each with its rule, quote,
 * message and guidance and a way to show it in the document; dismissing
 * one with a reason; the dismissed ones with who, when and why (and
 * reopening them); "Checking…" while a large file is still being checked.
 */
export function FindingsPanel({
  assetId,
  versionNumber,
  isCurrent,
  data,
  isPending,
  isError,
  onRetry,
  selected,
  mayDismiss,
  mayReopen,
  onShow,
  onDismiss,
}: {
  assetId: string;
  versionNumber: number;
  isCurrent: boolean;
  data: VersionFindings | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
  selected: string | null;
  mayDismiss: boolean;
  mayReopen: boolean;
  onShow: (finding: VersionFinding) => void;
  onDismiss: (finding: VersionFinding) => void;
}) {
  const queryClient = useQueryClient();
  const reopen = useMutation({
    mutationFn: (f: VersionFinding) => reopenFinding(f.id),
    onSuccess: () => toast.success("Finding reopened"),
    onError: (error) => {
      toastServerError("The finding could not be reopened.", describeServerError(error, "The finding could not be reopened."));
    },
    onSettled: () => invalidateAfterCompliance(queryClient, "reopen", assetId),
  });

  if (isPending) return <Skeleton className="h-16 w-full" aria-label="Loading the compliance check" />;
  if (isError || !data) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
        The compliance check could not be loaded.
        <Button variant="outline" size="sm" onClick={onRetry}>
          Retry
        </Button>
      </div>
    );
  }
  const groups = groupFindings(data.findings);
  const open = groups.open.reduce((n, g) => n + g.findings.length, 0);

  return (
    <section aria-labelledby="findings-title" className="grid gap-3" data-testid="findings-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="findings-title" className="flex items-center gap-2 text-base font-semibold">
          <ShieldCheck aria-hidden="true" className="size-4 text-primary" /> Compliance check
        </h2>
        {data.pending ? (
          <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" role="status" data-testid="findings-pending">
            <LoaderCircle aria-hidden="true" className="size-3.5 animate-spin" /> Checking…
          </span>
        ) : open > 0 ? (
          <span className="text-xs text-muted-foreground" data-testid="findings-count">
            {countLabel(groups.open)}
          </span>
        ) : null}
      </div>
      {data.pending ? (
        <p className="text-sm text-muted-foreground">v{versionNumber} is being checked against your rules; findings appear here in a moment.</p>
      ) : open === 0 ? (
        <p className="flex items-center gap-2 rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900 dark:border-green-900 dark:bg-green-950/40 dark:text-green-100">
          <CircleCheck aria-hidden="true" className="size-4 shrink-0" />
          {groups.dismissed.length > 0 ? "No open findings: the rest were dismissed." : `No findings on v${versionNumber}.`}
        </p>
      ) : (
        groups.open
          .filter((g) => g.findings.length > 0)
          .map((g) => (
            <div key={g.severity} className="grid gap-2" data-testid={`findings-${g.severity}`}>
              <h3 className="flex items-center gap-2 text-sm font-medium">
                <Badge variant={severityVariant(g.severity)}>{severityLabel(g.severity)}</Badge>
                <span className="text-muted-foreground tabular-nums">{g.findings.length}</span>
                {g.severity === "critical" ? <span className="text-xs font-normal text-muted-foreground">Block submission until fixed or dismissed</span> : null}
              </h3>
              <ul className="grid gap-2">
                {g.findings.map((f) => (
                  <FindingItem
                    key={f.id}
                    finding={f}
                    selected={f.id === selected}
                    onShow={f.target ? onShow : null}
                    onDismiss={mayDismiss && isCurrent ? onDismiss : null}
                  />
                ))}
              </ul>
            </div>
          ))
      )}
      {groups.dismissed.length > 0 ? (
        <details className="group rounded-lg border px-3 py-2" data-testid="findings-dismissed" open={mayReopen}>
          <summary className="cursor-pointer text-sm font-medium">
            Dismissed <span className="text-muted-foreground tabular-nums">{groups.dismissed.length}</span>
          </summary>
          <ul className="mt-2 grid gap-2">
            {groups.dismissed.map((f) => (
              <li key={f.id} className="grid gap-1 border-t pt-2 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant="gray">{severityLabel(f.severity)}</Badge>
                  <code className="font-mono text-xs">{f.rule}</code>
                  <q className="min-w-0 wrap-anywhere">{f.quote}</q>
                </div>
                <p className="text-xs leading-5 text-muted-foreground wrap-anywhere">
                  Dismissed by {f.dismissed_by_name ?? "someone"} on {formatDateTime(f.dismissed_at)}: “{f.dismiss_reason}”
                </p>
                {mayReopen && isCurrent ? (
                  <div>
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={reopen.isPending}
                      onClick={() => {
                        reopen.mutate(f);
                      }}
                    >
                      <RotateCcw aria-hidden="true" /> Reopen
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {groups.fixed.length > 0 ? (
        <p className="text-xs text-muted-foreground">
          {groups.fixed.length === 1 ? "1 finding" : `${groups.fixed.length} findings`} of an earlier version fixed here.
        </p>
      ) : null}
    </section>
  );
}

function FindingItem({
  finding: f,
  selected,
  onShow,
  onDismiss,
}: {
  finding: VersionFinding;
  selected: boolean;
  onShow: ((f: VersionFinding) => void) | null;
  onDismiss: ((f: VersionFinding) => void) | null;
}) {
  const ref = useRef<HTMLLIElement>(null);
  // A marker clicked in the document brings its finding into view here.
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [selected]);
  return (
    <li
      ref={ref}
      data-testid="finding"
      data-rule={f.rule}
      className={cn("grid gap-1.5 rounded-lg border px-3 py-2 text-sm", selected && "border-primary ring-2 ring-primary/30")}
    >
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{f.rule}</code>
        <q className="min-w-0 font-medium wrap-anywhere">{f.quote}</q>
      </div>
      <p className="leading-5 wrap-anywhere">{f.message}</p>
      {f.guidance ? <p className="text-xs leading-5 text-muted-foreground wrap-anywhere">{f.guidance}</p> : null}
      {onShow || onDismiss ? (
        <div className="flex flex-wrap gap-1">
          {onShow ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                onShow(f);
              }}
            >
              <LocateFixed aria-hidden="true" /> Show in document
            </Button>
          ) : null}
          {onDismiss ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                onDismiss(f);
              }}
            >
              <ShieldOff aria-hidden="true" /> Dismiss
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** Dismissing a finding: the reason is required, audited and part of the review record. */
export function DismissFindingDialog({ assetId, finding, onClose }: { assetId: string; finding: VersionFinding; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<DismissInput, unknown, ReturnType<typeof dismissSchema.parse>>({ resolver: zodResolver(dismissSchema), defaultValues: { reason: "" } });
  return (
    <EntityFormDialog
      form={form}
      title="Dismiss this finding"
      description={
        <>
          <code className="font-mono text-xs">{finding.rule}</code> on “{finding.quote}”. Reviewers see your reason, and it is part of the review record.
        </>
      }
      submitLabel="Dismiss finding"
      pendingLabel="Dismissing…"
      errorFallback="The finding could not be dismissed."
      onClose={onClose}
      className="max-w-lg"
      onSubmit={async ({ reason }) => {
        try {
          await dismissFinding(finding.id, reason);
        } finally {
          await invalidateAfterCompliance(queryClient, "dismiss", assetId);
        }
        toast.success("Finding dismissed");
        onClose();
      }}
    >
      <FormField name="reason" label="Reason" hint="Why it does not apply here, e.g. “Substantiated by reference 2, cited on page 1.”">
        <Textarea {...form.register("reason")} rows={4} />
      </FormField>
    </EntityFormDialog>
  );
}
