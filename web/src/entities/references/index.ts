import { infiniteQueryOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { type ContentFilters, invalidateContent } from "@/entities/content";
import { unwrap } from "@/lib/data";
import type { Insert, Row } from "@/lib/db-types";
import { isUuid } from "@/lib/early";
import { type Cursor, nextCursor, pageAfter, type SortSpec } from "@/lib/keyset";
import { getSupabase } from "@/lib/supabase";

/** A supporting reference (table `references`). */
export type Reference = Row<"references">;

/** The columns the reference form writes. */
export type ReferenceValues = Pick<Insert<"references">, "title" | "citation" | "kind" | "status">;

export const referenceKeys = {
  all: ["references"] as const,
  lists: () => [...referenceKeys.all, "list"] as const,
  list: (filters: ContentFilters, sort: SortSpec) => [...referenceKeys.lists(), filters, sort] as const,
  options: () => [...referenceKeys.all, "options"] as const,
  details: () => [...referenceKeys.all, "detail"] as const,
  detail: (id: string) => [...referenceKeys.details(), id] as const,
};

/** What a reference's viewer shows of it: its citation and its file, not the text of its pages. */
export type ReferenceSummary = Pick<Reference, "id" | "title" | "citation" | "kind" | "status" | "file_bucket" | "file_path" | "file_name" | "page_count">;

const SUMMARY_COLUMNS = "id,title,citation,kind,status,file_bucket,file_path,file_name,page_count";

/**
 * A reference for its viewer, or null when it does not exist or belongs to
 * another organisation (the server shows neither, so the screen cannot
 * tell them apart — by design).
 */
export function referenceQuery(id: string) {
  return queryOptions({
    queryKey: referenceKeys.detail(id),
    queryFn: async (): Promise<ReferenceSummary | null> => {
      if (!isUuid(id)) return null;
      const sb = await getSupabase();
      return unwrap(await sb.from("references").select(SUMMARY_COLUMNS).eq("id", id).maybeSingle());
    },
  });
}

/** One page of references after `cursor` in `sort` order, with the list's filters. */
export async function fetchReferencePage(filters: ContentFilters, sort: SortSpec, cursor: Cursor | null, signal?: AbortSignal): Promise<Reference[]> {
  const sb = await getSupabase();
  let q = sb.from("references").select("*");
  if (filters.status) q = q.filter("status", "eq", filters.status);
  if (filters.type) q = q.filter("kind", "eq", filters.type);
  return unwrap(await pageAfter(q, sort, cursor, signal));
}

/** The references list, read by keyset in pages. */
export function referenceListQuery(filters: ContentFilters, sort: SortSpec, enabled = true) {
  return infiniteQueryOptions({
    queryKey: referenceKeys.list(filters, sort),
    enabled,
    initialPageParam: null as Cursor | null,
    queryFn: ({ pageParam, signal }) => fetchReferencePage(filters, sort, pageParam, signal),
    getNextPageParam: (page) => nextCursor(sort, page),
    staleTime: 15_000,
  });
}

/** One reference by id. */
export async function fetchReference(id: string): Promise<Reference> {
  const sb = await getSupabase();
  return unwrap(await sb.from("references").select("*").eq("id", id).single());
}

/** Every reference (for pickers), by title. */
export function referenceOptionsQuery(enabled = true) {
  return queryOptions({
    queryKey: referenceKeys.options(),
    enabled,
    queryFn: async (): Promise<Reference[]> => {
      const sb = await getSupabase();
      return unwrap(await sb.from("references").select("*").order("title", { ascending: true }).limit(500));
    },
  });
}

/** Inserts (id null) or updates a reference, returning the server's row. */
export async function saveReference(id: string | null, values: ReferenceValues): Promise<Reference> {
  const sb = await getSupabase();
  return id
    ? unwrap(await sb.from("references").update(values).eq("id", id).select("*").single())
    : unwrap(await sb.from("references").insert(values).select("*").single());
}

/** Attaches an uploaded PDF to a reference (rpc attach_reference_file); the server extracts its text page by page. */
export async function attachReferenceFile(referenceId: string, filePath: string, fileName: string): Promise<Reference> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("attach_reference_file", { reference_id: referenceId, file_path: filePath, file_name: fileName })) as unknown as Reference;
}

/** Refreshes every screen that shows references (lists, pickers, a claim's passages), and search and counts. */
export async function invalidateReferences(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: referenceKeys.all }), invalidateContent(queryClient)]);
}
