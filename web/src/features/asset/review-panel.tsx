import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  AlertTriangle,
  Ban,
  CalendarClock,
  CheckCircle2,
  ChevronRight,
  Circle,
  CircleCheck,
  CircleX,
  Clock,
  FileBraces,
  FileDown,
  FileSignature,
  Hand,
  History,
  LocateFixed,
  ListChecks,
  PenLine,
  Send,
  ShieldCheck,
  ShieldX,
  Undo2,
  UserPlus,
} from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import type { Asset } from "@/entities/assets";
import type { Person } from "@/entities/members";
import {
  assetChangeRequestsQuery,
  assetRoundsQuery,
  type ChangeRequest,
  claimStep,
  confirmChange,
  invalidateAfterReview,
  reviewGateQuery,
  type Round,
  type RoundStep,
  type SignatureManifestation,
  type SignatureVerification,
  verifySignature,
} from "@/entities/reviews";
import { type ExportFormat, fetchExport, form2253Path, invalidateAfterExport, reviewRecordPath } from "@/entities/records";
import type { VersionSummary } from "@/entities/versions";
import { saveBlob } from "@/lib/download";
import { formatDate, formatDateTime, formatUtc } from "@/lib/format-time";
import {
  changeRequestStatusLabel,
  changeRequestStatusVariant,
  meaningLabel,
  reviewerRoleLabel,
  reviewStatusLabel,
  reviewStatusVariant,
  stepStatusLabel,
  stepStatusVariant,
} from "@/lib/review-types";
import { isAdminRole } from "@/lib/roles";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { cn } from "@/lib/utils";
import {
  answersForAsset,
  anyDecided,
  blockingChanges,
  canConfirm,
  canMarkDone,
  changeThread,
  checklist,
  exportsRecords,
  hasForm2253,
  isOverdue,
  stepActions,
  submittable,
  type Viewer,
} from "./review-rules";
import { ExpiryValue } from "./side-panel";

/** A dialog of the review workflow, opened from the review card and shown by the page. */
export type ReviewDialogState =
  | { kind: "submit" }
  | { kind: "withdraw-round"; round: Round }
  | { kind: "sign"; step: RoundStep; round: Round; blocking: number }
  | { kind: "assign"; step: RoundStep }
  | { kind: "mark-done"; change: ChangeRequest }
  | { kind: "withdraw-asset" }
  | { kind: "expiry" };

/** A member's name, else e-mail; `fallback` when unknown (a member who left). */
function nameOf(people: Person[], id: string | null | undefined, fallback = "A former member"): string {
  if (!id) return fallback;
  const p = people.find((x) => x.id === id);
  if (!p) return fallback;
  return p.full_name.trim() || p.email || fallback;
}

function versionNumber(versions: VersionSummary[], id: string): string {
  const v = versions.find((x) => x.id === id);
  return v ? `v${v.number}` : "an earlier version";
}

function authorOf(versions: VersionSummary[], round: Round | undefined): string | null {
  if (!round) return null;
  return versions.find((v) => v.id === round.version_id)?.created_by ?? null;
}

/** The rounds shown as the current one (the newest unless it was withdrawn) and the history. */
function splitRounds(rounds: Round[]): { current: Round | undefined; history: Round[] } {
  const [latest, ...rest] = rounds;
  if (!latest || latest.status === "withdrawn") return { current: undefined, history: rounds };
  return { current: latest, history: rest };
}

/**
 * One line under the asset's title saying where its review stands, with a
 * link to the review card (below the document on a phone).
 */
export function ReviewStrip({ asset }: { asset: Asset }) {
  const rounds = useQuery(assetRoundsQuery(asset.id));
  const current = splitRounds(rounds.data ?? []).current;
  if (!current) return null;
  const decided = current.steps.filter((s) => s.signature_id !== null).length;
  const required = current.steps.filter((s) => s.required).length;
  const overdue = current.steps.some((s) => isOverdue(s));
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground" data-testid="review-strip">
      <span>
        Round {current.round}: {reviewStatusLabel(current.status).toLowerCase()}
        {current.status === "open" ? `, ${decided} of ${current.steps.length} steps decided` : ""}
        {current.status === "open" && required < current.steps.length ? ` (${required} required)` : ""}
      </span>
      {overdue ? (
        <Badge variant="red">
          <AlertTriangle aria-hidden="true" className="size-3" /> Overdue
        </Badge>
      ) : null}
      {/* Below the document on a phone; beside it on a wide screen. */}
      <a href="#review" className="inline-flex items-center gap-0.5 font-medium text-primary underline-offset-4 hover:underline lg:hidden">
        Review and signatures <ChevronRight aria-hidden="true" className="size-3.5" />
      </a>
    </p>
  );
}

