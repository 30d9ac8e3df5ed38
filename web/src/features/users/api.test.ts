import { describe, expect, it } from "vitest";
import { canManage, inviteLink, parseIssued } from "./api";

describe("canManage", () => {
  it("lets owners and admins manage roles up to their own", () => {
    expect(canManage("admin", "marketer")).toBe(true);
    expect(canManage("admin", "admin")).toBe(true);
    expect(canManage("admin", "owner")).toBe(false);
    expect(canManage("owner", "owner")).toBe(true);
  });

  it("gives everyone else nothing to manage", () => {
    expect(canManage("marketer", "viewer")).toBe(false);
    expect(canManage("reviewer_legal", "viewer")).toBe(false);
    expect(canManage(undefined, "viewer")).toBe(false);
  });
});

describe("inviteLink", () => {
  it("is the sign-up screen with the token", () => {
    expect(inviteLink("abc_DEF-123", "https://review.example.com")).toBe("https://review.example.com/signup?invite=abc_DEF-123");
  });
});

describe("parseIssued", () => {
  it("reads what create_invite and resend_invite return", () => {
    expect(parseIssued({ id: "i1", email: "a@example.com", role: "viewer", token: "t", expires_at: "2026-11-29T12:00:00Z" })).toEqual({
      id: "i1",
      email: "a@example.com",
      role: "viewer",
      token: "t",
      expires_at: "2026-11-29T12:00:00Z",
    });
  });

  it("refuses an answer without a token", () => {
    expect(() => parseIssued({ id: "i1" })).toThrow("The server did not return an invitation link.");
    expect(() => parseIssued(null)).toThrow();
  });
});
