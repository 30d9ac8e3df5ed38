import { describe, expect, it } from "vitest";
import { nextPilotStep, parsePilotStatus, pilotProgress, pilotStepDoneBy, pilotStepLink, pilotStepUnavailable } from "./pilot-status";

const answer = {
  steps: [
    { key: "org_created", title: "Create the organisation", done: true, detail: "Acme, created 1 May 2026" },
    { key: "members_invited", title: "Invite at least two colleagues", done: false, detail: "1 invited, 0 members besides the creator" },
    { key: "first_asset", title: "Create the first asset", done: false, detail: "Available when the content hub is built" },
  ],
  done_count: 1,
  total: 3,
};

describe("parsePilotStatus", () => {
  it("reads the server's answer", () => {
    const s = parsePilotStatus(answer);
    expect(s.total).toBe(3);
    expect(s.done_count).toBe(1);
    expect(s.steps[0]).toEqual(answer.steps[0]);
  });

  it("drops malformed steps and recomputes the counts from the steps", () => {
    const s = parsePilotStatus({ steps: [{ key: "x", title: "X", done: true }, { title: "no key" }, null], done_count: 9, total: 9 });
    expect(s).toEqual({ steps: [{ key: "x", title: "X", done: true, detail: "" }], done_count: 1, total: 1 });
  });

  it("is empty for anything that is not an answer", () => {
    expect(parsePilotStatus(null)).toEqual({ steps: [], done_count: 0, total: 0 });
    expect(parsePilotStatus("nope")).toEqual({ steps: [], done_count: 0, total: 0 });
  });
});

describe("pilotProgress", () => {
  it("is the share of steps done, in whole percent rounded down", () => {
    expect(pilotProgress({ done_count: 0, total: 10 })).toBe(0);
    expect(pilotProgress({ done_count: 1, total: 3 })).toBe(33);
    expect(pilotProgress({ done_count: 2, total: 3 })).toBe(66);
    expect(pilotProgress({ done_count: 10, total: 10 })).toBe(100);
  });

  it("reaches 100 only when every step is done, and never goes outside 0–100", () => {
    expect(pilotProgress({ done_count: 199, total: 200 })).toBe(99);
    expect(pilotProgress({ done_count: 12, total: 10 })).toBe(100);
    expect(pilotProgress({ done_count: -1, total: 10 })).toBe(0);
    expect(pilotProgress({ done_count: 0, total: 0 })).toBe(0);
  });
});

describe("next step", () => {
  it("is the first open step the team can do now", () => {
    const s = parsePilotStatus(answer);
    expect(nextPilotStep(s)?.key).toBe("members_invited");
    expect(s.steps.filter(pilotStepUnavailable).map((x) => x.key)).toEqual(["first_asset"]);
  });

  it("is undefined when only unavailable steps are left", () => {
    const s = parsePilotStatus({ steps: [answer.steps[0], answer.steps[2]] });
    expect(nextPilotStep(s)).toBeUndefined();
  });

  it("links each known step to the screen where it is done", () => {
    expect(pilotStepLink("members_invited", "admin")?.to).toBe("/users");
    expect(pilotStepLink("audit_verified", "admin")?.to).toBe("/audit-log");
    expect(pilotStepLink("unknown", "admin")).toBeUndefined();
    expect(pilotStepLink("first_product", "owner")?.to).toBe("/settings");
    expect(pilotStepLink("first_asset", "admin")?.to).toBe("/content-hub");
  });

  it("links a step only for those whose role can do it", () => {
    for (const key of ["org_created", "members_invited", "reviewers_joined", "admin_mfa", "security_reviewed", "first_product"]) {
      expect(pilotStepLink(key, "marketer")).toBeUndefined();
      expect(pilotStepLink(key, "viewer")).toBeUndefined();
      expect(pilotStepLink(key, "reviewer_medical")).toBeUndefined();
    }
    expect(pilotStepLink("first_asset", "marketer")?.to).toBe("/content-hub");
    expect(pilotStepLink("first_asset", "reviewer_legal")).toBeUndefined();
    expect(pilotStepLink("first_asset", "viewer")).toBeUndefined();
    expect(pilotStepLink("audit_verified", "viewer")?.to).toBe("/audit-log");
    // Before the role is known there is no button to take back.
    expect(pilotStepLink("audit_verified", undefined)).toBeUndefined();
    expect(pilotStepDoneBy("members_invited")).toBe("Done by an administrator");
  });
});
