import type { Session } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { secondFactorDue } from "./assurance";

/** An unsigned token with the given claims (only the payload is read). */
function token(claims: Record<string, unknown>): string {
  const b64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${b64url(JSON.stringify({ alg: "ES256" }))}.${b64url(JSON.stringify(claims))}.sig`;
}

function session(aal: string | undefined, factors: { status: string }[] | undefined): Pick<Session, "access_token" | "user"> {
  return { access_token: token({ sub: "u1", aal }), user: { id: "u1", factors } as unknown as Session["user"] };
}

describe("secondFactorDue", () => {
  it("is due for a password-only session of an account with a verified authenticator", () => {
    expect(secondFactorDue(session("aal1", [{ status: "verified" }]))).toBe(true);
    expect(secondFactorDue(session(undefined, [{ status: "unverified" }, { status: "verified" }]))).toBe(true);
  });

  it("is not due once the session is at aal2", () => {
    expect(secondFactorDue(session("aal2", [{ status: "verified" }]))).toBe(false);
  });

  it("is not due without a verified authenticator (none, or an enrolment in progress)", () => {
    expect(secondFactorDue(session("aal1", undefined))).toBe(false);
    expect(secondFactorDue(session("aal1", []))).toBe(false);
    expect(secondFactorDue(session("aal1", [{ status: "unverified" }]))).toBe(false);
  });

  it("is not due without a session, and due for an unreadable token of such an account", () => {
    expect(secondFactorDue(null)).toBe(false);
    expect(secondFactorDue(undefined)).toBe(false);
    expect(secondFactorDue({ access_token: "garbage", user: { factors: [{ status: "verified" }] } as unknown as Session["user"] })).toBe(true);
  });
});
