import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleAlert, Pencil, Plus, Star, Trash2, Workflow } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { FormProvider, useForm, useFormState } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Separator } from "@/components/ui/separator";
import { Skeleton } from "@/components/ui/skeleton";
import { useProfile } from "@/entities/profile";
import { APPROVAL_VALIDITY, invalidateReviewSettings, reviewSettingsQuery, setReviewSettings, type ReviewSettings } from "@/entities/review-settings";
import {
  BUILT_IN_WORKFLOW,
  deleteWorkflowTemplate,
  invalidateWorkflowTemplates,
  saveWorkflowTemplate,
  workflowTemplatesQuery,
  type WorkflowTemplate,
  type WorkflowTemplateValues,
} from "@/entities/workflow-templates";
import { errorMessage } from "@/lib/errors";
import { applyServerError } from "@/lib/form-errors";
import { formatDate } from "@/lib/format-time";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { WorkflowStages } from "./workflow-stages";
import { WorkflowTemplateDialog } from "./workflow-template-dialog";

/** What the editor is open on: a template, a new one (from scratch or from the built-in workflow), or nothing. */
type Editing = { template: WorkflowTemplate } | { initial?: WorkflowTemplateValues } | null;

/**
 * Settings › Review workflow: the organisation's workflow templates (the
 * steps each round of a submission gets) and how long an approval stays
 * valid. Every member sees them — a marketer learns what a submission
 * will go through, a reviewer what is expected of them — and owners and
 * admins change them (product.md §2: workflow templates are RW for them, R
 * for everyone else; the server refuses anyone else).
 */
export function ReviewWorkflowCard({ admin }: { admin: boolean }) {
  const templates = useQuery(workflowTemplatesQuery());
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<WorkflowTemplate | null>(null);
  const list = templates.data ?? [];
  const hasDefault = list.some((t) => t.is_default);

  return (
    <Card>
      <CardHeader className="flex-row items-start gap-4">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10">
          <Workflow aria-hidden="true" className="size-5 text-primary" />
        </span>
        <div className="grid min-w-0 flex-1 gap-1">
          <CardTitle id="review-workflow-title">Review workflow</CardTitle>
          <CardDescription>
            {admin
              ? "The review steps every submission goes through, and how long an approval lasts."
              : "The review steps every submission goes through, and how long an approval lasts. Your administrators set them."}
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-6">
        <section aria-labelledby="workflow-templates-heading" className="grid gap-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id="workflow-templates-heading" className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
              Workflow templates
            </h3>
            {admin ? (
              <Button
                variant="outline"
                size="sm"
                onClick={() => {
                  setEditing({});
                }}
              >
                <Plus aria-hidden="true" />
                New workflow
              </Button>
            ) : null}
          </div>
          {templates.isPending ? (
            <div className="grid gap-2">
              <Skeleton className="h-24 w-full" />
            </div>
          ) : templates.isError ? (
            <Alert variant="destructive">
              <AlertDescription className="flex flex-wrap items-center justify-between gap-3">
                <span>{errorMessage(templates.error, "The workflow templates could not be loaded.")}</span>
                <Button variant="outline" size="sm" onClick={() => void templates.refetch()}>
                  Retry
                </Button>
              </AlertDescription>
            </Alert>
          ) : (
            <ul className="divide-y rounded-lg border" aria-labelledby="workflow-templates-heading">
              {hasDefault ? null : (
                <TemplateRow
                  name={BUILT_IN_WORKFLOW.name}
                  description="Ships with Fairbalance. Every submission gets it until a workflow of your own is the default."
                  steps={BUILT_IN_WORKFLOW}
                  isDefault
                  builtIn
                  actions={
                    admin ? (
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={`Customise ${BUILT_IN_WORKFLOW.name}`}
                        onClick={() => {
                          setEditing({ initial: BUILT_IN_WORKFLOW });
                        }}
                      >
                        <Pencil aria-hidden="true" />
                        Customise
                      </Button>
                    ) : null
                  }
                />
              )}
              {list.map((t) => (
                <TemplateRow
                  key={t.id}
                  name={t.name}
                  description={t.description}
                  steps={t}
                  isDefault={t.is_default}
                  actions={
                    admin ? (
                      <TemplateActions
                        template={t}
                        onEdit={() => {
                          setEditing({ template: t });
                        }}
                        onDelete={() => {
                          setDeleting(t);
                        }}
                      />
                    ) : null
                  }
                />
              ))}
            </ul>
          )}
        </section>
        <Separator />
        <ApprovalValiditySection admin={admin} />
      </CardContent>
      {editing ? (
        <WorkflowTemplateDialog
          template={"template" in editing ? editing.template : null}
          {...("initial" in editing && editing.initial ? { initial: editing.initial } : {})}
          onClose={() => {
            setEditing(null);
          }}
        />
      ) : null}
      {deleting ? (
        <DeleteTemplateDialog
          template={deleting}
          onClose={() => {
            setDeleting(null);
          }}
        />
      ) : null}
    </Card>
  );
}

