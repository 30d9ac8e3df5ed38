import { infiniteQueryOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { invalidateContent, type ContentFilters } from "@/entities/content";
import { invalidateInsights } from "@/entities/insights";
import { invalidateReviewQueue } from "@/entities/review-queue";
import { unwrap } from "@/lib/data";
import type { FunctionArgs, Row, Update } from "@/lib/db-types";
import { assetPageLoads, earlyOr, isUuid } from "@/lib/early";
import { type Cursor, nextCursor, pageAfter, type SortSpec } from "@/lib/keyset";
import { getSupabase } from "@/lib/supabase";

/** An asset (table `assets`). */
export type Asset = Row<"assets">;

/** The columns Edit details may change (the server refuses any other). */
export type AssetPatch = Pick<Update<"assets">, "title" | "audience" | "channel" | "market" | "product_id" | "owner_id" | "expires_at">;

/** What create_asset takes: the details and a first version (authored content, or a file uploaded with prepare_upload). */
export type NewAsset = FunctionArgs<"create_asset">;

export const assetKeys = {
  all: ["assets"] as const,
  lists: () => [...assetKeys.all, "list"] as const,
  list: (filters: ContentFilters, sort: SortSpec) => [...assetKeys.lists(), filters, sort] as const,
  details: () => [...assetKeys.all, "detail"] as const,
  detail: (id: string) => [...assetKeys.details(), id] as const,
  drafts: (ownerId: string | null | undefined) => [...assetKeys.all, "drafts", ownerId ?? null] as const,
  expiring: (until: string) => [...assetKeys.all, "expiring", until] as const,
};

/** The statuses in which an asset waits for its author: not yet submitted, or sent back. */
export const AUTHOR_STATUSES = ["draft", "changes_requested"] as const;

/** The Command Center's lists show a few rows and link to the rest. */
const SHORT_LIST = 5;

async function fetchAsset(id: string): Promise<Asset | null> {
  if (!isUuid(id)) return null;
  const sb = await getSupabase();
  return unwrap(await sb.from("assets").select("*").eq("id", id).maybeSingle());
}

/**
 * An asset, or null when it does not exist or belongs to another
 * organisation (the server shows neither, so the screen cannot tell them
 * apart — by design). Takes the boot script's early load when there is one.
 */
export function assetQuery(id: string) {
  return queryOptions({
    queryKey: assetKeys.detail(id),
    queryFn: () =>
      earlyOr<Asset | Asset[] | null>(assetPageLoads.asset.key(id), () => fetchAsset(id)).then((rows) => (Array.isArray(rows) ? (rows[0] ?? null) : rows)),
  });
}

/** One page of assets after `cursor` in `sort` order, with the list's filters. */
export async function fetchAssetPage(filters: ContentFilters, sort: SortSpec, cursor: Cursor | null, signal?: AbortSignal): Promise<Asset[]> {
  const sb = await getSupabase();
  let q = sb.from("assets").select("*");
  // Filter values come from the address bar: the server checks them.
  if (filters.status) q = q.filter("status", "eq", filters.status);
  if (filters.type) q = q.filter("type", "eq", filters.type);
  if (filters.product) q = q.filter("product_id", "eq", filters.product);
  if (filters.owner) q = q.filter("owner_id", "eq", filters.owner);
  if (filters.market) q = q.filter("market", "eq", filters.market);
  return unwrap(await pageAfter(q, sort, cursor, signal));
}

/** The assets list, read by keyset in pages. */
export function assetListQuery(filters: ContentFilters, sort: SortSpec) {
  return infiniteQueryOptions({
    queryKey: assetKeys.list(filters, sort),
    initialPageParam: null as Cursor | null,
    queryFn: ({ pageParam, signal }) => fetchAssetPage(filters, sort, pageParam, signal),
    getNextPageParam: (page) => nextCursor(sort, page),
    staleTime: 15_000,
  });
}

/**
 * The assets `ownerId` owns that wait for them (drafts, and those sent back
 * with changes requested), most recently changed first: the Command
 * Center's "My drafts".
 */
export function myDraftsQuery(ownerId: string | null | undefined, size: number = SHORT_LIST) {
  return queryOptions({
    queryKey: [...assetKeys.drafts(ownerId), size] as const,
    enabled: Boolean(ownerId),
    staleTime: 15_000,
    queryFn: async ({ signal }): Promise<Asset[]> => {
      const sb = await getSupabase();
      return unwrap(
        await sb
          .from("assets")
          .select("*")
          .eq("owner_id", ownerId ?? "")
          .in("status", [...AUTHOR_STATUSES])
          .order("updated_at", { ascending: false })
          .order("id")
          .limit(size)
          .abortSignal(signal),
      );
    },
  });
}

/** 'YYYY-MM-DD' of the local day `days` after `from`. */
export function dayAfter(from: Date, days: number): string {
  const d = new Date(from.getFullYear(), from.getMonth(), from.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Approved assets whose approval ends on or before `until` ('YYYY-MM-DD'),
 * soonest first: what must be renewed or retired (the Command Center shows
 * those within 30 days). An approval already past its date but not yet
 * swept to expired is among them.
 */
export function expiringAssetsQuery(until: string, size = 10) {
  return queryOptions({
    queryKey: [...assetKeys.expiring(until), size] as const,
    staleTime: 60_000,
    queryFn: async ({ signal }): Promise<Asset[]> => {
      const sb = await getSupabase();
      return unwrap(
        await sb
          .from("assets")
          .select("*")
          .eq("status", "approved")
          .not("expires_at", "is", null)
          .lte("expires_at", until)
          .order("expires_at", { ascending: true })
          .order("id")
          .limit(size)
          .abortSignal(signal),
      );
    },
  });
}

/** PATCHes the asset's details and returns the updated row. */
export async function updateAsset(id: string, patch: AssetPatch): Promise<Asset> {
  const sb = await getSupabase();
  return unwrap(await sb.from("assets").update(patch).eq("id", id).select("*").single());
}

/** Archives the asset (rpc archive_asset). */
export async function archiveAsset(assetId: string): Promise<Asset> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("archive_asset", { asset_id: assetId })) as unknown as Asset;
}

/** Creates an asset with its first version (rpc create_asset); the server makes both in one step. */
export async function createAsset(asset: NewAsset): Promise<Asset> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("create_asset", asset)) as unknown as Asset;
}

/**
 * Refreshes every screen that shows assets — their lists and pages, search,
 * counts, the review queue, whose rows carry the asset, and the insights,
 * which count its rounds — after one changed (its details, or its status
 * through the review workflow).
 */
export async function invalidateAssets(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: assetKeys.all }),
    invalidateContent(queryClient),
    invalidateReviewQueue(queryClient),
    invalidateInsights(queryClient),
  ]);
}
