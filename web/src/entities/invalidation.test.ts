import { QueryClient, QueryObserver, type QueryKey } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { assetKeys, assetQuery, invalidateAssets } from "@/entities/assets";
import { auditKeys } from "@/entities/audit";
import { claimKeys, invalidateClaims } from "@/entities/claims";
import { contentKeys, type ContentFilters } from "@/entities/content";
import { memberKeys } from "@/entities/members";
import { invalidateModules, moduleKeys } from "@/entities/modules";
import { invalidateProducts, productKeys, productSummariesQuery, productsQuery } from "@/entities/products";
import { invalidateProfile, profileKeys } from "@/entities/profile";
import { invalidateReferences, referenceKeys } from "@/entities/references";
import { invalidateReviewQueue, NO_QUEUE_FILTERS, reviewQueueKeys } from "@/entities/review-queue";
import { invalidateVersions, versionKeys } from "@/entities/versions";

const ASSET = "6f1c2a9e-3d4b-4c5a-8e7f-0a1b2c3d4e5f";
const OTHER_ASSET = "0b7d6c5e-4f3a-4b2c-9d1e-8f7a6b5c4d3e";
const VERSION = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const ORG = "org-1";
const USER = "user-1";
const filters: ContentFilters = { status: "", type: "", product: "", owner: "", market: "" };
const byUpdate = { column: "updated_at", ascending: false };

/** A client holding data under `keys`, each fresh (not stale) and not invalidated. */
function clientWith(keys: QueryKey[]): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  for (const key of keys) client.setQueryData(key, { cached: true });
  return client;
}

const invalidated = (client: QueryClient, key: QueryKey) => client.getQueryState(key)?.isInvalidated === true;

let clients: QueryClient[] = [];
afterEach(() => {
  for (const c of clients) c.clear();
  clients = [];
});

function track(client: QueryClient): QueryClient {
  clients.push(client);
  return client;
}

describe("key factories", () => {
  it("keep every query of a resource under its root, so one prefix reaches them all", () => {
    const under = (root: readonly unknown[], key: readonly unknown[]) => root.every((part, i) => key[i] === part);
    expect(under(productKeys.all, productsQuery().queryKey)).toBe(true);
    expect(under(productKeys.all, productSummariesQuery().queryKey)).toBe(true);
    expect(under(assetKeys.all, assetQuery(ASSET).queryKey)).toBe(true);
    expect(under(assetKeys.all, assetKeys.list(filters, byUpdate))).toBe(true);
    expect(under(moduleKeys.all, moduleKeys.usedBy(VERSION))).toBe(true);
    expect(under(claimKeys.all, claimKeys.passages("c1"))).toBe(true);
    expect(under(auditKeys.pages(), auditKeys.page("actor=x", null))).toBe(true);
    expect(under(memberKeys.all, memberKeys.list(ORG))).toBe(true);
    expect(under(assetKeys.all, assetKeys.drafts(USER))).toBe(true);
    expect(under(assetKeys.all, assetKeys.expiring("2026-12-31"))).toBe(true);
    expect(under(reviewQueueKeys.all, reviewQueueKeys.list("mine", NO_QUEUE_FILTERS, 25))).toBe(true);
    expect(under(reviewQueueKeys.all, reviewQueueKeys.first("submitted", NO_QUEUE_FILTERS, 5))).toBe(true);
  });

  it("keep the key shapes the Audit Log's chain panel refreshes after a verification", () => {
    expect(auditKeys.pages()).toEqual(["audit", "page"]);
    expect(auditKeys.counts()).toEqual(["audit", "count"]);
    expect(auditKeys.lastVerification()).toEqual(["audit", "last-verification"]);
  });

  it("give two screens that show the same thing the same key", () => {
    // The Hub, Settings and the pickers share the products list; an asset's page and its editor share the asset.
    expect(productsQuery().queryKey).toEqual(productKeys.list());
    expect(assetQuery(ASSET).queryKey).toEqual(assetKeys.detail(ASSET));
    expect(assetKeys.detail(ASSET)).not.toEqual(assetKeys.detail(OTHER_ASSET));
    expect(contentKeys.search("asset", "dose", filters)).not.toEqual(contentKeys.search("module", "dose", filters));
  });
});

describe("a product rename", () => {
  it("invalidates the asset query and the product names an asset's page shows", async () => {
    const client = track(
      clientWith([assetKeys.detail(ASSET), productKeys.summaries(), productKeys.list(), assetKeys.list(filters, byUpdate), memberKeys.people()]),
    );
    await invalidateProducts(client);
    expect(invalidated(client, assetKeys.detail(ASSET))).toBe(true);
    expect(invalidated(client, productKeys.summaries())).toBe(true);
    expect(invalidated(client, productKeys.list())).toBe(true);
    expect(invalidated(client, assetKeys.list(filters, byUpdate))).toBe(true);
    // Members are not shown with a product: left as they are.
    expect(invalidated(client, memberKeys.people())).toBe(false);
  });

  it("makes an asset page that is open read the product names again at once, however fresh they were", async () => {
    const client = track(new QueryClient({ defaultOptions: { queries: { retry: false } } }));
    let brand = "Zephyra";
    const names = vi.fn(() => Promise.resolve([{ id: "p1", brand_name: brand, established_name: "zephyrimab" }]));
    // The asset page's query (its key and staleness from the entity; the fetcher stands in for the server).
    const observer = new QueryObserver(client, { ...productSummariesQuery(), queryFn: names });
    const seen: string[] = [];
    const unsubscribe = observer.subscribe((result) => {
      if (result.data?.[0]) seen.push(result.data[0].brand_name);
    });
    await vi.waitFor(() => {
      expect(seen).toContain("Zephyra");
    });

    brand = "Zephyra XR";
    await invalidateProducts(client);
    await vi.waitFor(() => {
      expect(seen.at(-1)).toBe("Zephyra XR");
    });
    expect(names).toHaveBeenCalledTimes(2);
    unsubscribe();
  });
});