/**
 * The review card of an asset's page: where the review stands and what
 * the viewer may do about it (submit with the gate's unmet conditions
 * listed first, withdraw the round, claim, assign, sign, mark changes
 * done, confirm them, change the expiry, withdraw the asset); the steps of
 * the current round with their decisions and signature manifestations;
 * the change-request checklist; and the earlier rounds.
 */
export function ReviewCard({
  asset,
  versions,
  people,
  viewer,
  onOpen,
  onShowThread,
}: {
  asset: Asset;
  versions: VersionSummary[];
  people: Person[];
  viewer: Viewer;
  onOpen: (dialog: ReviewDialogState) => void;
  /** Shows the comment thread a change request points at, in the document. */
  onShowThread?: (threadId: string, annotationId: string | null) => void;
}) {
  const rounds = useQuery(assetRoundsQuery(asset.id));
  const changes = useQuery(assetChangeRequestsQuery(asset.id));
  const headingId = useId();

  if (rounds.isPending || changes.isPending) {
    return (
      <div className="grid gap-3" aria-busy="true" aria-label="Loading the review">
        <Skeleton className="h-6 w-32" />
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (rounds.isError || changes.isError) {
    return (
      <section aria-labelledby={headingId} className="grid gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          Review
        </h2>
        <p role="alert" className="text-sm text-destructive">
          The review could not be loaded.{" "}
          <Button
            variant="link"
            className="h-auto p-0"
            onClick={() => {
              void rounds.refetch();
              void changes.refetch();
            }}
          >
            Retry
          </Button>
        </p>
      </section>
    );
  }

  const { current, history } = splitRounds(rounds.data);
  const open = current?.status === "open" ? current : undefined;
  const authorId = authorOf(versions, current);
  const items = checklist(changes.data, open);

  return (
    <section aria-labelledby={headingId} className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold">
          <FileSignature aria-hidden="true" className="size-4 text-muted-foreground" /> Review
        </h2>
        {current ? (
          <Badge variant={reviewStatusVariant(current.status)} data-testid="round-status">
            Round {current.round} · {reviewStatusLabel(current.status)}
          </Badge>
        ) : null}
      </div>

      <StatusSummary asset={asset} current={current} versions={versions} people={people} viewer={viewer} onOpen={onOpen} />

      {/* Between rounds the checklist is the author's to-do: it comes first, then the gate and the submission. */}
      {items.length > 0 && !open ? (
        <ChangeChecklist asset={asset} items={items} open={open} people={people} viewer={viewer} authorId={authorId} onOpen={onOpen} onShowThread={onShowThread} />
      ) : null}

      {submittable(asset.status) && answersForAsset(viewer, asset) ? <SubmitBlock asset={asset} onOpen={onOpen} /> : null}

      {current ? (
        <RoundSteps
          round={current}
          versions={versions}
          people={people}
          viewer={viewer}
          authorId={authorId}
          changes={changes.data}
          assetId={asset.id}
          onOpen={onOpen}
        />
      ) : null}

      {items.length > 0 && open ? (
        <ChangeChecklist asset={asset} items={items} open={open} people={people} viewer={viewer} authorId={authorId} onOpen={onOpen} onShowThread={onShowThread} />
      ) : null}

      {current && exportsRecords(viewer) ? (
        <section aria-labelledby={`${headingId}-record`} className="grid gap-2 border-t pt-3">
          <h3 id={`${headingId}-record`} className="text-xs font-semibold tracking-wide text-muted-foreground">
            <span className="uppercase">Record</span> · round {current.round}
          </h3>
          <p className="text-xs leading-5 text-muted-foreground">The version as reviewed, its annotations, the signed decisions and the round’s audit entries, for an inspector.</p>
          <ExportButtons target={{ kind: "record", round: current, jobCode: asset.job_code }} />
        </section>
      ) : null}

      {history.length > 0 ? (
        <RoundHistory rounds={history} versions={versions} people={people} changes={changes.data} jobCode={exportsRecords(viewer) ? asset.job_code : null} />
      ) : null}
    </section>
  );
}

/** Where the review stands, in words, with the actions on the round and the asset. */
function StatusSummary({
  asset,
  current,
  versions,
  people,
  viewer,
  onOpen,
}: {
  asset: Asset;
  current: Round | undefined;
  versions: VersionSummary[];
  people: Person[];
  viewer: Viewer;
  onOpen: (dialog: ReviewDialogState) => void;
}) {
  const answers = answersForAsset(viewer, asset);
  const admin = isAdminRole(viewer.role) && !viewer.readOnly;

  if (submittable(asset.status)) {
    return (
      <p className="text-sm leading-6">
        {asset.status === "changes_requested" && current
          ? `Round ${current.round} asked for changes on ${versionNumber(versions, current.version_id)}. Add a version with the changes, mark each change request done, then resubmit: the reviewers confirm them on the new version.`
          : "This asset has not been submitted for review."}
      </p>
    );
  }

  if (asset.status === "in_review" && current?.status === "open") {
    const mayWithdraw = !viewer.readOnly && (answers || current.submitted_by === viewer.userId) && !anyDecided(current);
    return (
      <div className="grid gap-3">
        <div className="grid gap-1">
          <p className="text-sm leading-6">
            {versionNumber(versions, current.version_id)} submitted by {nameOf(people, current.submitted_by)} on {formatDateTime(current.submitted_at)}
            {current.template_name ? ` · ${current.template_name}` : ""}.
          </p>
          <p className="text-xs leading-5 text-muted-foreground">
            The round closes once every required step has decided, so the author gets all the feedback at once.
          </p>
        </div>
        {mayWithdraw ? (
          <div>
            <Button
              variant="outline"
              onClick={() => {
                onOpen({ kind: "withdraw-round", round: current });
              }}
            >
              <Undo2 aria-hidden="true" /> Withdraw round
            </Button>
          </div>
        ) : null}
      </div>
    );
  }

  if (asset.status === "approved") {
    return (
      <div className="grid gap-3">
        <div className="flex items-start gap-2 rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-950 dark:border-green-900 dark:bg-green-950/40 dark:text-green-100">
          <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <div className="grid min-w-0 gap-1">
            <p className="font-medium">
              {asset.approved_version_id ? versionNumber(versions, asset.approved_version_id) : "The asset"} is approved for use
              {current?.closed_at ? ` since ${formatDate(current.closed_at)}` : ""}.
            </p>
            <p>
              Expires: <ExpiryValue date={asset.expires_at} />
            </p>
          </div>
        </div>
        {hasForm2253(asset.status) && exportsRecords(viewer) ? <ExportButtons target={{ kind: "form-2253", asset }} /> : null}
        {admin ? (
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                onOpen({ kind: "expiry" });
              }}
            >
              <CalendarClock aria-hidden="true" /> Change expiry
            </Button>
            <Button
              variant="outline"
              size="sm"
              className="text-destructive hover:text-destructive"
              onClick={() => {
                onOpen({ kind: "withdraw-asset" });
              }}
            >
              <Ban aria-hidden="true" /> Withdraw asset
            </Button>
          </div>
        ) : null}
      </div>
    );
  }

  const words: Record<string, string> = {
    rejected: current ? `Round ${current.round} rejected the asset${current.closed_at ? ` on ${formatDate(current.closed_at)}` : ""}. It cannot go back into review.` : "The asset was rejected.",
    expired: `The approval expired${asset.expires_at ? ` on ${formatDate(`${asset.expires_at}T00:00:00`)}` : ""}. The asset must not be used.`,
    withdrawn: "An administrator withdrew the asset from use. It must not be used.",
    archived: "The asset is archived; its review history is kept for the record.",
    in_review: "The asset is in review.",
  };
  return <p className="text-sm leading-6">{words[asset.status] ?? ""}</p>;
}

