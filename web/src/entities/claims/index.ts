import { infiniteQueryOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { type ContentFilters, invalidateContent } from "@/entities/content";
import { unwrap } from "@/lib/data";
import type { Insert, Row, Update } from "@/lib/db-types";
import { type Cursor, nextCursor, pageAfter, type SortSpec } from "@/lib/keyset";
import { getSupabase } from "@/lib/supabase";

/** A claim (table `claims`). */
export type Claim = Row<"claims">;

/** A reference passage substantiating a claim (table `claim_references`). */
export type ClaimReference = Row<"claim_references">;

/** The columns the claim form writes. */
export type ClaimValues = Pick<Insert<"claims">, "text" | "variants" | "product_id" | "status" | "expires_at">;

/** A passage to link: reference, page and the quoted words. */
export type PassageValues = Pick<Insert<"claim_references">, "claim_id" | "reference_id" | "page" | "passage">;

export const claimKeys = {
  all: ["claims"] as const,
  lists: () => [...claimKeys.all, "list"] as const,
  list: (filters: ContentFilters, sort: SortSpec) => [...claimKeys.lists(), filters, sort] as const,
  options: () => [...claimKeys.all, "options"] as const,
  passages: (claimId: string) => [...claimKeys.all, "passages", claimId] as const,
};

/** One page of claims after `cursor` in `sort` order, with the list's filters. */
export async function fetchClaimPage(filters: ContentFilters, sort: SortSpec, cursor: Cursor | null, signal?: AbortSignal): Promise<Claim[]> {
  const sb = await getSupabase();
  let q = sb.from("claims").select("*");
  if (filters.status) q = q.filter("status", "eq", filters.status);
  if (filters.product) q = q.filter("product_id", "eq", filters.product);
  return unwrap(await pageAfter(q, sort, cursor, signal));
}

/** The claims list, read by keyset in pages. */
export function claimListQuery(filters: ContentFilters, sort: SortSpec, enabled = true) {
  return infiniteQueryOptions({
    queryKey: claimKeys.list(filters, sort),
    enabled,
    initialPageParam: null as Cursor | null,
    queryFn: ({ pageParam, signal }) => fetchClaimPage(filters, sort, pageParam, signal),
    getNextPageParam: (page) => nextCursor(sort, page),
    staleTime: 15_000,
  });
}

/** One claim by id. */
export async function fetchClaim(id: string): Promise<Claim> {
  const sb = await getSupabase();
  return unwrap(await sb.from("claims").select("*").eq("id", id).single());
}

/** Every claim (for pickers), newest first. */
export function claimOptionsQuery(enabled = true) {
  return queryOptions({
    queryKey: claimKeys.options(),
    enabled,
    queryFn: async (): Promise<Claim[]> => {
      const sb = await getSupabase();
      return unwrap(await sb.from("claims").select("*").order("updated_at", { ascending: false }).limit(500));
    },
  });
}

/** The reference passages linked to a claim, oldest first. */
export function claimPassagesQuery(claimId: string) {
  return queryOptions({
    queryKey: claimKeys.passages(claimId),
    queryFn: async (): Promise<ClaimReference[]> => {
      const sb = await getSupabase();
      return unwrap(await sb.from("claim_references").select("*").eq("claim_id", claimId).order("created_at", { ascending: true }));
    },
  });
}

/** Inserts (id null) or updates a claim, returning the server's row. */
export async function saveClaim(id: string | null, values: ClaimValues): Promise<Claim> {
  const sb = await getSupabase();
  return id
    ? unwrap(await sb.from("claims").update(values).eq("id", id).select("*").single())
    : unwrap(await sb.from("claims").insert(values).select("*").single());
}

/**
 * A reviewer's or an administrator's decision on a claim: its status and expiry
 * only (the server refuses every other role, and reviewers anything else).
 */
export async function decideClaim(id: string, values: Pick<Update<"claims">, "status" | "expires_at">): Promise<Claim> {
  const sb = await getSupabase();
  return unwrap(await sb.from("claims").update(values).eq("id", id).select("*").single());
}

/** Links a passage to a claim. The server checks that the quoted words are on that page of the reference's PDF. */
export async function linkPassage(values: PassageValues): Promise<ClaimReference> {
  const sb = await getSupabase();
  return unwrap(await sb.from("claim_references").insert(values).select("*").single());
}

/** Unlinks a passage. */
export async function unlinkPassage(id: string): Promise<void> {
  const sb = await getSupabase();
  unwrap(await sb.from("claim_references").delete().eq("id", id));
}

/** Refreshes every screen that shows claims (lists, pickers, passages), and search and counts. */
export async function invalidateClaims(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: claimKeys.all }), invalidateContent(queryClient)]);
}