function TemplateRow({
  name,
  description,
  steps,
  isDefault,
  builtIn = false,
  actions,
}: {
  name: string;
  description: string;
  steps: Pick<WorkflowTemplateValues, "steps">;
  isDefault: boolean;
  builtIn?: boolean;
  actions: ReactNode;
}) {
  const titleId = useId();
  return (
    <li className="grid gap-3 p-4 sm:grid-cols-[minmax(0,1fr)_auto]" aria-labelledby={titleId} data-testid="workflow-template">
      <div className="grid min-w-0 gap-1">
        <p className="flex flex-wrap items-center gap-2">
          <span id={titleId} className="font-medium wrap-anywhere">
            {name}
          </span>
          {isDefault ? (
            <Badge variant="green">
              <Star aria-hidden="true" className="size-3" />
              Default
            </Badge>
          ) : null}
          {builtIn ? <Badge variant="gray">Built in</Badge> : null}
        </p>
        {description ? <p className="text-sm leading-6 text-muted-foreground wrap-anywhere">{description}</p> : null}
      </div>
      {/* Beside the name on wider screens; under the steps on a phone, where they would push the steps apart. */}
      {actions ? <div className="order-last flex flex-wrap gap-2 sm:order-none sm:col-start-2 sm:row-start-1 sm:justify-end">{actions}</div> : null}
      <WorkflowStages steps={steps.steps} className="sm:col-span-2" />
    </li>
  );
}