/** For who answers for the asset: the gate's answer and the submission. */
function SubmitBlock({ asset, onOpen }: { asset: Asset; onOpen: (dialog: ReviewDialogState) => void }) {
  return (
    <div className="grid gap-3">
      <GateList assetId={asset.id} />
      <div>
        <Button
          onClick={() => {
            onOpen({ kind: "submit" });
          }}
        >
          <Send aria-hidden="true" /> {asset.status === "changes_requested" ? "Resubmit for review" : "Submit for review"}
        </Button>
      </div>
    </div>
  );
}

/** The ready-for-review gate, asked before the author tries: every unmet condition, or that all are met. */
function GateList({ assetId }: { assetId: string }) {
  const gate = useQuery(reviewGateQuery(assetId));
  if (gate.isPending) return <Skeleton className="h-12 w-full" />;
  if (gate.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Whether the asset is ready could not be checked.
      </p>
    );
  }
  if (gate.data.ready) {
    return (
      <p className="flex items-center gap-2 rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900 dark:border-green-900 dark:bg-green-950/40 dark:text-green-100" data-testid="gate-ready">
        <CircleCheck aria-hidden="true" className="size-4 shrink-0" /> Ready for review: every condition is met.
      </p>
    );
  }
  return <UnmetConditions problems={gate.data.unmet} linkFindings />;
}

