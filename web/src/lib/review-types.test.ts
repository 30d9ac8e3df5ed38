import { describe, expect, it } from "vitest";
import { byStepOrder, dueOf, isReviewerRole, reviewerRoleLabel, reviewStatusLabel, stepStatusLabel, stepStatusVariant } from "./review-types";

// A fixed local "now": Wednesday 25 November 2026, 15:00 in the browser's zone.
const now = new Date(2026, 10, 25, 15, 0, 0);
const at = (day: number, hour: number) => new Date(2026, 10, day, hour, 0, 0).toISOString();

describe("dueOf", () => {
  it("reads a due time by local calendar days", () => {
    expect(dueOf(at(25, 18), now)).toEqual({ state: "today", label: "Due today" });
    expect(dueOf(at(26, 9), now)).toEqual({ state: "tomorrow", label: "Due tomorrow" });
    expect(dueOf(at(26, 23), now)).toEqual({ state: "tomorrow", label: "Due tomorrow" });
    expect(dueOf(at(30, 11), now)).toEqual({ state: "later", label: "Due in 5 days" });
  });

  it("says how late an overdue one is", () => {
    expect(dueOf(at(25, 9), now)).toEqual({ state: "overdue", label: "Overdue since today" });
    expect(dueOf(at(24, 11), now)).toEqual({ state: "overdue", label: "Overdue by 1 day" });
    expect(dueOf(at(20, 11), now)).toEqual({ state: "overdue", label: "Overdue by 5 days" });
  });

  it("takes the server's word on overdue over this browser's clock", () => {
    // The server saw it past due; a browser clock a little behind must not call it "due today".
    expect(dueOf(at(25, 16), now, true)?.state).toBe("overdue");
    // The server said not overdue: a browser clock running ahead does not make it so.
    expect(dueOf(at(25, 14), now, false)).toEqual({ state: "today", label: "Due today" });
  });

  it("has nothing to say without a due time", () => {
    expect(dueOf(null, now)).toBeNull();
    expect(dueOf("", now)).toBeNull();
    expect(dueOf("not a date", now)).toBeNull();
  });
});

describe("labels", () => {
  it("name roles, rounds and steps as people read them, unknown values as given", () => {
    expect(reviewerRoleLabel("reviewer_regulatory")).toBe("Regulatory");
    expect(reviewStatusLabel("open")).toBe("In review");
    expect(reviewStatusLabel("changes_requested")).toBe("Changes requested");
    expect(stepStatusLabel("approved_with_changes")).toBe("Approved with changes");
    expect(stepStatusLabel("escalated")).toBe("escalated");
    expect(stepStatusVariant("rejected")).toBe("red");
    expect(stepStatusVariant(null)).toBe("gray");
  });

  it("know who reviews", () => {
    expect(isReviewerRole("reviewer_legal")).toBe(true);
    expect(isReviewerRole("marketer")).toBe(false);
    expect(isReviewerRole(undefined)).toBe(false);
  });
});

describe("byStepOrder", () => {
  it("lists steps by order, then medical, legal, regulatory", () => {
    const steps = [
      { id: "r", step_order: 1, role: "reviewer_regulatory" },
      { id: "l2", step_order: 2, role: "reviewer_legal" },
      { id: "m", step_order: 1, role: "reviewer_medical" },
      { id: "l", step_order: 1, role: "reviewer_legal" },
    ];
    expect(byStepOrder(steps).map((s) => s.id)).toEqual(["m", "l", "r", "l2"]);
    // The input is left as it was.
    expect(steps[0]?.id).toBe("r");
  });
});
