import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { reviewKeys } from "@/entities/reviews";
import {
  checkTextQuery,
  complianceEffects,
  complianceKeys,
  countLabel,
  groupFindings,
  guidelinesQuery,
  invalidateAfterCompliance,
  phraseLines,
  ruleListQuery,
  segmentText,
  versionFindingsQuery,
} from "./index";
import { dismissSchema, guidelineSchema, ruleSchema, ruleValues } from "./schema";

const ASSET = "6f1c2a9e-3d4b-4c5a-8e7f-0a1b2c3d4e5f";
const OTHER_ASSET = "0b7d6c5e-4f3a-4b2c-9d1e-8f7a6b5c4d3e";
const V1 = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const V2 = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";

let client: QueryClient | null = null;
afterEach(() => {
  client?.clear();
  client = null;
});
function clientWith(keys: QueryKey[]): QueryClient {
  client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  for (const key of keys) client.setQueryData(key, { cached: true });
  return client;
}
const invalidated = (c: QueryClient, key: QueryKey) => c.getQueryState(key)?.isInvalidated === true;
const under = (root: readonly unknown[], key: readonly unknown[]) => root.every((part, i) => key[i] === part);

describe("compliance caches", () => {
  it("keep every query under the compliance root, a version's findings under its asset", () => {
    const findings = versionFindingsQuery(ASSET, V1).queryKey;
    expect(findings).toEqual(complianceKeys.versionFindings(ASSET, V1));
    expect(under(complianceKeys.findings(ASSET), findings)).toBe(true);
    for (const key of [findings, ruleListQuery().queryKey, guidelinesQuery().queryKey, checkTextQuery("the best", {}).queryKey]) {
      expect(under(complianceKeys.all, key)).toBe(true);
    }
    expect(under(complianceKeys.checks(), checkTextQuery("the best", { audience: "patient" }).queryKey)).toBe(true);
  });

  it("ask nothing for a version that is not there, or for blank sample text", () => {
    expect(versionFindingsQuery(ASSET, undefined).enabled).toBe(false);
    expect(versionFindingsQuery(ASSET, "v1").enabled).toBe(false);
    expect(versionFindingsQuery(ASSET, V1).enabled).toBe(true);
    expect(checkTextQuery("   ").enabled).toBe(false);
    expect(checkTextQuery("the best").enabled).toBe(true);
  });

  it("a dismissal or reopening refreshes the asset's findings on every version and its gate, not another asset's", async () => {
    for (const change of ["dismiss", "reopen"] as const) {
      const keys = [
        complianceKeys.versionFindings(ASSET, V1),
        complianceKeys.versionFindings(ASSET, V2),
        complianceKeys.versionFindings(OTHER_ASSET, V1),
        reviewKeys.gate(ASSET),
        reviewKeys.gate(OTHER_ASSET),
        complianceKeys.rules(),
      ];
      const c = clientWith(keys);
      await invalidateAfterCompliance(c, change, ASSET);
      expect(keys.map((k) => invalidated(c, k))).toEqual([true, true, false, true, false, false]);
      c.clear();
    }
  });

  it("a rule change refreshes the rule list and the try-it answers, not saved findings or guidelines", async () => {
    for (const change of ["save_rule", "set_builtin"] as const) {
      const keys = [complianceKeys.rules(), complianceKeys.check("the best", {}), complianceKeys.versionFindings(ASSET, V1), complianceKeys.guidelines()];
      const c = clientWith(keys);
      await invalidateAfterCompliance(c, change);
      expect(keys.map((k) => invalidated(c, k))).toEqual([true, true, false, false]);
      c.clear();
    }
  });

  it("a guideline's change refreshes the guideline list only", async () => {
    for (const change of ["save_guideline", "delete_guideline"] as const) {
      expect(complianceEffects(change)).toEqual([complianceKeys.guidelines()]);
      const keys = [complianceKeys.guidelines(), complianceKeys.rules()];
      const c = clientWith(keys);
      await invalidateAfterCompliance(c, change);
      expect(keys.map((k) => invalidated(c, k))).toEqual([true, false]);
      c.clear();
    }
  });
});

