import { describe, expect, it } from "vitest";
import {
  acceptInviteNotice,
  BOTH_REQUIRED,
  EMAIL_REQUIRED,
  FIRST_NAME_REQUIRED,
  hasErrors,
  inviteProblem,
  isRecoveryToken,
  LAST_NAME_REQUIRED,
  mustResetPassword,
  parseInvite,
  readLinkTokens,
  SETUP_REQUIRED,
  tokenClaims,
  validateForgot,
  validateLogin,
  validateReset,
  validateSetup,
  validateSignup,
} from "./validation";

const ok = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", password: "Correct-Horse-42" };

/** An unsigned token with the given claims (the client never verifies signatures). */
function jwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${b64({ alg: "none" })}.${b64(claims)}.sig`;
}

describe("validateLogin", () => {
  it("needs both e-mail and password, in the spec's words", () => {
    expect(validateLogin("", "x")).toBe("Please enter both email and password");
    expect(validateLogin("a@b.c", "")).toBe(BOTH_REQUIRED);
    expect(validateLogin("   ", "x")).toBe(BOTH_REQUIRED);
    expect(validateLogin("a@b.c", "x")).toBeUndefined();
  });
});

describe("validateSetup", () => {
  it("needs both fields, then a password the server accepts", () => {
    expect(validateSetup("", "")).toBe("Email and password required");
    expect(validateSetup("a@b.c", "")).toBe(SETUP_REQUIRED);
    expect(validateSetup("a@b.c", "short")).toBe("Password must be at least 8 characters long");
    expect(validateSetup("a@b.c", "Correct-Horse-42")).toBeUndefined();
  });
});

describe("validateSignup", () => {
  it("accepts a complete form", () => {
    expect(hasErrors(validateSignup(ok))).toBe(false);
  });

  it("requires all four fields", () => {
    const errors = validateSignup({ firstName: " ", lastName: "", email: "", password: "" });
    expect(errors).toEqual({ firstName: FIRST_NAME_REQUIRED, lastName: LAST_NAME_REQUIRED, form: BOTH_REQUIRED });
    expect(hasErrors(errors)).toBe(true);
  });

  it("applies the password rules once both e-mail and password are there", () => {
    expect(validateSignup({ ...ok, password: "lowercase1" }).password).toBe("Password must contain at least one uppercase letter");
    expect(validateSignup({ ...ok, password: "UPPERCASE1" }).password).toBe("Password must contain at least one lowercase letter");
    expect(validateSignup({ ...ok, password: "NoNumbers" }).password).toBe("Password must contain at least one number");
  });
});

describe("validateForgot", () => {
  it("needs a non-blank e-mail", () => {
    expect(validateForgot("  ")).toBe(EMAIL_REQUIRED);
    expect(validateForgot("a@b.c")).toBeUndefined();
  });
});

describe("validateReset", () => {
  it("reports the first unmet rule, then a mismatch", () => {
    expect(validateReset("Ab1", "Ab1")).toEqual({ password: "Password must be at least 8 characters long" });
    expect(validateReset("ABCDEFG1", "")).toEqual({ password: "Password must contain at least one lowercase letter" });
    expect(validateReset("abcdefg1", "")).toEqual({ password: "Password must contain at least one uppercase letter" });
    expect(validateReset("Abcdefgh", "")).toEqual({ password: "Password must contain at least one number" });
    expect(validateReset("Abcdefg1", "Abcdefg2")).toEqual({ confirm: "Passwords do not match" });
    expect(validateReset("Abcdefg1", "Abcdefg1")).toEqual({});
  });
});

describe("readLinkTokens", () => {
  it("reads the tokens from the fragment (this server's implicit flow)", () => {
    expect(readLinkTokens("", "#access_token=a&expires_in=3600&refresh_token=r&token_type=bearer&type=recovery")).toEqual({
      accessToken: "a",
      refreshToken: "r",
      error: "",
    });
  });

  it("reads them from the query string too", () => {
    expect(readLinkTokens("?access_token=a&refresh_token=r", "")).toMatchObject({ accessToken: "a", refreshToken: "r" });
  });

  it("reports a refused link's description and missing tokens", () => {
    expect(readLinkTokens("", "#error=access_denied&error_description=Email+link+is+invalid+or+has+expired").error).toBe(
      "Email link is invalid or has expired",
    );
    expect(readLinkTokens("?access_token=a", "")).toEqual({ accessToken: "a", refreshToken: "", error: "" });
  });
});

describe("isRecoveryToken", () => {
  it("accepts sessions from e-mailed links only", () => {
    expect(isRecoveryToken(jwt({ amr: [{ method: "recovery", timestamp: 1 }] }))).toBe(true);
    expect(isRecoveryToken(jwt({ amr: [{ method: "password" }, { method: "otp" }] }))).toBe(true);
    expect(isRecoveryToken(jwt({ amr: [{ method: "password" }] }))).toBe(false);
    expect(isRecoveryToken(jwt({}))).toBe(false);
    expect(isRecoveryToken("not-a-token")).toBe(false);
  });

  it("decodes base64url payloads", () => {
    expect(tokenClaims(jwt({ sub: "ü?>" }))).toEqual({ sub: "ü?>" });
  });
});

describe("mustResetPassword", () => {
  it("reads the server's flag from app metadata", () => {
    expect(mustResetPassword({ app_metadata: { must_reset_password: true } })).toBe(true);
    expect(mustResetPassword({ app_metadata: { provider: "email" }, user_metadata: {} })).toBe(false);
    expect(mustResetPassword(null)).toBe(false);
  });
});

describe("invitations", () => {
  it("keeps the server's invalid and expired messages and hides the rest", () => {
    expect(inviteProblem({ message: "Invalid invite token" })).toBe("Invalid invite token");
    expect(inviteProblem({ message: "This invite has expired" })).toBe("This invite has expired");
    expect(inviteProblem(new Error("boom"))).toBe("Failed to validate invite");
    expect(inviteProblem(null)).toBe("Failed to validate invite");
  });

  it("parses get_invite's answer", () => {
    expect(parseInvite({ email: "a@b.c", role: "marketer" })).toEqual({ email: "a@b.c", role: "marketer" });
    expect(parseInvite({ email: "a@b.c" })).toBeNull();
  });

  it("words accept_invite's outcomes as the spec does", () => {
    expect(acceptInviteNotice({ success: true, role: "marketer" }, null)).toEqual({
      kind: "success",
      title: "Account created!",
      description: "Welcome to the team!",
    });
    expect(acceptInviteNotice({ success: false, error: "This invite has expired" }, null)).toEqual({
      kind: "error",
      title: "Failed to accept invite",
      description: "This invite has expired. Please contact an administrator.",
    });
    expect(acceptInviteNotice(null, { message: "boom" })).toEqual({
      kind: "error",
      title: "Account created",
      description: "Your account was created but invite acceptance failed. Please contact an admin.",
    });
  });
});
