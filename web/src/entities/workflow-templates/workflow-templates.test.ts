import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { reviewSettingsKeys } from "@/entities/review-settings";
import { templateChoicesKey } from "@/entities/reviews";
import { BUILT_IN_WORKFLOW, invalidateWorkflowTemplates, readSteps, workflowStages, workflowTemplateKeys, workflowTemplatesQuery } from "./index";
import { workflowTemplateFormValues, workflowTemplateSchema } from "./schema";

describe("the built-in workflow", () => {
  it("is the server's: medical, legal and regulatory in parallel, required, 5 business days", () => {
    expect(BUILT_IN_WORKFLOW.name).toBe("Standard MLR review");
    expect(BUILT_IN_WORKFLOW.steps).toEqual([
      { role: "reviewer_medical", required: true, order: 1, due_days: 5 },
      { role: "reviewer_legal", required: true, order: 1, due_days: 5 },
      { role: "reviewer_regulatory", required: true, order: 1, due_days: 5 },
    ]);
  });
});

describe("readSteps", () => {
  it("keeps the steps as stored and leaves out what it cannot read", () => {
    expect(
      readSteps([
        { role: "reviewer_legal", required: true, order: 2, due_days: 3 },
        { role: "marketer", required: true, order: 1, due_days: 3 },
        { role: "reviewer_medical", order: "1", due_days: 3 },
        null,
        { role: "reviewer_medical", order: 1, due_days: 4 },
      ]),
    ).toEqual([
      { role: "reviewer_legal", required: true, order: 2, due_days: 3 },
      { role: "reviewer_medical", required: false, order: 1, due_days: 4 },
    ]);
    expect(readSteps("not a list")).toEqual([]);
  });
});

describe("workflowStages", () => {
  it("groups steps of equal order, lowest order first, keeping each stage's steps in list order", () => {
    const stages = workflowStages([
      { role: "reviewer_regulatory", required: false, order: 3, due_days: 2 },
      { role: "reviewer_medical", required: true, order: 1, due_days: 5 },
      { role: "reviewer_legal", required: true, order: 3, due_days: 4 },
    ]);
    expect(stages.map((s) => [s.order, s.steps.map((x) => x.role)])).toEqual([
      [1, ["reviewer_medical"]],
      [3, ["reviewer_regulatory", "reviewer_legal"]],
    ]);
  });
});

describe("workflowTemplateSchema", () => {
  const valid = workflowTemplateFormValues(BUILT_IN_WORKFLOW);
  const messages = (values: unknown) => {
    const result = workflowTemplateSchema.safeParse(values);
    return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it("accepts the built-in workflow and trims the name", () => {
    const parsed = workflowTemplateSchema.parse({ ...valid, name: "  Standard  " });
    expect(parsed.name).toBe("Standard");
    expect(parsed.steps).toHaveLength(3);
  });

  it("refuses what the server refuses, in its words", () => {
    expect(messages({ ...valid, name: " " })).toEqual(["name: The name is required."]);
    expect(messages({ ...valid, steps: [] })).toEqual(["steps: A workflow has 1 to 20 steps."]);
    expect(messages({ ...valid, steps: valid.steps.map((s) => ({ ...s, required: false })) })).toEqual(["steps: A workflow needs at least one required step."]);
    expect(messages({ ...valid, steps: [{ role: "reviewer_medical", required: true, order: 100, due_days: 0 }] })).toEqual([
      "steps.0.order: The order must be 1 to 99.",
      "steps.0.due_days: The due days must be 1 to 60 business days.",
    ]);
    expect(messages({ ...valid, steps: [{ role: "reviewer_medical", required: true, order: Number.NaN, due_days: 1.5 }] })).toEqual([
      "steps.0.order: The order must be 1 to 99.",
      "steps.0.due_days: The due days must be 1 to 60 business days.",
    ]);
    expect(messages({ ...valid, steps: Array.from({ length: 21 }, () => valid.steps[0]) })).toEqual(["steps: A workflow has 1 to 20 steps."]);
  });

  it("starts a new workflow with one required medical step", () => {
    expect(workflowTemplateFormValues(null)).toEqual({
      name: "",
      description: "",
      steps: [{ role: "reviewer_medical", required: true, order: 1, due_days: 5 }],
      is_default: false,
    });
  });
});

describe("workflow template keys", () => {
  it("refresh every template list — Settings' and a submission's choices — and leave the review settings alone", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    client.setQueryData(workflowTemplatesQuery().queryKey, []);
    client.setQueryData(templateChoicesKey, []);
    client.setQueryData(reviewSettingsKeys.detail("org-1"), { approval_validity_months: 12 });
    expect(workflowTemplatesQuery().queryKey.slice(0, 1)).toEqual([...workflowTemplateKeys.all]);
    await invalidateWorkflowTemplates(client);
    expect(client.getQueryState(workflowTemplateKeys.list())?.isInvalidated).toBe(true);
    expect(client.getQueryState(templateChoicesKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(reviewSettingsKeys.detail("org-1"))?.isInvalidated).toBe(false);
    client.clear();
  });
});
