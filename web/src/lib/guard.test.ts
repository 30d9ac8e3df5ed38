import { describe, expect, it } from "vitest";
import { decideGuard, safeReturnPath } from "./guard";

const base = { status: "signed-out" as const, gateBlocked: false, failed: false };

describe("decideGuard", () => {
  it("does not check /health and /safe at all", () => {
    for (const path of ["/health", "/safe"]) {
      expect(decideGuard({ ...base, path, status: "loading", gateBlocked: true, failed: true })).toEqual({ kind: "render" });
    }
  });

  it("sends signed-out visitors of protected paths to /login, remembering the page", () => {
    expect(decideGuard({ ...base, path: "/audit-log" })).toEqual({ kind: "redirect", to: "/login", rememberFrom: true });
  });

  it("lets signed-out visitors reach the sign-in, sign-out, gate and account-recovery screens", () => {
    for (const path of ["/login", "/logout", "/gate", "/signup", "/forgot-password", "/reset-password"]) {
      expect(decideGuard({ ...base, path })).toEqual({ kind: "render" });
    }
  });

  it("shows a spinner while the session is being checked", () => {
    expect(decideGuard({ ...base, path: "/", status: "loading" })).toEqual({ kind: "checking" });
  });

  it("sends the user to /safe when checking failed", () => {
    expect(decideGuard({ ...base, path: "/", failed: true })).toEqual({ kind: "redirect", to: "/safe", rememberFrom: false });
  });

  it("sends everyone to /gate while the gate is closed, except the gate itself", () => {
    expect(decideGuard({ ...base, path: "/login", gateBlocked: true })).toEqual({ kind: "redirect", to: "/gate", rememberFrom: false });
    expect(decideGuard({ ...base, path: "/gate", gateBlocked: true })).toEqual({ kind: "render" });
  });

  it("sends a member whose session ended elsewhere to /login from every screen, /safe and /health included, remembering it", () => {
    for (const path of ["/", "/content", "/safe", "/health"]) {
      expect(decideGuard({ ...base, path, sessionEnded: true })).toEqual({ kind: "redirect", to: "/login", rememberFrom: true });
    }
    for (const path of ["/login", "/logout", "/reset-password"]) {
      expect(decideGuard({ ...base, path, sessionEnded: true })).toEqual({ kind: "render" });
    }
  });

  it("renders protected pages for a signed-in user", () => {
    expect(decideGuard({ ...base, path: "/users", status: "signed-in" })).toEqual({ kind: "render" });
    expect(decideGuard({ ...base, path: "/users", status: "signed-in", secondFactorDue: false })).toEqual({ kind: "render" });
  });

  it("sends a session still owing its authenticator code to the sign-in screen's code step, remembering the page", () => {
    expect(decideGuard({ ...base, path: "/users", status: "signed-in", secondFactorDue: true })).toEqual({
      kind: "redirect",
      to: "/login",
      rememberFrom: true,
    });
    expect(decideGuard({ ...base, path: "/", status: "signed-in", secondFactorDue: true })).toEqual({
      kind: "redirect",
      to: "/login",
      rememberFrom: true,
    });
    // The sign-in screen (the code step) and signing out stay open to it.
    for (const path of ["/login", "/logout"]) {
      expect(decideGuard({ ...base, path, status: "signed-in", secondFactorDue: true })).toEqual({ kind: "render" });
    }
    // The gate still comes first.
    expect(decideGuard({ ...base, path: "/users", status: "signed-in", secondFactorDue: true, gateBlocked: true })).toEqual({
      kind: "redirect",
      to: "/gate",
      rememberFrom: false,
    });
  });
});

describe("safeReturnPath", () => {
  it("accepts same-site paths only", () => {
    expect(safeReturnPath("/audit-log?x=1")).toBe("/audit-log?x=1");
    expect(safeReturnPath("//evil.example")).toBe("/");
    expect(safeReturnPath("https://evil.example")).toBe("/");
    expect(safeReturnPath(undefined)).toBe("/");
    expect(safeReturnPath("/login")).toBe("/");
  });
});
