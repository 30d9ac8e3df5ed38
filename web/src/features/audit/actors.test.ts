import { describe, expect, it } from "vitest";
import { actorLabel } from "./actors";
import type { AuditMember } from "./api";

describe("actorLabel", () => {
  const members = new Map<string, AuditMember>([["u1", { id: "u1", email: "ada@x.io", full_name: "Ada Admin", role: "admin", deactivated_at: null }]]);

  it("names members, then the recorded e-mail, then a former member", () => {
    expect(actorLabel({ actor_id: "u1", actor_email: "" }, members)).toEqual({ name: "Ada Admin", email: "ada@x.io" });
    expect(actorLabel({ actor_id: "gone", actor_email: "old@x.io" }, members)).toEqual({ name: "old@x.io", email: "" });
    expect(actorLabel({ actor_id: "gone", actor_email: "" }, members)).toEqual({ name: "Former member", email: "gone" });
  });

  it("calls the server's own work the system: the service role and the scheduled jobs", () => {
    expect(actorLabel({ actor_id: "service_role", actor_email: "" }, members).name).toBe("System");
    expect(actorLabel({ actor_id: "system", actor_email: "" }, members)).toEqual({ name: "System", email: "" });
    expect(actorLabel({ actor_id: null, actor_email: "" }, members).name).toBe("System");
  });
});
