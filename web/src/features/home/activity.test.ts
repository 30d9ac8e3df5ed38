import { describe, expect, it } from "vitest";
import { actorName, describeAction, firstName, greeting, relativeTime } from "./activity";

const base = { actor_id: "u1", object_id: null, object_type: null, meta: null };

describe("describeAction", () => {
  it("words the onboarding entries", () => {
    expect(describeAction({ ...base, action: "organization_created", meta: { organization_name: "Acme", industry: null } })).toBe(
      "set up the organization Acme",
    );
    expect(
      describeAction({ ...base, action: "user_invited", meta: { invited_email: "a@x.io", invited_role: "reviewer_legal", invitation_method: "onboarding_wizard" } }),
    ).toBe("invited a@x.io as Legal reviewer");
    expect(describeAction({ ...base, action: "onboarding_completed" })).toBe("completed the workspace setup");
    expect(describeAction({ ...base, action: "invite_accepted", meta: { role: "marketer" } })).toBe("joined as Marketer");
  });

  it("words the data API's table writes", () => {
    expect(describeAction({ ...base, action: "orgs.insert" })).toBe("created the organization");
    expect(describeAction({ ...base, action: "profiles_v2.update", object_id: "u1" })).toBe("updated their profile");
    expect(describeAction({ ...base, action: "profiles_v2.update", object_id: "u2" })).toBe("updated a member's profile");
    expect(describeAction({ ...base, action: "some_table.delete" })).toBe("deleted some table");
  });

  it("reads an unknown action as words, never as code", () => {
    expect(describeAction({ ...base, action: "asset_submitted_for_review" })).toBe("asset submitted for review");
  });
});

describe("actorName", () => {
  const names = new Map([["u1", "Ada Admin"]]);
  it("prefers the member's name, then the recorded e-mail", () => {
    expect(actorName({ actor_id: "u1", actor_email: "ada@x.io" }, names)).toBe("Ada Admin");
    expect(actorName({ actor_id: "gone", actor_email: "old@x.io" }, names)).toBe("old@x.io");
    expect(actorName({ actor_id: null, actor_email: "" }, names)).toBe("Someone");
    expect(actorName({ actor_id: "service_role", actor_email: "" }, names)).toBe("Fairbalance");
  });
});

describe("relativeTime", () => {
  const now = new Date("2026-05-10T12:00:00Z");
  it("says how long ago, in words", () => {
    expect(relativeTime("2026-05-10T11:59:50Z", now)).toBe("just now");
    expect(relativeTime("2026-05-10T11:55:00Z", now)).toBe("5 minutes ago");
    expect(relativeTime("2026-05-10T09:00:00Z", now)).toBe("3 hours ago");
    expect(relativeTime("2026-05-09T12:00:00Z", now)).toBe("yesterday");
    expect(relativeTime("2026-05-17T12:00:00Z", now)).toBe("next week");
    expect(relativeTime("not a date", now)).toBe("");
  });
});

describe("greeting", () => {
  it("follows the time of day", () => {
    expect(greeting(new Date(2026, 4, 10, 8))).toBe("Good morning");
    expect(greeting(new Date(2026, 4, 10, 13))).toBe("Good afternoon");
    expect(greeting(new Date(2026, 4, 10, 20))).toBe("Good evening");
  });

  it("greets by first name, else by the e-mail's local part", () => {
    expect(firstName("Ada Lovelace", "ada@x.io")).toBe("Ada");
    expect(firstName("  ", "grace@x.io")).toBe("grace");
    expect(firstName(null, null)).toBe("");
  });
});
