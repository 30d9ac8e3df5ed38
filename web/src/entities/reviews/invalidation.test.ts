import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { assetKeys, assetQuery } from "@/entities/assets";
import { contentKeys, type ContentFilters } from "@/entities/content";
import { memberKeys } from "@/entities/members";
import { versionKeys } from "@/entities/versions";
import {
  assetChangeRequestsQuery,
  assetRoundsQuery,
  type DecisionResult,
  invalidateAfterReview,
  invalidateAssetReview,
  type ReviewChange,
  reviewEffects,
  reviewGateQuery,
  reviewKeys,
  reviewQueueRoot,
  type StepRow,
  templateChoicesKey,
  templateChoicesQuery,
  toRounds,
  type Review,
} from "./index";

// The review functions' invalidation, in the style of entities/invalidation.test.ts:
// each change refreshes exactly the caches that show what it changed.

const ASSET = "6f1c2a9e-3d4b-4c5a-8e7f-0a1b2c3d4e5f";
const OTHER = "0b7d6c5e-4f3a-4b2c-9d1e-8f7a6b5c4d3e";
const VERSION = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const filters: ContentFilters = { status: "", type: "", product: "", owner: "", market: "" };
const byUpdate = { column: "updated_at", ascending: false };

let clients: QueryClient[] = [];
afterEach(() => {
  for (const c of clients) c.clear();
  clients = [];
});

/** A client holding fresh data under `keys`, none invalidated. */
function clientWith(keys: QueryKey[]): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  for (const key of keys) client.setQueryData(key, { cached: true });
  clients.push(client);
  return client;
}

const invalidated = (client: QueryClient, key: QueryKey) => client.getQueryState(key)?.isInvalidated === true;

// What the asset's page, the Hub and the Review Center hold while someone works on a review.
const KEYS = {
  asset: assetKeys.detail(ASSET),
  assetList: assetKeys.list(filters, byUpdate),
  search: contentKeys.search("asset", "zentria", filters),
  versions: versionKeys.byAsset(ASSET),
  versionText: versionKeys.text(VERSION),
  rounds: reviewKeys.rounds(ASSET),
  changes: reviewKeys.changes(ASSET),
  gate: reviewKeys.gate(ASSET),
  queue: [...reviewQueueRoot, "mine", {}],
  templates: templateChoicesKey,
  otherRounds: reviewKeys.rounds(OTHER),
  otherVersions: versionKeys.byAsset(OTHER),
  people: memberKeys.people(),
} satisfies Record<string, QueryKey>;

type Seen = Record<keyof typeof KEYS, boolean>;

async function after(change: ReviewChange, decided?: Pick<DecisionResult, "review" | "change_requests">): Promise<Seen> {
  const client = clientWith(Object.values(KEYS));
  await invalidateAfterReview(client, change, ASSET, decided);
  return Object.fromEntries(Object.entries(KEYS).map(([name, key]) => [name, invalidated(client, key)])) as Seen;
}

const NOTHING: Seen = {
  asset: false,
  assetList: false,
  search: false,
  versions: false,
  versionText: false,
  rounds: false,
  changes: false,
  gate: false,
  queue: false,
  templates: false,
  otherRounds: false,
  otherVersions: false,
  people: false,
};
// The queue lists assets too (their status and expiry show in its rows and
// the Command Center's cards), so what refreshes an asset refreshes it.
const ASSET_EVERYWHERE = { asset: true, assetList: true, search: true, queue: true };

const review = (status: Review["status"]) => ({ status }) as Review;

describe("review keys", () => {
  it("keep an asset's review under one prefix, apart from other assets'", () => {
    const under = (root: readonly unknown[], key: readonly unknown[]) => root.every((part, i) => key[i] === part);
    for (const key of [assetRoundsQuery(ASSET).queryKey, assetChangeRequestsQuery(ASSET).queryKey, reviewGateQuery(ASSET).queryKey]) {
      expect(under(reviewKeys.all, key)).toBe(true);
      expect(under(reviewKeys.asset(ASSET), key)).toBe(true);
      expect(under(reviewKeys.asset(OTHER), key)).toBe(false);
    }
    expect(assetRoundsQuery(ASSET).queryKey).toEqual(reviewKeys.rounds(ASSET));
    expect(assetQuery(ASSET).queryKey).not.toEqual(reviewKeys.rounds(ASSET));
  });

  it("put the templates offered at submission under the workflow templates' root, which Settings refreshes", () => {
    expect(templateChoicesQuery().queryKey).toEqual(templateChoicesKey);
    expect(templateChoicesKey[0]).toBe("workflow-templates");
  });

  it("do not let a gate that is asked again be served from the cache", () => {
    expect(reviewGateQuery(ASSET).staleTime).toBe(0);
    expect(reviewGateQuery(ASSET, false).enabled).toBe(false);
    expect(reviewGateQuery("not-a-uuid").enabled).toBe(false);
  });
});