/** The gate's unmet conditions as a list (also the 422's, in the submit dialog). */
export function UnmetConditions({
  problems,
  title = "Not ready for review yet",
  linkFindings = false,
}: {
  problems: { code: string; message: string }[];
  title?: string;
  /** Open critical findings (and a check still running) link to the findings panel. */
  linkFindings?: boolean;
}) {
  const id = useId();
  return (
    <div className="grid gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-amber-950 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100" data-testid="gate-unmet">
      <p id={id} className="text-sm font-medium">
        {title}
      </p>
      <ul aria-labelledby={id} className="grid gap-1.5">
        {problems.map((p) => (
          <li key={p.code} className="flex items-start gap-2 text-sm leading-5">
            <CircleX aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span className="min-w-0 wrap-anywhere">
              {p.message}
              {linkFindings && (p.code === "critical_findings" || p.code === "compliance_pending") ? (
                <>
                  {" "}
                  <a href="#findings" className="font-medium underline underline-offset-2">
                    Show the findings
                  </a>
                </>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The steps of a round, each with what the viewer may do on it. */
function RoundSteps({
  round,
  versions,
  people,
  viewer,
  authorId,
  changes,
  assetId,
  onOpen,
}: {
  round: Round;
  versions: VersionSummary[];
  people: Person[];
  viewer: Viewer;
  authorId: string | null;
  changes: ChangeRequest[];
  assetId: string;
  onOpen: (dialog: ReviewDialogState) => void;
}) {
  const queryClient = useQueryClient();
  const claim = useMutation({
    mutationFn: (step: RoundStep) => claimStep(step.id),
    onSuccess: async (_, step) => {
      toast.success(`You claimed the ${reviewerRoleLabel(step.role).toLowerCase()} review`);
      await invalidateAfterReview(queryClient, "claim", assetId);
    },
    onError: async (error) => {
      toastServerError("The step could not be claimed", describeServerError(error, "The step could not be claimed."));
      await invalidateAfterReview(queryClient, "claim", assetId);
    },
  });
  const open = round.status === "open";
  const authorLooking = open && viewer.userId !== null && viewer.userId === authorId && !viewer.readOnly;
  return (
    <div className="grid gap-2">
      <h3 className="text-xs font-semibold tracking-wide text-muted-foreground">
        <span className="uppercase">Steps</span> · round {round.round} on {versionNumber(versions, round.version_id)}
      </h3>
      {authorLooking ? (
        <p className="rounded-md bg-muted/60 px-3 py-2 text-sm leading-5 text-muted-foreground" data-testid="author-note">
          You wrote this version, so you never decide its review: its reviewers sign each step.
        </p>
      ) : null}
      <ol className="grid gap-2" aria-label={`Steps of round ${round.round}`}>
        {round.steps.map((step) => {
          const actions = stepActions(step, round, viewer, authorId);
          const blocking = blockingChanges(changes, round, step.role).length;
          return (
            <StepCard key={step.id} step={step} people={people} versions={versions}>
              {actions.claim || actions.decide || actions.assign ? (
                <div className="flex flex-wrap gap-2">
                  {actions.claim ? (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={claim.isPending}
                      onClick={() => {
                        claim.mutate(step);
                      }}
                    >
                      <Hand aria-hidden="true" /> Claim
                    </Button>
                  ) : null}
                  {actions.decide ? (
                    <Button
                      size="sm"
                      onClick={() => {
                        onOpen({ kind: "sign", step, round, blocking });
                      }}
                    >
                      <PenLine aria-hidden="true" /> Sign decision
                    </Button>
                  ) : null}
                  {actions.assign ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => {
                        onOpen({ kind: "assign", step });
                      }}
                    >
                      <UserPlus aria-hidden="true" /> {step.claimed_by ? "Reassign" : "Assign"}
                    </Button>
                  ) : null}
                </div>
              ) : null}
              {actions.blocked === "claimed" ? (
                <p className="text-xs leading-5 text-muted-foreground">{nameOf(people, step.claimed_by)} has claimed this step; only they decide it.</p>
              ) : null}
              {actions.decide && blocking > 0 ? (
                <p className="text-xs leading-5 text-amber-800 dark:text-amber-200">
                  Approval waits for {blocking === 1 ? "1 change request" : `${blocking} change requests`} of this role to be confirmed (see the checklist).
                </p>
              ) : null}
            </StepCard>
          );
        })}
      </ol>
    </div>
  );
}

/** One step: role, required or not, state, claim, due date (overdue marked), decision, comment and signature. */
function StepCard({ step, people, versions, children }: { step: RoundStep; people: Person[]; versions: VersionSummary[]; children?: ReactNode }) {
  const headingId = useId();
  const overdue = isOverdue(step);
  const decided = step.signature !== null;
  return (
    <li
      aria-labelledby={headingId}
      data-testid={`step-${step.role}`}
      className={cn("grid gap-2 rounded-lg border p-3", overdue ? "border-red-300 bg-red-50/60 dark:border-red-900 dark:bg-red-950/30" : "bg-card")}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <h4 id={headingId} className="text-sm font-semibold">
          {reviewerRoleLabel(step.role)} review
        </h4>
        <span className="text-xs text-muted-foreground">{step.required ? "Required" : "Optional"}</span>
        <Badge variant={stepStatusVariant(step.status)} className="ml-auto" data-testid="step-status">
          {stepStatusLabel(step.status)}
        </Badge>
      </div>
      {!decided && step.status !== "skipped" ? (
        <dl className="grid gap-1 text-xs leading-5 text-muted-foreground">
          {step.status === "active" ? (
            <div className="flex flex-wrap gap-x-1.5">
              <dt>Claimed by</dt>
              <dd className="text-foreground">{step.claimed_by ? nameOf(people, step.claimed_by) : "nobody yet"}</dd>
            </div>
          ) : null}
          {step.due_at ? (
            <div className={cn("flex flex-wrap items-center gap-x-1.5", overdue && "font-medium text-red-800 dark:text-red-200")}>
              <dt className="inline-flex items-center gap-1">
                <Clock aria-hidden="true" className="size-3" /> Due
              </dt>
              <dd>{formatDateTime(step.due_at)}</dd>
              {overdue ? (
                <dd>
                  <Badge variant="red">
                    <AlertTriangle aria-hidden="true" className="size-3" /> Overdue
                  </Badge>
                </dd>
              ) : null}
            </div>
          ) : step.status === "waiting" ? (
            <div>
              <dt className="sr-only">Starts</dt>
              <dd>Starts when the earlier required steps approve ({step.due_days} business days then).</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {decided && step.signature ? (
        <>
          {step.comment ? (
            <blockquote className="border-l-2 pl-3 text-sm leading-6 wrap-anywhere whitespace-pre-line">{step.comment}</blockquote>
          ) : null}
          <SignatureBlock signature={step.signature} versions={versions} />
        </>
      ) : null}
      {children}
    </li>
  );
}

/**
 * The manifestation of a signature (21 CFR 11.50): printed name, date and
 * time in UTC, meaning — and what it binds; "Verify" asks the server
 * whether the record is intact, bound to its step and its version unchanged.
 */
export function SignatureBlock({ signature, versions }: { signature: SignatureManifestation; versions: VersionSummary[] }) {
  const [result, setResult] = useState<SignatureVerification | null>(null);
  const verify = useMutation({
    mutationFn: () => verifySignature(signature.id),
    onSuccess: setResult,
    onError: (error) => {
      toastServerError("The signature could not be verified", describeServerError(error, "The signature could not be verified."));
    },
  });
  return (
    <div className="grid gap-2 rounded-md border bg-muted/40 p-3" data-testid="signature">
      <p className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        <PenLine aria-hidden="true" className="size-3.5" /> Electronic signature
      </p>
      <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-2 gap-y-0.5 text-sm">
        <dt className="text-muted-foreground">Signed by</dt>
        <dd className="font-medium wrap-anywhere" data-testid="signer-name">
          {signature.signer_name}
        </dd>
        <dt className="text-muted-foreground">Date (UTC)</dt>
        <dd className="tabular-nums" data-testid="signed-at">
          {formatUtc(signature.signed_at)}
        </dd>
        <dt className="text-muted-foreground">Meaning</dt>
        <dd data-testid="meaning">{meaningLabel(signature.meaning)}</dd>
        <dt className="text-muted-foreground">Signed</dt>
        <dd className="min-w-0">
          {versionNumber(versions, signature.version_id)}, SHA-256{" "}
          <code className="font-mono text-xs" title={signature.rendition_sha256}>
            {signature.rendition_sha256.slice(0, 12)}…
          </code>
        </dd>
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={verify.isPending}
          onClick={() => {
            verify.mutate();
          }}
        >
          <ShieldCheck aria-hidden="true" /> {verify.isPending ? "Verifying…" : "Verify"}
        </Button>
      </div>
      {result ? <VerificationResult result={result} /> : null}
    </div>
  );
}

function VerificationResult({ result }: { result: SignatureVerification }) {
  const checks: [boolean, string][] = [
    [result.seal_intact, "Record intact (its seal verifies)"],
    [result.bound_to_step, "Bound to this step"],
    [result.rendition_matches, "The signed version's content is unchanged"],
  ];
  return (
    <div
      role="status"
      data-testid="verification"
      className={cn(
        "grid gap-1.5 rounded-md border p-2.5 text-sm",
        result.valid
          ? "border-green-200 bg-green-50 text-green-950 dark:border-green-900 dark:bg-green-950/40 dark:text-green-100"
          : "border-red-200 bg-red-50 text-red-950 dark:border-red-900 dark:bg-red-950/40 dark:text-red-100",
      )}
    >
      <p className="flex items-center gap-1.5 font-medium">
        {result.valid ? <ShieldCheck aria-hidden="true" className="size-4" /> : <ShieldX aria-hidden="true" className="size-4" />}
        {result.valid ? "Signature valid" : "Signature not valid"}
      </p>
      <p className="text-xs leading-5">{result.reason}</p>
      <ul className="grid gap-0.5 text-xs">
        {checks.map(([ok, label]) => (
          <li key={label} className="flex items-center gap-1.5">
            {ok ? <CircleCheck aria-hidden="true" className="size-3.5" /> : <CircleX aria-hidden="true" className="size-3.5" />}
            <span>
              <span className="sr-only">{ok ? "Passed: " : "Failed: "}</span>
              {label}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The change-request checklist: the author marks each done; the raising role's reviewer confirms it on the new version. */
function ChangeChecklist({
  asset,
  items,
  open,
  people,
  viewer,
  authorId,
  onOpen,
  onShowThread,
}: {
  asset: Asset;
  items: ChangeRequest[];
  open: Round | undefined;
  people: Person[];
  viewer: Viewer;
  authorId: string | null;
  onOpen: (dialog: ReviewDialogState) => void;
  onShowThread: ((threadId: string, annotationId: string | null) => void) | undefined;
}) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const confirm = useMutation({
    mutationFn: (c: ChangeRequest) => confirmChange(c.id),
    onSuccess: async () => {
      toast.success("Change confirmed");
      await invalidateAfterReview(queryClient, "confirm", asset.id);
    },
    onError: async (error) => {
      toastServerError("The change could not be confirmed", describeServerError(error, "The change could not be confirmed."));
      await invalidateAfterReview(queryClient, "confirm", asset.id);
    },
  });
  const done = items.filter((c) => c.status !== "open").length;
  const confirmed = items.filter((c) => c.status === "confirmed").length;
  return (
    <section aria-labelledby={headingId} className="grid gap-2" data-testid="checklist">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          <ListChecks aria-hidden="true" className="size-3.5" /> Change requests
        </h3>
        <span className="text-xs text-muted-foreground tabular-nums">
          {open ? `${confirmed} of ${items.length} confirmed` : `${done} of ${items.length} done`}
        </span>
      </div>
      <ul className="grid gap-2" aria-labelledby={headingId}>
        {items.map((c) => (
          <li key={c.id} className="grid gap-1.5 rounded-lg border bg-card p-3" data-testid="change-request">
            <div className="flex items-start gap-2">
              {c.status === "confirmed" ? (
                <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-700 dark:text-green-400" />
              ) : c.status === "done" ? (
                <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-blue-700 dark:text-blue-400" />
              ) : (
                <Circle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
              )}
              <p className="min-w-0 flex-1 text-sm leading-5 wrap-anywhere">{c.text}</p>
              <Badge variant={changeRequestStatusVariant(c.status)}>{changeRequestStatusLabel(c.status)}</Badge>
            </div>
            <p className="pl-6 text-xs leading-5 text-muted-foreground">
              {reviewerRoleLabel(c.role)} · {nameOf(people, c.raised_by)}
            </p>
            {c.status !== "open" ? (
              <p className="pl-6 text-xs leading-5 text-muted-foreground wrap-anywhere">
                Done by {nameOf(people, c.done_by)}
                {c.done_at ? `, ${formatDate(c.done_at)}` : ""}
                {c.done_note ? `: “${c.done_note}”` : ""}
                {c.status === "confirmed" ? ` · confirmed by ${nameOf(people, c.confirmed_by)}` : ""}
              </p>
            ) : null}
            {changeThread(c) && onShowThread ? (
              <div className="pl-6">
                <Button
                  size="sm"
                  variant="link"
                  className="h-auto p-0"
                  onClick={() => {
                    const at = changeThread(c);
                    if (at) onShowThread(at.threadId, at.annotationId);
                  }}
                >
                  <LocateFixed aria-hidden="true" /> Show in document
                </Button>
              </div>
            ) : null}
            {canMarkDone(c, asset, viewer) ? (
              <div className="pl-6">
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => {
                    onOpen({ kind: "mark-done", change: c });
                  }}
                >
                  <CheckCircle2 aria-hidden="true" /> Mark done
                </Button>
              </div>
            ) : null}
            {canConfirm(c, open, viewer, authorId) ? (
              <div className="pl-6">
                <Button
                  size="sm"
                  variant="outline"
                  disabled={confirm.isPending}
                  onClick={() => {
                    confirm.mutate(c);
                  }}
                >
                  <CircleCheck aria-hidden="true" /> Confirm
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The earlier rounds, each folded: its outcome, steps and decisions, the
 * changes it asked for, and its review record to download (when `jobCode`
 * is given: the viewer exports).
 */
function RoundHistory({
  rounds,
  versions,
  people,
  changes,
  jobCode,
}: {
  rounds: Round[];
  versions: VersionSummary[];
  people: Person[];
  changes: ChangeRequest[];
  jobCode: string | null;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-2">
      <h3 id={headingId} className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        <History aria-hidden="true" className="size-3.5" /> Round history
      </h3>
      <ol className="grid gap-2" aria-labelledby={headingId}>
        {rounds.map((round) => {
          const raised = changes.filter((c) => c.review_id === round.id);
          return (
            <li key={round.id} className="rounded-lg border bg-card" data-testid={`round-${round.round}`}>
              <details className="group">
                <summary className="flex cursor-pointer list-none flex-wrap items-center gap-2 px-3 py-2 text-sm">
                  <ChevronRight aria-hidden="true" className="size-4 shrink-0 transition-transform group-open:rotate-90" />
                  <span className="font-medium">Round {round.round}</span>
                  <span className="text-muted-foreground">{versionNumber(versions, round.version_id)}</span>
                  <Badge variant={reviewStatusVariant(round.status)} className="ml-auto">
                    {reviewStatusLabel(round.status)}
                  </Badge>
                </summary>
                <div className="grid gap-2 border-t px-3 py-3">
                  <p className="text-xs leading-5 text-muted-foreground">
                    Submitted by {nameOf(people, round.submitted_by)} on {formatDateTime(round.submitted_at)}
                    {round.closed_at ? `; closed ${formatDateTime(round.closed_at)}` : ""}.
                  </p>
                  <ol className="grid gap-2" aria-label={`Steps of round ${round.round}`}>
                    {round.steps.map((step) => (
                      <StepCard key={step.id} step={step} people={people} versions={versions} />
                    ))}
                  </ol>
                  {raised.length > 0 ? (
                    <div className="grid gap-1">
                      <p className="text-xs font-medium">Changes requested in this round</p>
                      <ul className="grid gap-1 text-xs leading-5">
                        {raised.map((c) => (
                          <li key={c.id} className="flex items-start gap-1.5">
                            <Badge variant={changeRequestStatusVariant(c.status)}>{changeRequestStatusLabel(c.status)}</Badge>
                            <span className="min-w-0 wrap-anywhere">{c.text}</span>
                          </li>
                        ))}
                      </ul>
                    </div>
                  ) : null}
                  {jobCode !== null ? <ExportButtons target={{ kind: "record", round, jobCode }} /> : null}
                </div>
              </details>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** What an export is of: a round's review record, or an approved asset's Form 2253 data. */
type ExportTarget = { kind: "record"; round: Round; jobCode: string } | { kind: "form-2253"; asset: Asset };

/**
 * Downloads of an export as PDF and as JSON: fetched with the session's
 * token and saved under the server's file name. The server records each
 * export in the audit trail; in the read-only demo it records nothing.
 */
function ExportButtons({ target }: { target: ExportTarget }) {
  const queryClient = useQueryClient();
  const record = target.kind === "record";
  const what = record ? "Review record" : "Form 2253";
  const download = useMutation({
    mutationFn: (format: ExportFormat): ReturnType<typeof fetchExport> =>
      record
        ? fetchExport(reviewRecordPath(target.round.id, format), `review-record-${target.jobCode}-round-${target.round.round}.${format}`)
        : fetchExport(form2253Path(target.asset.id, format), `form-2253-${target.asset.job_code}.${format}`),
    onSuccess: async (file) => {
      saveBlob(file.blob, file.filename);
      toast.success(`${what} downloaded`, { description: file.filename });
      await invalidateAfterExport(queryClient);
    },
    onError: (error) => {
      toastServerError(`The ${record ? "review record" : "Form 2253 data"} could not be downloaded`, describeServerError(error, "Please try again."));
    },
  });
  const pending = download.isPending ? download.variables : null;
  const icon = (format: ExportFormat) =>
    pending === format ? <Spinner size="sm" label={null} className="text-current" /> : format === "pdf" ? <FileDown aria-hidden="true" /> : <FileBraces aria-hidden="true" />;
  return (
    <div
      role="group"
      aria-label={record ? `Review record of round ${target.round.round}` : "Form 2253 data"}
      aria-busy={download.isPending}
      className="flex flex-wrap items-center gap-2"
      data-testid={record ? `exports-round-${target.round.round}` : "exports-form-2253"}
    >
      <Button
        size="sm"
        variant="outline"
        disabled={download.isPending}
        onClick={() => {
          download.mutate("pdf");
        }}
      >
        {icon("pdf")} {what} (PDF)
      </Button>
      <Button
        size="sm"
        variant="outline"
        disabled={download.isPending}
        aria-label={`${what} (JSON)`}
        onClick={() => {
          download.mutate("json");
        }}
      >
        {icon("json")} JSON
      </Button>
    </div>
  );
}