function TemplateActions({ template, onEdit, onDelete }: { template: WorkflowTemplate; onEdit: () => void; onDelete: () => void }) {
  const queryClient = useQueryClient();
  const makeDefault = useMutation({
    mutationFn: () => saveWorkflowTemplate(template.id, { ...template, is_default: true }),
    onSuccess: (t) => {
      toast.success(`${t.name} is now the default workflow`);
      void invalidateWorkflowTemplates(queryClient);
    },
    onError: (error) => {
      toastServerError("Default not changed", describeServerError(error, "The default workflow could not be changed."));
    },
  });
  return (
    <>
      <Button variant="outline" size="sm" aria-label={`Edit ${template.name}`} onClick={onEdit}>
        <Pencil aria-hidden="true" />
        Edit
      </Button>
      {template.is_default ? null : (
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Make ${template.name} the default`}
          disabled={makeDefault.isPending}
          onClick={() => {
            makeDefault.mutate();
          }}
        >
          <Star aria-hidden="true" />
          Make default
        </Button>
      )}
      <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" aria-label={`Delete ${template.name}`} onClick={onDelete}>
        <Trash2 aria-hidden="true" />
        Delete
      </Button>
    </>
  );
}

function DeleteTemplateDialog({ template, onClose }: { template: WorkflowTemplate; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteWorkflowTemplate(template.id),
    onSuccess: () => {
      toast.success(`${template.name} deleted`);
      void invalidateWorkflowTemplates(queryClient);
      onClose();
    },
  });
  const problem = remove.isError ? describeServerError(remove.error, "The workflow could not be deleted.") : null;
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !remove.isPending) onClose();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete {template.name}?</DialogTitle>
          <DialogDescription>
            Rounds it already started keep their steps.{" "}
            {template.is_default
              ? `It is the default: until you make another workflow the default, submissions get the built-in ${BUILT_IN_WORKFLOW.name}.`
              : "Submissions can no longer choose it."}
          </DialogDescription>
        </DialogHeader>
        {problem ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertDescription>{problem.detail ? `${problem.message} ${problem.detail}` : problem.message}</AlertDescription>
          </Alert>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() => {
              remove.mutate();
            }}
          >
            {remove.isPending ? "Deleting…" : "Delete workflow"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

const validityMessage = `The approval validity must be ${APPROVAL_VALIDITY.min} to ${APPROVAL_VALIDITY.max} months.`;
const validitySchema = z.object({
  approval_validity_months: z.number({ error: validityMessage }).int(validityMessage).min(APPROVAL_VALIDITY.min, validityMessage).max(APPROVAL_VALIDITY.max, validityMessage),
});
type ValidityValues = z.infer<typeof validitySchema>;

function months(n: number): string {
  return n === 1 ? "1 month" : `${n} months`;
}

function ApprovalValiditySection({ admin }: { admin: boolean }) {
  const profile = useProfile();
  const settings = useQuery(reviewSettingsQuery(profile.data?.org_id));
  return (
    <section aria-labelledby="approval-validity-heading" className="grid gap-3">
      <h3 id="approval-validity-heading" className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
        Approval validity
      </h3>
      {settings.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : settings.isError ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {errorMessage(settings.error, "The approval validity could not be loaded.")}
        </p>
      ) : admin ? (
        <ValidityForm settings={settings.data} />
      ) : (
        <p className="text-sm leading-6">
          Approved content stays valid for <span className="font-medium">{months(settings.data.approval_validity_months)}</span>; its
          owner is told 30 days before it expires.
        </p>
      )}
    </section>
  );
}

function ValidityForm({ settings }: { settings: ReviewSettings }) {
  const queryClient = useQueryClient();
  const id = useId();
  const form = useForm<ValidityValues>({
    resolver: zodResolver(validitySchema),
    values: { approval_validity_months: settings.approval_validity_months },
  });
  const { errors } = useFormState({ control: form.control });
  const error = errors.approval_validity_months?.message;
  const submit = form.handleSubmit(async ({ approval_validity_months }) => {
    try {
      const row = await setReviewSettings(approval_validity_months);
      toast.success(`Approvals now stay valid for ${months(row.approval_validity_months)}`);
      await invalidateReviewSettings(queryClient);
    } catch (e) {
      await applyServerError(form.setError, e, { fallback: "The approval validity could not be saved.", fields: ["approval_validity_months"] });
    }
  });

  return (
    <FormProvider {...form}>
      <form noValidate className="grid gap-3" onSubmit={(e) => void submit(e)}>
        <div className="grid gap-1.5">
          <Label htmlFor={id}>Approved content stays valid for</Label>
          <div className="flex flex-wrap items-center gap-3">
            <div className="flex items-center gap-2">
              <Input
                id={id}
                type="number"
                inputMode="numeric"
                min={APPROVAL_VALIDITY.min}
                max={APPROVAL_VALIDITY.max}
                className="w-24"
                aria-invalid={error ? true : undefined}
                aria-describedby={[`${id}-hint`, error ? `${id}-error` : ""].filter(Boolean).join(" ")}
                {...form.register("approval_validity_months", { valueAsNumber: true })}
              />
              <span className="text-sm text-muted-foreground">months</span>
            </div>
            <Button type="submit" disabled={form.formState.isSubmitting || !form.formState.isDirty}>
              {form.formState.isSubmitting ? "Saving…" : "Save"}
            </Button>
          </div>
          {error ? (
            <p id={`${id}-error`} role="alert" className="text-sm leading-5 font-medium text-destructive">
              {error}
            </p>
          ) : null}
          <p id={`${id}-hint`} className="text-xs leading-5 text-muted-foreground">
            {APPROVAL_VALIDITY.min} to {APPROVAL_VALIDITY.max} months; {APPROVAL_VALIDITY.default} unless you change it. An approval made from now on
            expires after this long, and the owner is told 30 days before; content approved earlier keeps its date.
            {settings.updated_at ? ` Last changed ${formatDate(settings.updated_at)}.` : ""}
          </p>
        </div>
        <FormError />
      </form>
    </FormProvider>
  );
}
