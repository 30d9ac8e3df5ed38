import { describe, expect, it } from "vitest";
import { actorName, relativeTime } from "./activity";

describe("actorName", () => {
  const names = new Map([["u1", "Ada Admin"]]);
  it("prefers the member's name, then the recorded e-mail", () => {
    expect(actorName({ actor_id: "u1", actor_email: "ada@x.io" }, names)).toBe("Ada Admin");
    expect(actorName({ actor_id: "gone", actor_email: "old@x.io" }, names)).toBe("old@x.io");
    expect(actorName({ actor_id: null, actor_email: "" }, names)).toBe("Someone");
    expect(actorName({ actor_id: "service_role", actor_email: "" }, names)).toBe("Fairbalance");
    // The review workflow's sweeps (overdue marks, expiries) record the actor "system".
    expect(actorName({ actor_id: "system", actor_email: "" }, names)).toBe("Fairbalance");
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
