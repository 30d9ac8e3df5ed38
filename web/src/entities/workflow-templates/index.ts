import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import { Constants, type Database } from "@/lib/database.types";
import type { Row } from "@/lib/db-types";
import { getSupabase } from "@/lib/supabase";

/** The reviewer roles a workflow step is decided by. */
export const REVIEWER_ROLES = Constants.public.Enums.reviewer_role;
export type ReviewerRole = Database["public"]["Enums"]["reviewer_role"];

/**
 * One step of a workflow: who decides it, whether a round needs it, when
 * it starts (steps of equal `order` run in parallel; a higher order starts
 * once every required step of the lower ones approved) and how many
 * business days it has (fairbalance.WorkflowStep).
 */
export interface WorkflowStep {
  role: ReviewerRole;
  required: boolean;
  order: number;
  due_days: number;
}

/** A workflow template (table `workflow_templates`) with its steps read. */
export type WorkflowTemplate = Omit<Row<"workflow_templates">, "steps"> & { steps: WorkflowStep[] };

/** What save_workflow_template takes. */
export interface WorkflowTemplateValues {
  name: string;
  description: string;
  steps: WorkflowStep[];
  is_default: boolean;
}

/** The server's limits of a template (fairbalance: MaxWorkflowSteps, MaxStepOrder, MaxStepDueDays). */
export const WORKFLOW_LIMITS = { steps: 20, order: 99, dueDays: 60 } as const;

/**
 * The workflow that ships (fairbalance.DefaultWorkflowSteps): what a
 * submission gets while the organisation has marked none of its own as
 * the default — medical, legal and regulatory in parallel, all required,
 * 5 business days each.
 */
export const BUILT_IN_WORKFLOW: WorkflowTemplateValues = {
  name: "Standard MLR review",
  description: "Medical, legal and regulatory review in parallel.",
  steps: REVIEWER_ROLES.map((role) => ({ role, required: true, order: 1, due_days: 5 })),
  is_default: true,
};

/**
 * Every template query sits under `workflow-templates`: Settings' list here,
 * and the choices a submission offers (entities/reviews' templateChoicesKey),
 * so that a template saved in Settings refreshes both.
 */
export const workflowTemplateKeys = {
  all: ["workflow-templates"] as const,
  list: () => [...workflowTemplateKeys.all, "list"] as const,
};

function isRole(value: unknown): value is ReviewerRole {
  return typeof value === "string" && (REVIEWER_ROLES as readonly string[]).includes(value);
}

/** A template's steps as stored (JSON); anything unreadable is left out rather than shown wrong. */
export function readSteps(raw: unknown): WorkflowStep[] {
  if (!Array.isArray(raw)) return [];
  const out: WorkflowStep[] = [];
  for (const s of raw as unknown[]) {
    if (typeof s !== "object" || s === null) continue;
    const { role, required, order, due_days } = s as Record<string, unknown>;
    if (!isRole(role) || typeof order !== "number" || typeof due_days !== "number") continue;
    out.push({ role, required: required === true, order, due_days });
  }
  return out;
}

/** The organisation's workflow templates: the default first, then by name. */
export function workflowTemplatesQuery() {
  return queryOptions({
    queryKey: workflowTemplateKeys.list(),
    queryFn: async (): Promise<WorkflowTemplate[]> => {
      const sb = await getSupabase();
      const rows = unwrap(
        await sb.from("workflow_templates").select("*").order("is_default", { ascending: false }).order("name", { ascending: true }),
      );
      return rows.map((r) => ({ ...r, steps: readSteps(r.steps) }));
    },
  });
}

/**
 * Creates (id null) or replaces a template. Every field is sent, the
 * default flag too: the server treats a missing one as "not the default".
 */
export async function saveWorkflowTemplate(id: string | null, values: WorkflowTemplateValues): Promise<WorkflowTemplate> {
  const sb = await getSupabase();
  const row = unwrap(
    await sb.rpc("save_workflow_template", {
      ...(id ? { template_id: id } : {}),
      name: values.name,
      description: values.description,
      steps: values.steps.map(({ role, required, order, due_days }) => ({ role, required, order, due_days })),
      is_default: values.is_default,
    }),
  ) as Row<"workflow_templates">;
  return { ...row, steps: readSteps(row.steps) };
}

/** Deletes a template; rounds it already started keep their steps and its name. */
export async function deleteWorkflowTemplate(id: string): Promise<void> {
  const sb = await getSupabase();
  unwrap(await sb.rpc("delete_workflow_template", { template_id: id }));
}

/**
 * Steps grouped into the stages a round runs through, in order: the
 * steps of one stage run in parallel.
 */
export function workflowStages(steps: readonly WorkflowStep[]): { order: number; steps: WorkflowStep[] }[] {
  const stages = new Map<number, WorkflowStep[]>();
  for (const s of steps) stages.set(s.order, [...(stages.get(s.order) ?? []), s]);
  return [...stages.entries()].sort(([a], [b]) => a - b).map(([order, list]) => ({ order, steps: list }));
}

/** Refreshes every screen that lists templates (Settings, a submission's template picker). */
export async function invalidateWorkflowTemplates(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: workflowTemplateKeys.all });
}
