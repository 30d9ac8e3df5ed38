import { describe, expect, it, vi } from "vitest";
import { CREDENTIAL_REFUSED_EVENT, mayMeanSessionEnded, reportRefusal, sessionEndedBy } from "./session-end";

/** An unsigned token with `claims` (the client reads claims; the server verifies). */
function token(claims: Record<string, unknown>): string {
  const part = (v: unknown) => btoa(JSON.stringify(v)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}.signature`;
}

const member = token({ role: "authenticated", sub: "0b6f2c1e-3d4a-4e5f-8a9b-0c1d2e3f4a5b" });
const anon = token({ role: "anon" });

describe("mayMeanSessionEnded", () => {
  it("takes a 401 or 403 of a data surface to a member's token as a reason to ask", () => {
    for (const path of ["/rest/v1/assets?select=*", "/storage/v1/object/sign/assets/x.pdf", "/functions/v1/security-manager"]) {
      expect(mayMeanSessionEnded(`http://localhost${path}`, 401, `Bearer ${member}`)).toBe(true);
      expect(mayMeanSessionEnded(path, 403, member)).toBe(true);
    }
  });

  it("ignores other answers, the API key, the identity endpoints and the passcode gate", () => {
    expect(mayMeanSessionEnded("/rest/v1/assets", 400, `Bearer ${member}`)).toBe(false);
    expect(mayMeanSessionEnded("/rest/v1/assets", 500, `Bearer ${member}`)).toBe(false);
    expect(mayMeanSessionEnded("/rest/v1/assets", 401, `Bearer ${anon}`)).toBe(false);
    expect(mayMeanSessionEnded("/rest/v1/assets", 401, null)).toBe(false);
    expect(mayMeanSessionEnded("/rest/v1/assets", 401, "Bearer not-a-token")).toBe(false);
    expect(mayMeanSessionEnded("/auth/v1/user", 403, `Bearer ${member}`)).toBe(false);
    expect(mayMeanSessionEnded("/api/config", 401, `Bearer ${member}`)).toBe(false);
    expect(mayMeanSessionEnded("/rest/v1/assets", 401, `Bearer ${member}`, "gate_required")).toBe(false);
  });
});

describe("reportRefusal", () => {
  it("fires the window event only for a refusal that may mean the session ended", () => {
    const heard = vi.fn();
    window.addEventListener(CREDENTIAL_REFUSED_EVENT, heard);
    reportRefusal("/rest/v1/assets", 200, member);
    reportRefusal("/rest/v1/assets", 401, anon);
    expect(heard).not.toHaveBeenCalled();
    reportRefusal("/rest/v1/assets", 401, member);
    expect(heard).toHaveBeenCalledTimes(1);
    window.removeEventListener(CREDENTIAL_REFUSED_EVENT, heard);
  });
});

describe("sessionEndedBy", () => {
  it("reads the identity server's refusals of a gone session or account as ended", () => {
    const missing = Object.assign(new Error("Auth session missing!"), { name: "AuthSessionMissingError", status: 400 });
    expect(sessionEndedBy(missing)).toBe(true);
    for (const code of ["session_not_found", "session_expired", "user_not_found", "user_banned", "bad_jwt"]) {
      expect(sessionEndedBy(Object.assign(new Error("refused"), { name: "AuthApiError", status: 403, code }))).toBe(true);
    }
  });

  it("says nothing of a network failure, the passcode gate or an unknown refusal", () => {
    expect(sessionEndedBy(Object.assign(new Error("Failed to fetch"), { name: "AuthRetryableFetchError", status: 0 }))).toBe(false);
    expect(sessionEndedBy(Object.assign(new Error("Passcode required"), { name: "AuthApiError", status: 401 }))).toBe(false);
    expect(sessionEndedBy(Object.assign(new Error("refused"), { name: "AuthApiError", status: 403, code: "insufficient_aal" }))).toBe(false);
    expect(sessionEndedBy(null)).toBe(false);
    expect(sessionEndedBy("bad_jwt")).toBe(false);
  });
});
