import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useId } from "react";
import { Controller, useFieldArray, useForm, useFormContext, useFormState, useWatch, type FieldErrors } from "react-hook-form";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { FormField, FormSelect } from "@/components/ui/form";
import { Input, Textarea } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import {
  invalidateWorkflowTemplates,
  REVIEWER_ROLES,
  saveWorkflowTemplate,
  WORKFLOW_LIMITS,
  type WorkflowTemplate,
  type WorkflowTemplateValues,
} from "@/entities/workflow-templates";
import {
  workflowTemplateFormValues,
  workflowTemplateSchema,
  type WorkflowTemplateFormInput,
  type WorkflowTemplateFormOutput,
} from "@/entities/workflow-templates/schema";
import { reviewerRoleLabel } from "@/lib/review-types";
import { WorkflowStages } from "./workflow-stages";

/**
 * Creates or edits a workflow template: its name and description, the
 * ordered steps (role, required, order number — equal numbers run in
 * parallel — and business days to decide), and whether it is the
 * organisation's default. `template` null with `initial` starts from those
 * values (the built-in workflow, to make it the organisation's own).
 */
export function WorkflowTemplateDialog({
  template,
  initial,
  onClose,
}: {
  template: WorkflowTemplate | null;
  initial?: WorkflowTemplateValues;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<WorkflowTemplateFormInput, unknown, WorkflowTemplateFormOutput>({
    resolver: zodResolver(workflowTemplateSchema),
    defaultValues: workflowTemplateFormValues(template ?? initial ?? null),
  });
  const save = useMutation({
    mutationFn: (values: WorkflowTemplateFormOutput) => saveWorkflowTemplate(template?.id ?? null, values),
    onSuccess: (saved) => {
      toast.success(template ? `${saved.name} saved` : `${saved.name} created`);
      void invalidateWorkflowTemplates(queryClient);
      onClose();
    },
  });
  const { register } = form;

  return (
    <EntityFormDialog
      form={form}
      title={template ? `Edit ${template.name}` : "New workflow"}
      description="The steps every round of a submission gets. Steps with the same order number run at the same time; a higher number starts once every required step before it has approved."
      onSubmit={(values) => save.mutateAsync(values)}
      onClose={onClose}
      submitLabel={template ? "Save workflow" : "Create workflow"}
      errorFallback="The workflow could not be saved."
    >
      <FormField name="name" label="Name">
        <Input maxLength={120} autoComplete="off" {...register("name")} />
      </FormField>
      <FormField name="description" label="Description" hint="Optional: when to use this workflow.">
        <Textarea rows={2} maxLength={2000} {...register("description")} />
      </FormField>
      <StepsEditor />
      <DefaultCheckbox />
    </EntityFormDialog>
  );
}

const NEW_STEP = { role: "reviewer_medical", required: true, order: 1, due_days: 5 } as const;

/** The message for the steps as a whole: the schema's (at `steps.root`) or the server's (at `steps`). */
function stepsMessage(errors: FieldErrors<WorkflowTemplateFormInput>): string | undefined {
  const e = errors.steps;
  return e?.root?.message ?? e?.message;
}

function StepsEditor() {
  const { control, register } = useFormContext<WorkflowTemplateFormInput, unknown, WorkflowTemplateFormOutput>();
  const { fields, append, remove, move } = useFieldArray({ control, name: "steps" });
  const steps = useWatch({ control, name: "steps" });
  const { errors } = useFormState({ control, name: "steps" });
  const message = stepsMessage(errors);
  const headingId = useId();
  const messageId = useId();

  return (
    <section aria-labelledby={headingId} aria-describedby={message ? messageId : undefined} className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-medium">
          Steps
        </h3>
        <Button
          variant="outline"
          size="sm"
          disabled={fields.length >= WORKFLOW_LIMITS.steps}
          onClick={() => {
            const last = steps.at(-1);
            append({ ...NEW_STEP, order: last ? Math.min(WORKFLOW_LIMITS.order, last.order) : 1 });
          }}
        >
          <Plus aria-hidden="true" />
          Add step
        </Button>
      </div>
      <ol className="grid gap-3">
        {fields.map((field, i) => {
          const n = i + 1;
          const role = reviewerRoleLabel(steps[i]?.role ?? field.role);
          return (
            <li key={field.id} className="grid min-w-0 gap-3 rounded-lg border bg-muted/20 p-3" aria-label={`Step ${n}: ${role}`}>
              <div className="flex items-center justify-between gap-2">
                <span className="text-sm font-medium">Step {n}</span>
                <div className="flex items-center gap-1">
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8"
                    aria-label={`Move step ${n} up`}
                    disabled={i === 0}
                    onClick={() => {
                      move(i, i - 1);
                    }}
                  >
                    <ArrowUp aria-hidden="true" />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8"
                    aria-label={`Move step ${n} down`}
                    disabled={i === fields.length - 1}
                    onClick={() => {
                      move(i, i + 1);
                    }}
                  >
                    <ArrowDown aria-hidden="true" />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8 text-destructive hover:text-destructive"
                    aria-label={`Remove step ${n}`}
                    disabled={fields.length === 1}
                    onClick={() => {
                      remove(i);
                    }}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
              </div>
              <div className="grid grid-cols-2 items-start gap-3 sm:grid-cols-[minmax(0,1fr)_7rem_9rem]">
                <FormField name={`steps.${i}.role`} label="Reviewer" className="col-span-2 sm:col-span-1">
                  <FormSelect name={`steps.${i}.role`}>
                    {REVIEWER_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {reviewerRoleLabel(r)} review
                      </option>
                    ))}
                  </FormSelect>
                </FormField>
                <FormField name={`steps.${i}.order`} label="Order">
                  <Input type="number" inputMode="numeric" min={1} max={WORKFLOW_LIMITS.order} {...register(`steps.${i}.order`, { valueAsNumber: true })} />
                </FormField>
                <FormField name={`steps.${i}.due_days`} label="Business days">
                  <Input type="number" inputMode="numeric" min={1} max={WORKFLOW_LIMITS.dueDays} {...register(`steps.${i}.due_days`, { valueAsNumber: true })} />
                </FormField>
              </div>
              <RequiredSwitch index={i} />
            </li>
          );
        })}
      </ol>
      {message ? (
        <p id={messageId} role="alert" className="text-sm leading-5 font-medium text-destructive">
          {message}
        </p>
      ) : null}
      <div className="grid gap-1.5 rounded-lg border border-dashed p-3">
        <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">How a round runs</p>
        <WorkflowStages steps={steps.filter((s) => Number.isInteger(s.order) && Number.isInteger(s.due_days))} />
      </div>
    </section>
  );
}

