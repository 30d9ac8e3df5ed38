import { describe, expect, it } from "vitest";
import type { VersionFinding } from "@/entities/compliance";
import { canDismissFinding, canReopenFinding, findingMarks } from "./findings";

// Who is offered dismiss and reopen, and which findings the viewer marks where.

const viewer = (role: string, over: { readOnly?: boolean; userId?: string | null } = {}) => ({ userId: "u1", role, readOnly: false, ...over });

function finding(id: string, over: Partial<VersionFinding>): VersionFinding {
  return {
    id,
    rule: "superlative",
    rule_version: 1,
    severity: "critical",
    state: "open",
    start: 0,
    end: 8,
    quote: "the best",
    message: "",
    guidance: "",
    target: { type: "text", exact: "the best", start: 0, end: 8 },
    sort_page: null,
    sort_pos: null,
    dismissed_by: null,
    dismissed_by_name: null,
    dismissed_at: null,
    dismiss_reason: null,
    first_version_id: null,
    ...over,
  };
}

describe("who is offered what on a finding", () => {
  it("writers and reviewers dismiss; reviewers and admins reopen; viewers and the demo neither", () => {
    const roles = ["owner", "admin", "marketer", "reviewer_medical", "reviewer_legal", "viewer"];
    expect(roles.map((r) => canDismissFinding(viewer(r)))).toEqual([true, true, true, true, true, false]);
    expect(roles.map((r) => canReopenFinding(viewer(r)))).toEqual([true, true, false, true, true, false]);
    expect(canDismissFinding(viewer("admin", { readOnly: true }))).toBe(false);
    expect(canReopenFinding(viewer("admin", { userId: null }))).toBe(false);
  });
});

describe("the findings the viewer marks", () => {
  it("marks open findings with a quote, each on the page its start is on", () => {
    const starts = [0, 100, 250];
    const marks = findingMarks(
      [
        finding("a", { target: { type: "text", exact: "the best", start: 120, end: 128 } }),
        finding("b", { state: "dismissed" }),
        finding("c", { target: null }),
        finding("d", { target: { type: "text", exact: "guaranteed", start: 260 }, severity: "warning" }),
        finding("e", { sort_page: 1, target: { type: "text", exact: "no side effects", start: 5 } }),
      ],
      starts,
    );
    expect(marks.map((m) => [m.id, m.page, m.severity])).toEqual([
      ["a", 2, "critical"],
      ["d", 3, "warning"],
      ["e", 1, "critical"],
    ]);
  });
});
