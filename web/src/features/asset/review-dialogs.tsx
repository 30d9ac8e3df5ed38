import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, Send } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { FormField, FormSelect } from "@/components/ui/form";
import { Input, Textarea } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import type { Asset } from "@/entities/assets";
import { membersQuery } from "@/entities/members";
import {
  assignStep,
  type ChangeRequest,
  invalidateAfterReview,
  markChangeDone,
  reviewGateQuery,
  type Round,
  type RoundStep,
  setAssetExpiry,
  submitForReview,
  templateChoicesQuery,
  withdrawAsset,
  withdrawReview,
} from "@/entities/reviews";
import { doneNoteSchema, expirySchema, withdrawAssetSchema } from "@/entities/reviews/schema";
import type { VersionSummary } from "@/entities/versions";
import { reviewerRoleLabel } from "@/lib/review-types";
import { describeServerError, type ServerProblem } from "@/lib/server-error";
import { type ReviewDialogState, UnmetConditions } from "./review-panel";
import { gateRefusal, type GateProblem } from "./review-rules";
import { SignDialog } from "./sign-dialog";

function ProblemAlert({ problem }: { problem: ServerProblem | null }) {
  if (!problem) return null;
  return (
    <Alert variant="destructive">
      <AlertTriangle aria-hidden="true" />
      <AlertTitle>{problem.message}</AlertTitle>
      {problem.detail ? <AlertDescription>{problem.detail}</AlertDescription> : null}
    </Alert>
  );
}

/** What the page knows that the review dialogs need. */
export interface ReviewDialogContext {
  asset: Asset;
  versions: VersionSummary[];
  /** The rounds so far (the next one is numbered after them). */
  rounds: number;
  orgId: string | null;
  signerName: string;
  hasAuthenticator: boolean;
}

/** Shows the review dialog the page asked for. */
export function ReviewDialogHost({ dialog, context, onClose }: { dialog: ReviewDialogState; context: ReviewDialogContext; onClose: () => void }) {
  const { asset, versions } = context;
  switch (dialog.kind) {
    case "submit":
      return <SubmitDialog asset={asset} versions={versions} round={context.rounds + 1} onClose={onClose} />;
    case "withdraw-round":
      return <WithdrawRoundDialog assetId={asset.id} round={dialog.round} onClose={onClose} />;
    case "sign":
      return (
        <SignDialog
          assetId={asset.id}
          step={dialog.step}
          round={dialog.round}
          versions={versions}
          signerName={context.signerName}
          hasAuthenticator={context.hasAuthenticator}
          blocking={dialog.blocking}
          onClose={onClose}
        />
      );
    case "assign":
      return <AssignDialog assetId={asset.id} step={dialog.step} orgId={context.orgId} onClose={onClose} />;
    case "mark-done":
      return <MarkDoneDialog assetId={asset.id} change={dialog.change} onClose={onClose} />;
    case "withdraw-asset":
      return <WithdrawAssetDialog asset={asset} onClose={onClose} />;
    case "expiry":
      return <ExpiryDialog asset={asset} onClose={onClose} />;
  }
}

const BUILT_IN = "";

/**
 * Submit for review: the gate's unmet conditions first (asked afresh), the
 * workflow to use when the organisation has several, and the submission;
 * a 422 lists every condition the server still found unmet.
 */
