import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import type { FunctionArgs } from "@/lib/db-types";
import { getSupabase } from "@/lib/supabase";

/**
 * What spans the content model (assets, modules, claims, references): the
 * ranked full-text search (rpc search_content), the library's counts (rpc
 * content_counts), the filters the lists share, and signed upload URLs for
 * the product buckets (rpc prepare_upload). Every write to content changes
 * search results and counts: the resources' invalidation helpers call
 * {@link invalidateContent}.
 */

/** Filters of the content lists and search. `type` is the asset type, or the module/reference kind. */
export interface ContentFilters {
  status: string;
  type: string;
  product: string;
  owner: string;
  market: string;
}

/** What search_content can return. */
export type SearchKind = "asset" | "module" | "claim" | "reference";

/** A ranked match of search_content (the rpc returns JSON; this is its contract). */
export interface SearchResult {
  kind: string;
  id: string;
  title: string;
  subtitle: string | null;
  status: string | null;
  snippet: string;
  rank: number;
  asset_id?: string | null;
  /** For an asset found only in an older version: that version's number (absent when the match is in current content). */
  version?: number | null;
}

export interface SearchAnswer {
  results: SearchResult[];
}

/** content_counts' answer. */
export interface ContentCounts {
  assets: number;
  modules: number;
  claims: number;
  references: number;
  by_status?: Record<string, number>;
}

/** What prepare_upload hands back: a one-time signed URL to PUT the bytes to. */
export interface PreparedUpload {
  bucket: string;
  path: string;
  token: string;
  signed_url: string;
}

/** The product buckets uploads go to. */
export type UploadBucket = "asset-files" | "reference-files";

export const contentKeys = {
  all: ["content"] as const,
  counts: () => [...contentKeys.all, "counts"] as const,
  searches: () => [...contentKeys.all, "search"] as const,
  search: (kind: SearchKind, query: string, filters: ContentFilters) => [...contentKeys.searches(), kind, query, filters] as const,
};

/** Ranked full-text search over one kind of content, with the filters its list supports. */
export async function searchContent(query: string, kind: SearchKind, filters: ContentFilters, signal?: AbortSignal): Promise<SearchAnswer> {
  const sb = await getSupabase();
  const args: Record<string, unknown> = { query, kinds: [kind], limit: 50 };
  if (filters.status) args.status = filters.status;
  if (filters.type) args.type = filters.type;
  if (filters.product && kind !== "reference") args.product_id = filters.product;
  if (kind === "asset") {
    if (filters.owner) args.owner_id = filters.owner;
    if (filters.market) args.market = filters.market;
  }
  // The registry declares every argument as optional text; the function
  // takes kinds as an array and limit as a number, and leaves out what is absent.
  let call = sb.rpc("search_content", args as unknown as FunctionArgs<"search_content">);
  if (signal) call = call.abortSignal(signal);
  const data = unwrap(await call) as { results?: SearchResult[] } | null;
  return { results: data?.results ?? [] };
}

export function searchQuery(kind: SearchKind, query: string, filters: ContentFilters) {
  return queryOptions({
    queryKey: contentKeys.search(kind, query, filters),
    queryFn: ({ signal }) => searchContent(query, kind, filters, signal),
    enabled: query !== "",
    staleTime: 10_000,
  });
}

/** The library's tab counts. */
export function contentCountsQuery() {
  return queryOptions({
    queryKey: contentKeys.counts(),
    staleTime: 15_000,
    queryFn: async () => {
      const sb = await getSupabase();
      return unwrap(await sb.rpc("content_counts", {}, { get: true })) as unknown as ContentCounts;
    },
  });
}

/** Asks the server for a signed upload URL in a product bucket (it checks size and type up front). */
export async function prepareUpload(bucket: UploadBucket, file: File): Promise<PreparedUpload> {
  const sb = await getSupabase();
  const data = unwrap(await sb.rpc("prepare_upload", { bucket, file_name: file.name, content_type: file.type, size: file.size }));
  return data as unknown as PreparedUpload;
}

/** Refreshes search results and counts after any content write. */
export function invalidateContent(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: contentKeys.all });
}
