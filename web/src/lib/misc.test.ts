import { describe, expect, it } from "vitest";
import { ApiError } from "./api";
import { errorMessage } from "./errors";
import { isDemoRecord, previewRequested } from "./modes";
import { passwordProblem, PASSWORD_RULES } from "./password";
import { GC_TIME_MS, shouldRetry, STALE_TIME_MS } from "./query-client";
import { initials } from "./person";
import { roleBadgeVariant, roleLabel } from "./roles";

describe("query defaults", () => {
  it("are stale after 5 minutes, kept 10, retried twice but never on 4xx", () => {
    expect(STALE_TIME_MS).toBe(300_000);
    expect(GC_TIME_MS).toBe(600_000);
    expect(shouldRetry(0, new ApiError("x", 500))).toBe(true);
    expect(shouldRetry(1, new ApiError("x", 502))).toBe(true);
    expect(shouldRetry(2, new ApiError("x", 502))).toBe(false);
    expect(shouldRetry(0, new ApiError("x", 404))).toBe(false);
    expect(shouldRetry(0, { status: 403 })).toBe(false);
    expect(shouldRetry(0, new Error("network"))).toBe(true);
  });
});

describe("errorMessage", () => {
  it("takes the first of msg, message, error_description, error", () => {
    expect(errorMessage({ msg: "a", message: "b" }, "f")).toBe("a");
    expect(errorMessage({ message: "b", error: "d" }, "f")).toBe("b");
    expect(errorMessage({ error_description: "c", error: "d" }, "f")).toBe("c");
    expect(errorMessage({ error: "d" }, "f")).toBe("d");
    expect(errorMessage({ message: "" }, "fallback")).toBe("fallback");
    expect(errorMessage(new Error("boom"), "f")).toBe("boom");
    expect(errorMessage(null, "f")).toBe("f");
  });
});

describe("password rules", () => {
  it("report the spec's messages in order", () => {
    expect(passwordProblem("Ab1")).toBe("Password must be at least 8 characters long");
    expect(passwordProblem("ABCDEFG1")).toBe("Password must contain at least one lowercase letter");
    expect(passwordProblem("abcdefg1")).toBe("Password must contain at least one uppercase letter");
    expect(passwordProblem("Abcdefgh")).toBe("Password must contain at least one number");
    expect(passwordProblem("Abcdefg1")).toBeUndefined();
    expect(PASSWORD_RULES).toHaveLength(4);
  });
});

describe("roles", () => {
  it("colour admin red, reviewers blue, marketer green, others gray", () => {
    expect(roleBadgeVariant("admin")).toBe("red");
    expect(roleBadgeVariant("reviewer_legal")).toBe("blue");
    expect(roleBadgeVariant("marketer")).toBe("green");
    expect(roleBadgeVariant("viewer")).toBe("gray");
    expect(roleLabel("reviewer_medical")).toBe("Medical reviewer");
  });

  it("make up to two initials", () => {
    expect(initials("Ada Lovelace")).toBe("AL");
    expect(initials("Ada Byron Lovelace")).toBe("AB");
    expect(initials("", "grace.hopper@example.com")).toBe("GH");
    expect(initials("Cher")).toBe("CH");
    expect(initials(null, null)).toBe("?");
  });
});

describe("modes", () => {
  it("ask for preview by host suffix, query parameter or the stored flag", () => {
    expect(previewRequested({ hostname: "x.lovable.dev", search: "" })).toBe(true);
    expect(previewRequested({ hostname: "fb.example", search: "?preview" })).toBe(true);
    expect(previewRequested({ hostname: "fb.example", search: "" })).toBe(false);
    window.localStorage.setItem("preview_on", "true");
    expect(previewRequested({ hostname: "fb.example", search: "" })).toBe(true);
    window.localStorage.removeItem("preview_on");
  });

  it("recognise demo records", () => {
    expect(isDemoRecord({ id: "00000000-0000-4000-8000-00000000d3e0" })).toBe(true);
    expect(isDemoRecord({ title: "Launch email [DEMO]" })).toBe(true);
    expect(isDemoRecord({ email: "admin@demo.example.com" })).toBe(true);
    expect(isDemoRecord({ name: "Demo Pharma" })).toBe(true);
    expect(isDemoRecord({ id: "9f0c", name: "Acme" })).toBe(false);
  });
});