describe("invalidation helpers", () => {
  it("an asset change refreshes its page, the lists, search and counts", async () => {
    const client = track(
      clientWith([assetKeys.detail(ASSET), assetKeys.list(filters, byUpdate), contentKeys.search("asset", "dose", filters), contentKeys.counts(), productKeys.list()]),
    );
    await invalidateAssets(client);
    expect(invalidated(client, assetKeys.detail(ASSET))).toBe(true);
    expect(invalidated(client, assetKeys.list(filters, byUpdate))).toBe(true);
    expect(invalidated(client, contentKeys.search("asset", "dose", filters))).toBe(true);
    expect(invalidated(client, contentKeys.counts())).toBe(true);
    expect(invalidated(client, productKeys.list())).toBe(false);
  });

  it("an asset change (its details, or its status through a review) refreshes the review queue and the Command Center's cards", async () => {
    const tabs = [reviewQueueKeys.list("mine", NO_QUEUE_FILTERS, 25), reviewQueueKeys.list("open", { ...NO_QUEUE_FILTERS, type: "email" }, 25), reviewQueueKeys.first("mine", NO_QUEUE_FILTERS, 5)];
    const client = track(clientWith([...tabs, assetKeys.drafts(USER), assetKeys.expiring("2026-12-31"), memberKeys.people()]));
    await invalidateAssets(client);
    for (const key of [...tabs, assetKeys.drafts(USER), assetKeys.expiring("2026-12-31")]) {
      expect(invalidated(client, key)).toBe(true);
    }
    expect(invalidated(client, memberKeys.people())).toBe(false);
  });

  it("a workflow change refreshes every tab of the queue and nothing else", async () => {
    const client = track(clientWith([reviewQueueKeys.list("submitted", NO_QUEUE_FILTERS, 25), reviewQueueKeys.first("mine", NO_QUEUE_FILTERS, 5), assetKeys.detail(ASSET)]));
    await invalidateReviewQueue(client);
    expect(invalidated(client, reviewQueueKeys.list("submitted", NO_QUEUE_FILTERS, 25))).toBe(true);
    expect(invalidated(client, reviewQueueKeys.first("mine", NO_QUEUE_FILTERS, 5))).toBe(true);
    expect(invalidated(client, assetKeys.detail(ASSET))).toBe(false);
  });

  it("a new version refreshes that asset's versions and the asset, not another asset's versions", async () => {
    const client = track(clientWith([versionKeys.byAsset(ASSET), versionKeys.byAsset(OTHER_ASSET), assetKeys.detail(ASSET), versionKeys.text(VERSION)]));
    await invalidateVersions(client, ASSET);
    expect(invalidated(client, versionKeys.byAsset(ASSET))).toBe(true);
    expect(invalidated(client, assetKeys.detail(ASSET))).toBe(true);
    expect(invalidated(client, versionKeys.byAsset(OTHER_ASSET))).toBe(false);
    // A version's text never changes.
    expect(invalidated(client, versionKeys.text(VERSION))).toBe(false);
  });

  it("a module change refreshes an asset page's 'Modules used' and the insert picker", async () => {
    const client = track(clientWith([moduleKeys.usedBy(VERSION), moduleKeys.insertable(), moduleKeys.list(filters, byUpdate), claimKeys.options()]));
    await invalidateModules(client);
    expect(invalidated(client, moduleKeys.usedBy(VERSION))).toBe(true);
    expect(invalidated(client, moduleKeys.insertable())).toBe(true);
    expect(invalidated(client, moduleKeys.list(filters, byUpdate))).toBe(true);
    expect(invalidated(client, claimKeys.options())).toBe(false);
  });

  it("claims and references refresh their lists, pickers and a claim's passages", async () => {
    const client = track(clientWith([claimKeys.passages("c1"), claimKeys.options(), referenceKeys.options(), referenceKeys.list(filters, byUpdate)]));
    await invalidateClaims(client);
    expect(invalidated(client, claimKeys.passages("c1"))).toBe(true);
    expect(invalidated(client, claimKeys.options())).toBe(true);
    expect(invalidated(client, referenceKeys.options())).toBe(false);
    await invalidateReferences(client);
    expect(invalidated(client, referenceKeys.options())).toBe(true);
    expect(invalidated(client, referenceKeys.list(filters, byUpdate))).toBe(true);
  });

  it("a profile change (name, photo) refreshes the member lists that show the same name", async () => {
    const client = track(clientWith([profileKeys.detail(USER), memberKeys.list(ORG), memberKeys.people(), memberKeys.self(USER)]));
    await invalidateProfile(client);
    for (const key of [profileKeys.detail(USER), memberKeys.list(ORG), memberKeys.people(), memberKeys.self(USER)]) {
      expect(invalidated(client, key)).toBe(true);
    }
  });
});