function RequiredSwitch({ index }: { index: number }) {
  const { control } = useFormContext<WorkflowTemplateFormInput>();
  const id = useId();
  return (
    <Controller
      control={control}
      name={`steps.${index}.required`}
      render={({ field }) => (
        <div className="flex items-start gap-3">
          <Switch
            id={id}
            ref={field.ref}
            checked={field.value}
            onCheckedChange={field.onChange}
            onBlur={field.onBlur}
            aria-describedby={`${id}-hint`}
          />
          <div className="grid gap-0.5">
            <label htmlFor={id} className="text-sm leading-6 font-medium">
              Required
            </label>
            <p id={`${id}-hint`} className="text-xs leading-5 text-muted-foreground">
              {field.value ? "The round waits for this decision." : "Optional: the round never waits for it; undecided, it is skipped."}
            </p>
          </div>
        </div>
      )}
    />
  );
}

function DefaultCheckbox() {
  const { control } = useFormContext<WorkflowTemplateFormInput>();
  const id = useId();
  return (
    <Controller
      control={control}
      name="is_default"
      render={({ field }) => (
        <div className="flex items-start gap-3 rounded-lg border p-3">
          <Checkbox
            id={id}
            ref={field.ref}
            className="mt-0.5"
            checked={field.value}
            onCheckedChange={(v) => {
              field.onChange(v === true);
            }}
            aria-describedby={`${id}-hint`}
          />
          <div className="grid gap-0.5">
            <label htmlFor={id} className="text-sm leading-5 font-medium">
              Default workflow
            </label>
            <p id={`${id}-hint`} className="text-xs leading-5 text-muted-foreground">
              Used for every submission that names no other workflow. Only one workflow is the default.
            </p>
          </div>
        </div>
      )}
    />
  );
}