function SubmitDialog({ asset, versions, round, onClose }: { asset: Asset; versions: VersionSummary[]; round: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const templateId = useId();
  const gate = useQuery(reviewGateQuery(asset.id));
  const templates = useQuery(templateChoicesQuery());
  const [picked, setPicked] = useState<string | null>(null);
  const [refused, setRefused] = useState<GateProblem[]>([]);
  const [problem, setProblem] = useState<ServerProblem | null>(null);
  const version = versions.find((v) => v.id === asset.current_version_id);

  const list = templates.data ?? [];
  const byDefault = list.find((t) => t.is_default);
  const choices = byDefault ? list : [{ id: BUILT_IN, name: "Standard MLR review (built in)", description: "Medical, legal and regulatory in parallel, 5 business days each.", is_default: true, steps: [] }, ...list];
  const chosen = picked ?? byDefault?.id ?? BUILT_IN;
  const chosenTemplate = choices.find((t) => t.id === chosen);

  const submit = useMutation({
    mutationFn: () => submitForReview(asset.id, chosen === BUILT_IN ? undefined : chosen),
    onSuccess: async (review) => {
      toast.success(`Round ${review.round} submitted for review`);
      await invalidateAfterReview(queryClient, "submit", asset.id);
      onClose();
    },
    onError: async (error) => {
      const unmet = gateRefusal(error);
      setRefused(unmet);
      setProblem(unmet.length > 0 ? null : describeServerError(error, "The asset could not be submitted."));
      await invalidateAfterReview(queryClient, "submit", asset.id);
    },
  });
  const notReady = gate.data?.ready === false;

  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o && !submit.isPending) onClose();
      }}
    >
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{asset.status === "changes_requested" ? "Resubmit for review" : "Submit for review"}</DialogTitle>
          <DialogDescription>
            Opens round {round} on {version ? `version ${version.number}` : "the current version"}: that version can no longer change, and the reviewers of
            each step are told it awaits them.
          </DialogDescription>
        </DialogHeader>
        {gate.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : gate.isError ? (
          <p className="text-sm text-muted-foreground">Whether the asset is ready could not be checked; the server checks again when you submit.</p>
        ) : gate.data.ready ? (
          <p className="text-sm text-green-800 dark:text-green-300" data-testid="gate-ready">
            Every condition of the ready-for-review gate is met.
          </p>
        ) : (
          <UnmetConditions problems={gate.data.unmet} title="Fix these before submitting" />
        )}
        {choices.length > 1 ? (
          <div className="grid gap-1.5">
            <label htmlFor={templateId} className="text-sm font-medium">
              Workflow
            </label>
            <NativeSelect
              id={templateId}
              value={chosen}
              onChange={(e) => {
                setPicked(e.target.value);
              }}
              aria-describedby={`${templateId}-hint`}
            >
              {choices.map((t) => (
                <option key={t.id || "built-in"} value={t.id}>
                  {t.name}
                  {t.is_default ? " (default)" : ""}
                </option>
              ))}
            </NativeSelect>
            <p id={`${templateId}-hint`} className="text-xs leading-5 text-muted-foreground">
              {chosenTemplate && chosenTemplate.description !== "" ? chosenTemplate.description : "The steps this workflow gives the round."}
            </p>
          </div>
        ) : null}
        {refused.length > 0 ? <UnmetConditions problems={refused} title="The server refused: the asset is not ready for review" /> : null}
        <ProblemAlert problem={problem} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={submit.isPending}>
            Cancel
          </Button>
          <Button
            disabled={submit.isPending || notReady}
            onClick={() => {
              setRefused([]);
              setProblem(null);
              submit.mutate();
            }}
          >
            <Send aria-hidden="true" /> {submit.isPending ? "Submitting…" : `Submit round ${round}`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Withdraws an open round before any decision; the asset goes back to draft. */
function WithdrawRoundDialog({ assetId, round, onClose }: { assetId: string; round: Round; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<ServerProblem | null>(null);
  const withdraw = useMutation({
    mutationFn: () => withdrawReview(round.id),
    onSuccess: async () => {
      toast.success(`Round ${round.round} withdrawn`);
      await invalidateAfterReview(queryClient, "withdraw_review", assetId);
      onClose();
    },
    onError: async (error) => {
      setProblem(describeServerError(error, "The round could not be withdrawn."));
      await invalidateAfterReview(queryClient, "withdraw_review", assetId);
    },
  });
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Withdraw round {round.round}?</DialogTitle>
          <DialogDescription>
            Nobody has decided yet. The round ends, its steps are skipped and the asset goes back to draft, so you can add a version and submit again.
          </DialogDescription>
        </DialogHeader>
        <ProblemAlert problem={problem} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Keep it in review
          </Button>
          <Button
            variant="destructive"
            disabled={withdraw.isPending}
            onClick={() => {
              setProblem(null);
              withdraw.mutate();
            }}
          >
            {withdraw.isPending ? "Withdrawing…" : "Withdraw round"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

const assignSchema = z.object({ user_id: z.string().min(1, "Choose a reviewer.") });

/** Assigns (or reassigns) an active step to a reviewer of its role: owners and admins. */
function AssignDialog({ assetId, step, orgId, onClose }: { assetId: string; step: RoundStep; orgId: string | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const members = useQuery(membersQuery(orgId));
  const form = useForm<z.input<typeof assignSchema>, unknown, z.output<typeof assignSchema>>({
    resolver: zodResolver(assignSchema),
    defaultValues: { user_id: step.claimed_by ?? "" },
  });
  const role = reviewerRoleLabel(step.role);
  const reviewers = (members.data ?? []).filter((m) => m.role === step.role && !m.deactivated_at);
  return (
    <EntityFormDialog
      form={form}
      title={`Assign the ${role.toLowerCase()} review`}
      description="The reviewer you choose is told, and only they decide the step. The author of the version cannot be chosen."
      submitLabel="Assign"
      pendingLabel="Assigning…"
      errorFallback="The step could not be assigned."
      onClose={onClose}
      onSubmit={async ({ user_id }) => {
        try {
          await assignStep(step.id, user_id);
        } finally {
          await invalidateAfterReview(queryClient, "assign", assetId);
        }
        toast.success(`${role} review assigned`);
        onClose();
      }}
    >
      {members.isPending ? (
        <Skeleton className="h-10 w-full" />
      ) : reviewers.length === 0 ? (
        <p className="text-sm text-muted-foreground">No active member holds the {role.toLowerCase()} reviewer role. Invite one from Users.</p>
      ) : (
        <FormField name="user_id" label="Reviewer">
          <FormSelect name="user_id">
            <option value="">Choose a reviewer</option>
            {reviewers.map((m) => (
              <option key={m.id} value={m.id}>
                {m.full_name || m.email}
              </option>
            ))}
          </FormSelect>
        </FormField>
      )}
    </EntityFormDialog>
  );
}

/** The author marks a change request done, with an optional note for the reviewer who confirms it. */
function MarkDoneDialog({ assetId, change, onClose }: { assetId: string; change: ChangeRequest; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof doneNoteSchema>, unknown, z.output<typeof doneNoteSchema>>({
    resolver: zodResolver(doneNoteSchema),
    defaultValues: { note: "" },
  });
  return (
    <EntityFormDialog
      form={form}
      className="max-w-lg"
      title="Mark the change done"
      description={<span className="wrap-anywhere">“{change.text}”</span>}
      submitLabel="Mark done"
      errorFallback="The change could not be marked done."
      onClose={onClose}
      onSubmit={async ({ note }) => {
        await markChangeDone(change.id, note);
        toast.success("Change marked done");
        await invalidateAfterReview(queryClient, "mark_done", assetId);
        onClose();
      }}
    >
      <FormField name="note" label="Note (optional)" hint="Where and how you made the change; the reviewer reads it when confirming.">
        <Textarea rows={3} {...form.register("note")} />
      </FormField>
    </EntityFormDialog>
  );
}

/** An administrator takes an approved asset out of use, with a reason. */
function WithdrawAssetDialog({ asset, onClose }: { asset: Asset; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof withdrawAssetSchema>, unknown, z.output<typeof withdrawAssetSchema>>({
    resolver: zodResolver(withdrawAssetSchema),
    defaultValues: { reason: "" },
  });
  return (
    <EntityFormDialog
      form={form}
      className="max-w-lg"
      title={`Withdraw “${asset.title}”?`}
      description="The asset stops being approved for use; its owner is told. It cannot be approved again — a replacement goes through review as a new asset."
      submitLabel="Withdraw asset"
      pendingLabel="Withdrawing…"
      errorFallback="The asset could not be withdrawn."
      onClose={onClose}
      onSubmit={async ({ reason }) => {
        await withdrawAsset(asset.id, reason);
        toast.success("Asset withdrawn");
        await invalidateAfterReview(queryClient, "withdraw_asset", asset.id);
        onClose();
      }}
    >
      <FormField name="reason" label="Reason" hint="Recorded in the audit trail and sent to the owner.">
        <Textarea rows={3} {...form.register("reason")} />
      </FormField>
    </EntityFormDialog>
  );
}

/** An administrator changes an approved asset's expiry date. */
function ExpiryDialog({ asset, onClose }: { asset: Asset; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof expirySchema>, unknown, z.output<typeof expirySchema>>({
    resolver: zodResolver(expirySchema),
    defaultValues: { expires_at: asset.expires_at ?? "" },
  });
  return (
    <EntityFormDialog
      form={form}
      className="max-w-md"
      title="Change the expiry date"
      description="The approval ends on this date (UTC): the asset then becomes expired. Its owner is reminded 30 days before."
      submitLabel="Save expiry"
      errorFallback="The expiry date could not be saved."
      onClose={onClose}
      onSubmit={async ({ expires_at }) => {
        await setAssetExpiry(asset.id, expires_at);
        toast.success("Expiry date saved");
        await invalidateAfterReview(queryClient, "set_expiry", asset.id);
        onClose();
      }}
    >
      <FormField name="expires_at" label="Expiry date">
        <Input type="date" {...form.register("expires_at")} />
      </FormField>
    </EntityFormDialog>
  );
}