describe("each review function refreshes exactly what it changes", () => {
  it("a submission: the asset (in review) everywhere, its versions (now immutable), its rounds, its gate and the queue", async () => {
    expect(await after("submit")).toEqual({ ...NOTHING, ...ASSET_EVERYWHERE, versions: true, rounds: true, gate: true, queue: true });
  });

  it("a withdrawn round: the asset (back to draft), its rounds, its gate and the queue — not its versions", async () => {
    expect(await after("withdraw_review")).toEqual({ ...NOTHING, ...ASSET_EVERYWHERE, rounds: true, gate: true, queue: true });
  });

  it("a claim or an assignment: the rounds and the queue only", async () => {
    expect(await after("claim")).toEqual({ ...NOTHING, rounds: true, queue: true });
    expect(await after("assign")).toEqual({ ...NOTHING, rounds: true, queue: true });
  });

  it("a decision that leaves the round open and raises nothing: the rounds and the queue", async () => {
    expect(await after("decide", { review: review("open"), change_requests: [] })).toEqual({ ...NOTHING, rounds: true, queue: true });
  });

  it("a decision asking for changes: the change requests too", async () => {
    const raised = [{ id: "c1" }, { id: "c2" }] as DecisionResult["change_requests"];
    expect(await after("decide", { review: review("open"), change_requests: raised })).toEqual({ ...NOTHING, rounds: true, queue: true, changes: true });
  });

  it("a decision that closes the round: the asset (its status, expiry, approved version) and its gate too", async () => {
    expect(await after("decide", { review: review("approved"), change_requests: [] })).toEqual({
      ...NOTHING,
      ...ASSET_EVERYWHERE,
      rounds: true,
      queue: true,
      gate: true,
    });
  });

  it("a refused decision (no answer): everything a decision may have changed, since another may have moved the step", async () => {
    expect(await after("decide")).toEqual({ ...NOTHING, ...ASSET_EVERYWHERE, rounds: true, queue: true, gate: true, changes: true });
  });

  it("a change marked done: the change requests and the gate (which counts open ones)", async () => {
    expect(await after("mark_done")).toEqual({ ...NOTHING, changes: true, gate: true });
  });

  it("a change confirmed: the change requests only", async () => {
    expect(await after("confirm")).toEqual({ ...NOTHING, changes: true });
  });

  it("a withdrawn asset: the asset everywhere and its gate", async () => {
    expect(await after("withdraw_asset")).toEqual({ ...NOTHING, ...ASSET_EVERYWHERE, gate: true });
  });

  it("a new expiry date: the asset everywhere only", async () => {
    expect(await after("set_expiry")).toEqual({ ...NOTHING, ...ASSET_EVERYWHERE });
  });

  it("never touch another asset's review, a version's text (versions never change), the templates or the members", async () => {
    const changes: ReviewChange[] = ["submit", "withdraw_review", "claim", "assign", "decide", "mark_done", "confirm", "withdraw_asset", "set_expiry"];
    for (const change of changes) {
      const seen = await after(change);
      expect([seen.otherRounds, seen.otherVersions, seen.versionText, seen.templates, seen.people], change).toEqual([false, false, false, false, false]);
      // reviewEffects is what invalidateAfterReview applies.
      expect(reviewEffects(change).rounds || reviewEffects(change).changes || reviewEffects(change).asset).toBe(true);
    }
  });

  it("a new version or new details refresh the asset's whole review (the gate reads both)", async () => {
    const client = clientWith(Object.values(KEYS));
    await invalidateAssetReview(client, ASSET);
    for (const key of [KEYS.rounds, KEYS.changes, KEYS.gate]) expect(invalidated(client, key)).toBe(true);
    for (const key of [KEYS.otherRounds, KEYS.asset, KEYS.queue]) expect(invalidated(client, key)).toBe(false);
  });
});

describe("toRounds", () => {
  it("gives each round its steps in the template's order with their signatures, newest round first", () => {
    const r1 = { id: "r1", round: 1 } as Review;
    const r2 = { id: "r2", round: 2 } as Review;
    const sig = { id: "s1", signer_name: "Dr. Mei Medical", signed_at: "2026-03-03T14:05:07Z", meaning: "review", decision: "changes_requested", rendition_sha256: "ab", version_id: "v1" } as const;
    const steps = [
      { id: "b", review_id: "r1", position: 2, signatures: null },
      { id: "a", review_id: "r1", position: 1, signatures: sig },
      { id: "c", review_id: "r2", position: 1, signatures: null },
    ] as unknown as StepRow[];
    const rounds = toRounds([r1, r2], steps);
    expect(rounds.map((r) => r.round)).toEqual([2, 1]);
    expect(rounds[1]?.steps.map((s) => s.id)).toEqual(["a", "b"]);
    expect(rounds[1]?.steps[0]?.signature?.signer_name).toBe("Dr. Mei Medical");
    expect(rounds[1]?.steps[1]?.signature).toBeNull();
    expect(rounds[0]?.steps.map((s) => s.id)).toEqual(["c"]);
    expect(rounds[0]?.steps[0]).not.toHaveProperty("signatures");
  });
});
