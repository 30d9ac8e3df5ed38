import { infiniteQueryOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { type ContentFilters, invalidateContent } from "@/entities/content";
import { unwrap } from "@/lib/data";
import type { Insert, Row, Update } from "@/lib/db-types";
import { type Cursor, nextCursor, pageAfter, type SortSpec } from "@/lib/keyset";
import { getSupabase } from "@/lib/supabase";

/** A reusable module (table `modules`). */
export type ContentModule = Row<"modules">;

/** A module an authored version uses, as its page lists it. */
export type UsedModule = Pick<ContentModule, "id" | "kind" | "title" | "status" | "expires_at">;

/** A module authors may insert: approved and not expired. */
export type InsertableModule = Pick<ContentModule, "id" | "kind" | "title" | "body" | "expires_at">;

/** The columns the module form writes. */
export type ModuleValues = Pick<Insert<"modules">, "kind" | "title" | "body" | "product_id" | "claim_id" | "status" | "expires_at">;

export const moduleKeys = {
  all: ["modules"] as const,
  lists: () => [...moduleKeys.all, "list"] as const,
  list: (filters: ContentFilters, sort: SortSpec) => [...moduleKeys.lists(), filters, sort] as const,
  insertable: () => [...moduleKeys.all, "insertable"] as const,
  usedBy: (versionId: string) => [...moduleKeys.all, "used-by", versionId] as const,
};

/** One page of modules after `cursor` in `sort` order, with the list's filters. */
export async function fetchModulePage(filters: ContentFilters, sort: SortSpec, cursor: Cursor | null, signal?: AbortSignal): Promise<ContentModule[]> {
  const sb = await getSupabase();
  let q = sb.from("modules").select("*");
  if (filters.status) q = q.filter("status", "eq", filters.status);
  if (filters.type) q = q.filter("kind", "eq", filters.type);
  if (filters.product) q = q.filter("product_id", "eq", filters.product);
  return unwrap(await pageAfter(q, sort, cursor, signal));
}

/** The modules list, read by keyset in pages. */
export function moduleListQuery(filters: ContentFilters, sort: SortSpec, enabled = true) {
  return infiniteQueryOptions({
    queryKey: moduleKeys.list(filters, sort),
    enabled,
    initialPageParam: null as Cursor | null,
    queryFn: ({ pageParam, signal }) => fetchModulePage(filters, sort, pageParam, signal),
    getNextPageParam: (page) => nextCursor(sort, page),
    staleTime: 15_000,
  });
}

/** One module by id. */
export async function fetchModule(id: string): Promise<ContentModule> {
  const sb = await getSupabase();
  return unwrap(await sb.from("modules").select("*").eq("id", id).single());
}

/** Approved modules whose expiry has not passed — what authors may insert (using an expired one is a critical finding). */
export function insertableModulesQuery(enabled = true) {
  return queryOptions({
    queryKey: moduleKeys.insertable(),
    enabled,
    queryFn: async (): Promise<InsertableModule[]> => {
      const sb = await getSupabase();
      const today = new Date().toISOString().slice(0, 10);
      return unwrap(
        await sb
          .from("modules")
          .select("id, kind, title, body, expires_at")
          .eq("status", "approved")
          .or(`expires_at.is.null,expires_at.gte.${today}`)
          .order("kind")
          .order("title")
          .limit(500),
      );
    },
  });
}

/** The modules an authored version uses (version_modules), with their kind, title, status and expiry. */
export function versionModulesQuery(versionId: string | null | undefined) {
  return queryOptions({
    queryKey: moduleKeys.usedBy(versionId ?? ""),
    enabled: Boolean(versionId),
    queryFn: async (): Promise<UsedModule[]> => {
      const sb = await getSupabase();
      const links = unwrap(
        await sb
          .from("version_modules")
          .select("module_id")
          .eq("version_id", versionId ?? ""),
      );
      const ids = [...new Set(links.map((l) => l.module_id))];
      if (ids.length === 0) return [];
      return unwrap(await sb.from("modules").select("id, kind, title, status, expires_at").in("id", ids).order("title"));
    },
  });
}

/** Inserts (id null) or updates a module, returning the server's row. */
export async function saveModule(id: string | null, values: ModuleValues): Promise<ContentModule> {
  const sb = await getSupabase();
  return id
    ? unwrap(await sb.from("modules").update(values).eq("id", id).select("*").single())
    : unwrap(await sb.from("modules").insert(values).select("*").single());
}

/**
 * A reviewer's or an administrator's decision on a module: its status and expiry
 * only (the server refuses every other role, and reviewers anything else).
 */
export async function decideModule(id: string, values: Pick<Update<"modules">, "status" | "expires_at">): Promise<ContentModule> {
  const sb = await getSupabase();
  return unwrap(await sb.from("modules").update(values).eq("id", id).select("*").single());
}

/** Refreshes every screen that shows modules (lists, pickers, an asset's "Modules used"), and search and counts. */
export async function invalidateModules(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: moduleKeys.all }), invalidateContent(queryClient)]);
}
