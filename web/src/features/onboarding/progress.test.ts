import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { clearOnboarding, readOnboarding, saveOnboarding, useOnboarding } from "./progress";

afterEach(() => {
  window.localStorage.clear();
});

describe("onboarding progress", () => {
  it("is kept per member for the organisation step 1 created, and forgotten when finished", () => {
    expect(readOnboarding("u1", "org-1")).toBeNull();
    saveOnboarding("u1", { orgId: "org-1", step: "team" });
    expect(readOnboarding("u1", "org-1")).toEqual({ orgId: "org-1", step: "team" });
    // Another member, or the member in another organisation: nothing to resume.
    expect(readOnboarding("u2", "org-1")).toBeNull();
    expect(readOnboarding("u1", "org-2")).toBeNull();
    expect(readOnboarding("u1", null)).toBeNull();
    clearOnboarding("u1");
    expect(readOnboarding("u1", "org-1")).toBeNull();
  });

  it("ignores what it cannot read", () => {
    window.localStorage.setItem("fairbalance.onboarding.u1", "{not json");
    expect(readOnboarding("u1", "org-1")).toBeNull();
    window.localStorage.setItem("fairbalance.onboarding.u1", JSON.stringify({ orgId: "org-1", step: "elsewhere" }));
    expect(readOnboarding("u1", "org-1")).toBeNull();
  });

  it("tells the screens showing it when it changes", () => {
    const { result } = renderHook(() => useOnboarding("u1", "org-1"));
    expect(result.current).toBeNull();
    act(() => {
      saveOnboarding("u1", { orgId: "org-1", step: "done" });
    });
    expect(result.current).toEqual({ orgId: "org-1", step: "done" });
    act(() => {
      clearOnboarding("u1");
    });
    expect(result.current).toBeNull();
  });
});