describe("marking findings in a text", () => {
  it("cuts the text at code points, so a ® or an emoji before a match does not shift it", () => {
    const text = "Brand® 😀 is the best";
    const start = Array.from(text).indexOf("t", 12);
    const segs = segmentText(text, [{ start, end: start + 8, severity: "critical" }]);
    expect(segs.map((s) => [s.text, s.severity])).toEqual([
      ["Brand® 😀 is ", null],
      ["the best", "critical"],
    ]);
    expect(segs.map((s) => s.text).join("")).toBe(text);
  });

  it("marks overlaps with the most serious finding and keeps every finding covering a run", () => {
    const text = "Guaranteed results with no side effects";
    const segs = segmentText(text, [
      { start: 0, end: 18, severity: "warning" },
      { start: 11, end: 39, severity: "critical" },
    ]);
    expect(segs.map((s) => [s.text, s.severity, s.findings])).toEqual([
      ["Guaranteed ", "warning", [0]],
      ["results", "critical", [1, 0]],
      [" with no side effects", "critical", [1]],
    ]);
  });

  it("ignores empty and reversed spans and clamps spans past the end", () => {
    const segs = segmentText("abc", [
      { start: 1, end: 1, severity: "info" },
      { start: 2, end: 1, severity: "info" },
      { start: 2, end: 99, severity: "info" },
    ]);
    expect(segs.map((s) => [s.text, s.severity])).toEqual([
      ["ab", null],
      ["c", "info"],
    ]);
    expect(segmentText("", [{ start: 0, end: 3, severity: "info" }])).toEqual([]);
  });
});

describe("grouping findings", () => {
  const f = (severity: string, state: string, id: string) => ({ severity, state, id });
  it("groups open findings most serious first in the order given, dismissed and fixed apart", () => {
    const g = groupFindings([f("info", "open", "a"), f("critical", "open", "b"), f("critical", "dismissed", "c"), f("warning", "open", "d"), f("critical", "open", "e"), f("warning", "fixed", "x")]);
    expect(g.open.map((s) => [s.severity, s.findings.map((x) => x.id)])).toEqual([
      ["critical", ["b", "e"]],
      ["warning", ["d"]],
      ["info", ["a"]],
    ]);
    expect(g.dismissed.map((x) => x.id)).toEqual(["c"]);
    expect(g.fixed.map((x) => x.id)).toEqual(["x"]);
    expect(countLabel(g.open)).toBe("2 critical, 1 warning, 1 info");
    expect(countLabel(groupFindings([f("warning", "open", "a"), f("warning", "open", "b")]).open)).toBe("2 warnings");
    expect(countLabel(groupFindings([]).open)).toBe("");
  });
});

describe("the compliance forms", () => {
  const rule = (over: Partial<ReturnType<typeof ruleValues>>) => ruleSchema.safeParse({ ...ruleValues(), code: "no-cure", title: "Cure", phrases: "cure", message: "Do not promise a cure.", ...over });
  const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);

  it("sends phrases one a line, trimmed and without repeats, and a scope of the chosen lists only", () => {
    expect(phraseLines(" cure \n\nCure\ncures\r\n")).toEqual(["cure", "cures"]);
    const r = rule({ phrases: "cure\n cures \n", audiences: ["patient"], markets: ["US"] });
    expect(r.success && r.data).toEqual({
      code: "no-cure",
      title: "Cure",
      kind: "phrases",
      phrases: ["cure", "cures"],
      severity: "warning",
      message: "Do not promise a cure.",
      guidance: "",
      scope: { audiences: ["patient"], markets: ["US"] },
      enabled: true,
    });
  });

  it("refuses a code that is malformed or a built-in's, a rule without phrases, and a pattern that does not compile", () => {
    expect(messages(rule({ code: "No Cure" }))).toEqual(["code: Use 2 to 40 lower-case letters, digits or hyphens."]);
    expect(messages(rule({ code: "superlative" }))).toEqual(["code: That code belongs to a built-in rule."]);
    expect(messages(rule({ phrases: " \n " }))).toEqual(["phrases: Add at least one phrase, one a line."]);
    expect(messages(rule({ kind: "regex", pattern: "(cure" }))).toEqual(["pattern: This regular expression does not compile."]);
    const re = rule({ kind: "regex", pattern: " \\bcures?\\b " });
    expect(re.success && [re.data.pattern, re.data.phrases]).toEqual(["\\bcures?\\b", undefined]);
    expect(messages(rule({ message: " " }))).toEqual(["message: Say what the finding means."]);
  });

  it("a dismissal needs a reason of at most 2000 characters", () => {
    expect(messages(dismissSchema.safeParse({ reason: "  " }))).toEqual(["reason: Say why the finding does not apply."]);
    expect(messages(dismissSchema.safeParse({ reason: "x".repeat(2001) }))).toEqual(["reason: The reason is longer than 2000 characters."]);
    const ok = dismissSchema.safeParse({ reason: " Referenced on page 2. " });
    expect(ok.success && ok.data.reason).toBe("Referenced on page 2.");
  });

  it("a guideline needs a title, a known source and a body", () => {
    expect(messages(guidelineSchema.safeParse({ id: "", title: " ", source: "fda", body: "" }))).toEqual(["title: The title is required.", "body: Write the guideline's text."]);
    expect(guidelineSchema.safeParse({ id: "", title: "T", source: "ema", body: "b" }).success).toBe(false);
    const ok = guidelineSchema.safeParse({ id: "g1", title: " OPDP ", source: "opdp", body: "# Fair balance" });
    expect(ok.success && ok.data).toEqual({ id: "g1", title: "OPDP", source: "opdp", body: "# Fair balance" });
  });
});
