import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, PenLine, Plus, Trash2 } from "lucide-react";
import { useId } from "react";
import { useController, useFieldArray, useForm, useFormContext, useFormState, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { digitsOnly, FormField, FormInput } from "@/components/ui/form";
import { Textarea } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { decideStep, invalidateAfterReview, type Round, type RoundStep } from "@/entities/reviews";
import { MAX_CHANGE_REQUESTS, type SignInput, type SignOutput, signSchema, signValues } from "@/entities/reviews/schema";
import type { VersionSummary } from "@/entities/versions";
import { FormSelect } from "@/components/ui/form";
import { fieldMessages } from "@/lib/form-errors";
import { type Decision, DECISIONS, decisionLabel, decisionMeaning, meaningLabel, reviewerRoleLabel } from "@/lib/review-types";
import { cn } from "@/lib/utils";
import { threadLabel } from "./annotation-threads";
import { useVersionThreads } from "./use-version-threads";

const DECISION_HINTS: Record<Decision, string> = {
  approved: "The asset may be used as it is.",
  approved_with_changes: "Approved; minor edits noted in your comment need no new round.",
  changes_requested: "The author makes the changes in a new version and resubmits; you confirm each one then.",
  rejected: "Closes the round at once; the asset cannot go back into review.",
};

const SUBMIT_LABELS: Record<Decision, string> = {
  approved: "Sign and approve",
  approved_with_changes: "Sign and approve with changes",
  changes_requested: "Sign and request changes",
  rejected: "Sign and reject",
};

/**
 * Deciding a step is signing it (21 CFR Part 11): the decision, a comment,
 * the change requests when asking for changes, and the signer's password
 * (and authenticator code when they have one), which the server checks at
 * this moment. Its refusals are shown where they belong: a wrong password
 * or code beside the field (28P01), a locked signing (PT429), a move the
 * workflow no longer allows (409) or a permission (403) for the form.
 */
export function SignDialog({
  assetId,
  step,
  round,
  versions,
  signerName,
  hasAuthenticator,
  blocking,
  onClose,
}: {
  assetId: string;
  step: RoundStep;
  round: Round;
  versions: VersionSummary[];
  /** The printed name the signature will carry. */
  signerName: string;
  /** The signer has a verified authenticator: the code is asked up front. */
  hasAuthenticator: boolean;
  /** Change requests of this role not yet confirmed: approving is refused until they are. */
  blocking: number;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<SignInput, unknown, SignOutput>({
    resolver: zodResolver(signSchema),
    defaultValues: { ...signValues(hasAuthenticator), decision: blocking > 0 ? "changes_requested" : "approved" },
  });
  const decision = useWatch({ control: form.control, name: "decision" });
  const needsCode = useWatch({ control: form.control, name: "needs_code" });
  const version = versions.find((v) => v.id === round.version_id);
  const role = reviewerRoleLabel(step.role);
  // The open comments on the version under review, which a change request may point at.
  const threads = useVersionThreads(assetId, version, decision === "changes_requested");
  const pointable = threads.annotations
    .filter((a) => a.state === "open")
    .map((a) => ({ id: a.id, label: threadLabel(threads.numbers.get(a.thread_id), a.target, { max: 50 }) }));

  return (
    <EntityFormDialog
      form={form}
      className="max-w-xl"
      title={`Sign the ${role.toLowerCase()} review`}
      description={`Round ${round.round}${version ? `, version ${version.number}` : ""}. Your decision is recorded with your electronic signature.`}
      submitLabel={SUBMIT_LABELS[decision]}
      pendingLabel="Signing…"
      errorFallback="The decision could not be signed."
      onClose={onClose}
      onSubmit={async (values) => {
        try {
          const result = await decideStep({ stepId: step.id, ...values });
          toast.success(`${role} review signed: ${decisionLabel(values.decision).toLowerCase()}`);
          await invalidateAfterReview(queryClient, "decide", assetId, result);
          onClose();
        } catch (error) {
          const fields = fieldMessages(error);
          // A signer whose authenticator the page did not know of: the server asks for the code.
          if (fields.totp_code) form.setValue("needs_code", true);
          // A refused password is not tried again as it is.
          if (fields.password) form.setValue("password", "");
          // The step may have moved meanwhile (another reviewer, the round closed).
          await invalidateAfterReview(queryClient, "decide", assetId);
          throw error;
        }
      }}
    >
      {blocking > 0 ? (
        <Alert variant="warning">
          <AlertTriangle aria-hidden="true" />
          <AlertTitle>Approval waits for the checklist</AlertTitle>
          <AlertDescription>
            Your role raised {blocking === 1 ? "a change request" : `${blocking} change requests`} in an earlier round that {blocking === 1 ? "is" : "are"} not
            confirmed yet. Confirm {blocking === 1 ? "it" : "them"} on this version in the checklist before approving.
          </AlertDescription>
        </Alert>
      ) : null}
      <DecisionChoice approvalsBlocked={blocking > 0} />
      <FormField name="comment" label="Comment" hint="Required. The author and the record read it beside your decision.">
        <Textarea rows={3} {...form.register("comment")} />
      </FormField>
      {decision === "changes_requested" ? <ChangeRequestFields pointable={pointable} /> : null}
      <div className="grid gap-4 rounded-lg border bg-muted/40 p-4">
        <p className="flex items-start gap-2 text-sm leading-6">
          <PenLine aria-hidden="true" className="mt-1 size-4 shrink-0 text-muted-foreground" />
          <span>
            Signing as <strong className="wrap-anywhere">{signerName}</strong>, meaning <strong>{meaningLabel(decisionMeaning(decision))}</strong>
            {version ? (
              <>
                , bound to version {version.number} (SHA-256 <code className="font-mono text-xs">{version.sha256.slice(0, 12)}…</code>)
              </>
            ) : null}
            . The time is recorded in UTC. Your password makes this the legally binding equivalent of your handwritten signature.
          </span>
        </p>
        <FormField name="password" label="Password">
          <PasswordInput autoComplete="current-password" {...form.register("password")} />
        </FormField>
        {needsCode ? (
          <FormField name="totp_code" label="Authenticator code" hint="The 6-digit code your authenticator app shows now.">
            <FormInput name="totp_code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} transform={digitsOnly} />
          </FormField>
        ) : null}
      </div>
    </EntityFormDialog>
  );
}

/** The four decisions as radio options, each with what it means. */
function DecisionChoice({ approvalsBlocked }: { approvalsBlocked: boolean }) {
  const id = useId();
  const { field } = useController<SignInput, "decision">({ name: "decision" });
  const { errors } = useFormState<SignInput>({ name: "decision" });
  return (
    <div className="grid gap-2">
      <p id={`${id}-label`} className="text-sm font-medium">
        Decision
      </p>
      <div role="radiogroup" aria-labelledby={`${id}-label`} className="grid gap-2 sm:grid-cols-2">
        {DECISIONS.map((d) => {
          const checked = field.value === d;
          const disabled = approvalsBlocked && decisionMeaning(d) === "approval";
          return (
            <label
              key={d}
              htmlFor={`${id}-${d}`}
              className={cn(
                "flex items-start gap-3 rounded-lg border p-3 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                disabled ? "cursor-not-allowed opacity-60" : "cursor-pointer",
                checked ? "border-primary bg-primary/5" : !disabled && "hover:bg-accent/50",
              )}
            >
              <input
                id={`${id}-${d}`}
                ref={checked ? field.ref : undefined}
                type="radio"
                name={field.name}
                value={d}
                checked={checked}
                disabled={disabled}
                onChange={() => {
                  field.onChange(d);
                }}
                onBlur={field.onBlur}
                className="mt-1 size-4 accent-[var(--primary)]"
                aria-describedby={`${id}-${d}-hint`}
              />
              <span className="grid gap-0.5">
                <span className="text-sm font-medium">{decisionLabel(d)}</span>
                <span id={`${id}-${d}-hint`} className="text-xs leading-5 text-muted-foreground">
                  {DECISION_HINTS[d]}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      {errors.decision?.message ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {errors.decision.message}
        </p>
      ) : null}
    </div>
  );
}

/**
 * One or more change requests, each a text the author will tick off and,
 * when the version has open comments, the comment it points at (the
 * checklist then shows it in the document).
 */
function ChangeRequestFields({ pointable }: { pointable: { id: string; label: string }[] }) {
  const id = useId();
  const { control, register } = useFormContext<SignInput>();
  const { fields, append, remove } = useFieldArray({ control, name: "change_requests" });
  const { errors } = useFormState<SignInput>({ name: "change_requests" });
  const listError = errors.change_requests?.message ?? errors.change_requests?.root?.message;
  return (
    <fieldset className="grid min-w-0 gap-3 rounded-lg border p-3" aria-describedby={listError ? `${id}-error` : undefined}>
      <legend className="px-1 text-sm font-medium">Change requests</legend>
      <p className="-mt-1 text-xs leading-5 text-muted-foreground">Each becomes an item of the author&apos;s checklist; you confirm it on the next version.</p>
      {fields.map((f, i) => (
        <div key={f.id} className="flex items-start gap-2">
          <div className="grid min-w-0 flex-1 gap-2">
            <FormField name={`change_requests.${i}.text`} label={`Change request ${i + 1}`}>
              <Textarea rows={2} {...register(`change_requests.${i}.text`)} />
            </FormField>
            {pointable.length > 0 ? (
              <FormField name={`change_requests.${i}.annotation_id`} label={
                  <>
                    Points at<span className="sr-only"> (change request {i + 1})</span>
                  </>
                }
              >
                <FormSelect name={`change_requests.${i}.annotation_id`}>
                  <option value="">No comment in particular</option>
                  {pointable.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.label}
                    </option>
                  ))}
                </FormSelect>
              </FormField>
            ) : null}
          </div>
          {fields.length > 1 ? (
            <Button
              variant="ghost"
              size="icon"
              className="mt-6 shrink-0"
              aria-label={`Remove change request ${i + 1}`}
              onClick={() => {
                remove(i);
              }}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          ) : null}
        </div>
      ))}
      {listError ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {listError}
        </p>
      ) : null}
      {fields.length < MAX_CHANGE_REQUESTS ? (
        <div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              append({ text: "", annotation_id: "" });
            }}
          >
            <Plus aria-hidden="true" /> Add another change request
          </Button>
        </div>
      ) : null}
    </fieldset>
  );
}
