import { describe, expect, it } from "vitest";
import {
  ASSET_STATUSES,
  ASSET_TYPES,
  assetStatusLabel,
  assetStatusVariant,
  assetTypeLabel,
  AUDIENCES,
  audienceLabel,
  CLAIM_STATUSES,
  claimStatusLabel,
  MODULE_KINDS,
  MODULE_STATUSES,
  moduleKindLabel,
  moduleStatusLabel,
  REFERENCE_KINDS,
  REFERENCE_STATUSES,
  referenceKindLabel,
  referenceStatusLabel,
  VERSION_KINDS,
  versionKindLabel,
} from "./content-types";

describe("content vocabularies", () => {
  it("are the server's, in its order (from the generated types)", () => {
    expect(ASSET_STATUSES).toEqual(["draft", "in_review", "changes_requested", "approved", "rejected", "expired", "withdrawn", "archived"]);
    expect(AUDIENCES).toEqual(["hcp", "patient", "payer"]);
  });

  it("give every value a label of its own", () => {
    const lists: [readonly string[], (v: string) => string][] = [
      [ASSET_TYPES, assetTypeLabel],
      [ASSET_STATUSES, assetStatusLabel],
      [AUDIENCES, audienceLabel],
      [MODULE_KINDS, moduleKindLabel],
      [MODULE_STATUSES, moduleStatusLabel],
      [REFERENCE_KINDS, referenceKindLabel],
      [REFERENCE_STATUSES, referenceStatusLabel],
      [CLAIM_STATUSES, claimStatusLabel],
      [VERSION_KINDS, versionKindLabel],
    ];
    for (const [values, label] of lists) {
      for (const value of values) {
        expect(label(value)).not.toBe(value);
      }
      expect(new Set(values.map(label)).size).toBe(values.length);
    }
  });

  it("show a rejected asset as must-not-use", () => {
    expect(assetStatusLabel("rejected")).toBe("Rejected");
    expect(assetStatusVariant("rejected")).toBe("red");
  });
});
