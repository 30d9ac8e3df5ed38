import { describe, expect, it } from "vitest";
import { cn } from "./utils";

describe("cn", () => {
  it("joins class names and skips falsy values", () => {
    expect(cn("a", undefined, null, false, "b", 0, "")).toBe("a b");
  });

  it("applies conditional objects and nested arrays", () => {
    expect(cn({ on: true, off: false }, ["x", ["y"]])).toBe("on x y");
  });

  it("lets later Tailwind utilities override earlier conflicting ones", () => {
    expect(cn("px-2 py-1 text-sm", "px-4", "text-lg")).toBe("py-1 px-4 text-lg");
  });

  it("keeps utilities that do not conflict", () => {
    expect(cn("bg-primary text-primary-foreground", "hover:bg-primary/90")).toBe(
      "bg-primary text-primary-foreground hover:bg-primary/90",
    );
  });
});
