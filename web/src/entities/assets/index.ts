import { infiniteQueryOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { invalidateContent, type ContentFilters } from "@/entities/content";
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
};

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

/** Refreshes every screen that shows assets — their lists and pages, search and counts — after one changed. */
export async function invalidateAssets(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: assetKeys.all }), invalidateContent(queryClient)]);
}
