import { describe, expect, it } from "vitest";
import { changesClaimPassages, expiryState, formatBytes, statusBadge } from "@/lib/content-types";
import { fileProblem } from "./use-upload";

describe("fileProblem", () => {
  it("accepts PDF, PNG, JPEG and WebP", () => {
    for (const type of ["application/pdf", "image/png", "image/jpeg", "image/webp"]) {
      expect(fileProblem(new File(["x"], "f", { type }))).toBeNull();
    }
  });

  it("refuses other types, empty files and files over 500 MB, naming the file", () => {
    expect(fileProblem(new File(["<svg/>"], "logo.svg", { type: "image/svg+xml" }))).toBe(
      "“logo.svg” is not a file type Fairbalance accepts here. Choose a PDF, PNG, JPEG, WebP file.",
    );
    expect(fileProblem(new File([], "empty.pdf", { type: "application/pdf" }))).toBe("“empty.pdf” is empty.");
    const big = new File(["x"], "big.pdf", { type: "application/pdf" });
    Object.defineProperty(big, "size", { value: 501 * 1024 * 1024 });
    expect(fileProblem(big)).toBe("“big.pdf” is 501 MB; files can be at most 500 MB.");
  });
});

describe("expiryState", () => {
  const today = new Date(2026, 10, 22);
  it("flags past dates and dates within 30 days", () => {
    expect(expiryState("2026-11-21", today)).toBe("expired");
    expect(expiryState("2026-11-22", today)).toBe("soon");
    expect(expiryState("2026-12-22", today)).toBe("soon");
    expect(expiryState("2026-12-23", today)).toBeNull();
    expect(expiryState(null, today)).toBeNull();
  });
});

describe("labels", () => {
  it("formats sizes and status badges of every kind", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(500 * 1024 * 1024)).toBe("500 MB");
    expect(statusBadge("asset", "in_review")).toEqual({ label: "In review", variant: "blue" });
    expect(statusBadge("claim", "withdrawn")).toEqual({ label: "Withdrawn", variant: "red" });
    expect(statusBadge("module", "approved")).toEqual({ label: "Approved", variant: "green" });
    expect(statusBadge("reference", "active")).toEqual({ label: "Active", variant: "green" });
    expect(statusBadge("asset", "mystery")).toEqual({ label: "mystery", variant: "gray" });
  });
});

describe("changesClaimPassages", () => {
  it("lets authors change a draft claim's passages, administrators any claim's, reviewers and viewers none", () => {
    for (const status of ["draft", "approved", "expired", "withdrawn"]) {
      expect(changesClaimPassages("owner", status)).toBe(true);
      expect(changesClaimPassages("admin", status)).toBe(true);
      expect(changesClaimPassages("marketer", status)).toBe(status === "draft");
      for (const role of ["reviewer_medical", "reviewer_legal", "reviewer_regulatory", "viewer", null]) {
        expect(changesClaimPassages(role, status)).toBe(false);
      }
    }
  });
});
