import { z } from "zod";
import { oneOfRule, textRule } from "@/lib/field-rules";
import { REVIEWER_ROLES, WORKFLOW_LIMITS, type WorkflowTemplate, type WorkflowTemplateValues } from "./index";

/** A whole number from `min` to `max`, in the words the server uses for it. */
function wholeNumber(min: number, max: number, message: string) {
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
}

/** A step as the template form edits it, with the server's checks (fairbalance.WorkflowProblems). */
export const workflowStepSchema = z.object({
  role: oneOfRule("The role", REVIEWER_ROLES),
  required: z.boolean(),
  order: wholeNumber(1, WORKFLOW_LIMITS.order, `The order must be 1 to ${WORKFLOW_LIMITS.order}.`),
  due_days: wholeNumber(1, WORKFLOW_LIMITS.dueDays, `The due days must be 1 to ${WORKFLOW_LIMITS.dueDays} business days.`),
});

/** A workflow template as its form edits it (service: saveWorkflowTemplate). */
export const workflowTemplateSchema = z.object({
  name: textRule("The name", 1, 120),
  description: textRule("The description", 0, 2000),
  steps: z
    .array(workflowStepSchema)
    .min(1, `A workflow has 1 to ${WORKFLOW_LIMITS.steps} steps.`)
    .max(WORKFLOW_LIMITS.steps, `A workflow has 1 to ${WORKFLOW_LIMITS.steps} steps.`)
    .refine((steps) => steps.length === 0 || steps.some((s) => s.required), "A workflow needs at least one required step."),
  is_default: z.boolean(),
});

export type WorkflowTemplateFormInput = z.input<typeof workflowTemplateSchema>;
export type WorkflowTemplateFormOutput = z.output<typeof workflowTemplateSchema> & WorkflowTemplateValues;

/** The form's values for `template` (the built-in workflow's for a new one). */
export function workflowTemplateFormValues(template: WorkflowTemplate | WorkflowTemplateValues | null): WorkflowTemplateFormInput {
  if (!template) return { name: "", description: "", steps: [{ role: "reviewer_medical", required: true, order: 1, due_days: 5 }], is_default: false };
  return {
    name: template.name,
    description: template.description,
    steps: template.steps.map((s) => ({ ...s })),
    is_default: template.is_default,
  };
}
