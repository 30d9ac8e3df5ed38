import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { annotationEffects, annotationKeys, invalidateAfterAnnotation, versionAnnotationsQuery } from "./index";
import { annotateSchema, annotateValues, replySchema } from "./schema";

// What each annotation function refreshes, and the annotate and reply
// forms' checks in the server's words.

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
  for (const key of keys) client.setQueryData(key, []);
  return client;
}
const invalidated = (c: QueryClient, key: QueryKey) => c.getQueryState(key)?.isInvalidated === true;

describe("annotations' caches", () => {
  it("keep a version's list under its asset, under the annotations' root", () => {
    const key = versionAnnotationsQuery(ASSET, V1).queryKey;
    expect(key).toEqual(annotationKeys.version(ASSET, V1));
    expect(key.slice(0, 3)).toEqual(annotationKeys.asset(ASSET));
    expect(key[0]).toBe(annotationKeys.all[0]);
  });

  it("a new annotation refreshes its version's list only", async () => {
    const c = clientWith([annotationKeys.version(ASSET, V1), annotationKeys.version(ASSET, V2), annotationKeys.version(OTHER_ASSET, V1)]);
    expect(annotationEffects("create")).toBe("version");
    await invalidateAfterAnnotation(c, "create", ASSET, V2);
    expect(invalidated(c, annotationKeys.version(ASSET, V2))).toBe(true);
    expect(invalidated(c, annotationKeys.version(ASSET, V1))).toBe(false);
    expect(invalidated(c, annotationKeys.version(OTHER_ASSET, V1))).toBe(false);
  });

  it("a reply, a resolution or a reopening refreshes every version of the asset (the thread is on each), not another asset", async () => {
    for (const change of ["reply", "resolve", "reopen"] as const) {
      const c = clientWith([annotationKeys.version(ASSET, V1), annotationKeys.version(ASSET, V2), annotationKeys.version(OTHER_ASSET, V1)]);
      await invalidateAfterAnnotation(c, change, ASSET, V2);
      expect(invalidated(c, annotationKeys.version(ASSET, V1))).toBe(true);
      expect(invalidated(c, annotationKeys.version(ASSET, V2))).toBe(true);
      expect(invalidated(c, annotationKeys.version(OTHER_ASSET, V1))).toBe(false);
      c.clear();
    }
  });
});

describe("the annotate form", () => {
  const parse = (over: Partial<ReturnType<typeof annotateValues>>) => annotateSchema.safeParse({ ...annotateValues(), body: "Cite it.", ...over });
  const messages = (r: ReturnType<typeof parse>) => (r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));

  it("starts with the category a reviewer's role most often means", () => {
    expect(annotateValues("reviewer_medical").category).toBe("claim_needs_reference");
    expect(annotateValues("reviewer_legal").category).toBe("legal");
    expect(annotateValues("reviewer_regulatory").category).toBe("regulatory");
    expect(annotateValues("marketer").category).toBe("editorial");
  });

  it("needs a comment of at most 5000 characters", () => {
    expect(messages(parse({ body: "  " }))).toEqual(["body: The comment is required."]);
    expect(messages(parse({ body: "x".repeat(5001) }))).toEqual(["body: The comment must be 1 to 5000 characters long."]);
  });

  it("sends a claim's reference, page and passage, and nothing of them for another category", () => {
    const claim = parse({ category: "claim_needs_reference", reference_id: "r1", reference_page: "4", reference_quote: " 71% of patients " });
    expect(claim.success && claim.data).toEqual({ category: "claim_needs_reference", body: "Cite it.", reference: { id: "r1", page: 4, quote: "71% of patients" } });
    const bare = parse({ category: "claim_needs_reference", reference_id: "r1" });
    expect(bare.success && bare.data.reference).toEqual({ id: "r1", page: undefined, quote: undefined });
    const other = parse({ category: "editorial", reference_id: "r1", reference_page: "4" });
    expect(other.success && other.data.reference).toBeUndefined();
  });

  it("refuses a page or passage without a reference, and a page that is not a page number", () => {
    expect(messages(parse({ category: "claim_needs_reference", reference_quote: "71%" }))).toEqual(["reference_id: A page or passage needs the reference it is in."]);
    expect(messages(parse({ category: "claim_needs_reference", reference_id: "r1", reference_page: "0" }))).toEqual(["reference_page: Pages are numbered from 1."]);
    expect(messages(parse({ category: "claim_needs_reference", reference_id: "r1", reference_page: "p4" }))).toEqual(["reference_page: The reference page is a whole number."]);
    expect(messages(parse({ category: "claim_needs_reference", reference_id: "r1", reference_quote: "x".repeat(2001) }))).toEqual([
      "reference_quote: The passage is longer than 2000 characters.",
    ]);
  });

  it("a reply is 1 to 5000 characters, trimmed", () => {
    expect(replySchema.safeParse({ body: "  " }).success).toBe(false);
    expect(replySchema.safeParse({ body: "x".repeat(5001) }).success).toBe(false);
    const ok = replySchema.safeParse({ body: " Done. " });
    expect(ok.success && ok.data.body).toBe("Done.");
  });
});
