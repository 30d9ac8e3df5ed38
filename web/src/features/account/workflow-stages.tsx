import { Badge } from "@/components/ui/badge";
import { workflowStages, type WorkflowStep } from "@/entities/workflow-templates";
import { reviewerRoleLabel } from "@/lib/review-types";
import { cn } from "@/lib/utils";

function days(n: number): string {
  return n === 1 ? "1 business day" : `${n} business days`;
}

/**
 * A workflow's steps as the stages a round runs through: one line per
 * order number, its steps side by side (they run in parallel), each with
 * its business days and whether it is optional.
 */
export function WorkflowStages({ steps, className }: { steps: readonly WorkflowStep[]; className?: string }) {
  const stages = workflowStages(steps);
  if (stages.length === 0) return <p className="text-sm text-muted-foreground">No steps.</p>;
  return (
    <ol className={cn("grid gap-2", className)}>
      {stages.map((stage, i) => (
        <li key={stage.order} className="flex min-w-0 items-start gap-2.5">
          <span
            aria-hidden="true"
            className="mt-0.5 inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-primary/10 text-xs font-semibold text-primary"
          >
            {i + 1}
          </span>
          <div className="grid min-w-0 gap-1">
            <span className="sr-only">
              {i === 0 ? "First" : "Then"}
              {stage.steps.length > 1 ? ", in parallel:" : ":"}
            </span>
            <ul className="flex min-w-0 flex-wrap gap-1.5">
              {stage.steps.map((s, j) => (
                <li
                  key={j}
                  className="inline-flex max-w-full flex-wrap items-center gap-x-1.5 gap-y-0.5 rounded-md border bg-card px-2 py-1 text-xs leading-5"
                >
                  <span className="font-medium">{reviewerRoleLabel(s.role)}</span>
                  <span className="text-muted-foreground">{days(s.due_days)}</span>
                  {s.required ? null : (
                    <Badge variant="gray" className="px-1.5 py-0 text-[0.6875rem] leading-4">
                      Optional
                    </Badge>
                  )}
                </li>
              ))}
            </ul>
            {stage.steps.length > 1 ? (
              <span aria-hidden="true" className="text-xs text-muted-foreground">
                In parallel
              </span>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
