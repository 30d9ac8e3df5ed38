import { describe, expect, it } from "vitest";
import {
  inviteLink,
  invitesToSend,
  inviteToken,
  isIgnoredInviteRow,
  isValidInviteRow,
  newInviteRow,
  onboardingProgress,
  storedRole,
  type InviteRow,
} from "./invites";

function row(email: string, role: InviteRow["role"] = "marketer", reviewerArea: InviteRow["reviewerArea"] = "reviewer_medical"): InviteRow {
  return { ...newInviteRow(), email, role, reviewerArea };
}

describe("onboardingProgress", () => {
  it("is step × 50: 50 % on the first step, 100 % on the second", () => {
    expect(onboardingProgress(1)).toBe(50);
    expect(onboardingProgress(2)).toBe(100);
  });

  it("stays within the two steps", () => {
    expect(onboardingProgress(0)).toBe(50);
    expect(onboardingProgress(3)).toBe(100);
  });
});

describe("invite rows", () => {
  it("a new row is a blank marketer invitation with its own id", () => {
    const a = newInviteRow();
    const b = newInviteRow();
    expect(a).toMatchObject({ email: "", role: "marketer" });
    expect(a.id).not.toBe(b.id);
  });

  it("counts a row only when its e-mail is non-blank and contains @", () => {
    expect(isValidInviteRow(row("ada@example.com"))).toBe(true);
    expect(isValidInviteRow(row("  ada@example.com  "))).toBe(true);
    expect(isValidInviteRow(row(""))).toBe(false);
    expect(isValidInviteRow(row("   "))).toBe(false);
    expect(isValidInviteRow(row("ada.example.com"))).toBe(false);
    // The rule is the spec's: anything with an @ counts; the server checks the address.
    expect(isValidInviteRow(row("@"))).toBe(true);
  });

  it("flags rows with text that will not count, but not blank ones", () => {
    expect(isIgnoredInviteRow(row("ada"))).toBe(true);
    expect(isIgnoredInviteRow(row(""))).toBe(false);
    expect(isIgnoredInviteRow(row("ada@example.com"))).toBe(false);
  });

  it("stores a reviewer as the chosen reviewer role", () => {
    expect(storedRole(row("a@x.io", "reviewer", "reviewer_legal"))).toBe("reviewer_legal");
    expect(storedRole(row("a@x.io", "reviewer", "reviewer_regulatory"))).toBe("reviewer_regulatory");
    expect(storedRole(row("a@x.io", "admin", "reviewer_legal"))).toBe("admin");
    expect(storedRole(row("a@x.io"))).toBe("marketer");
  });

  it("sends one invitation per valid, distinct address, trimmed, in row order", () => {
    const rows = [
      row(" ada@example.com ", "reviewer", "reviewer_medical"),
      row(""),
      row("not-an-address"),
      row("grace@example.com", "admin"),
      row("ADA@example.com", "marketer"),
    ];
    expect(invitesToSend(rows)).toEqual([
      { rowId: rows[0]?.id, email: "ada@example.com", role: "reviewer_medical" },
      { rowId: rows[3]?.id, email: "grace@example.com", role: "admin" },
    ]);
  });

  it("sends nothing when no row counts (the wizard then skips)", () => {
    expect(invitesToSend([row(""), row("nobody")])).toEqual([]);
  });
});

describe("invitation links", () => {
  it("builds the sign-up link with the token", () => {
    expect(inviteLink("https://fb.example.com", "abc_DEF-123")).toBe("https://fb.example.com/signup?invite=abc_DEF-123");
    expect(inviteLink("https://fb.example.com/", "t")).toBe("https://fb.example.com/signup?invite=t");
  });

  it("reads the token back from a pasted link or a bare token", () => {
    expect(inviteToken("https://fb.example.com/signup?invite=abc_DEF-123")).toBe("abc_DEF-123");
    expect(inviteToken("  http://x/signup?foo=1&invite=tok#x ")).toBe("tok");
    expect(inviteToken("abc_DEF-123")).toBe("abc_DEF-123");
    expect(inviteToken("")).toBe("");
    expect(inviteToken("not a token")).toBe("");
  });
});
