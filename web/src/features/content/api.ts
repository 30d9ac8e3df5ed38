import type { SupabaseClient } from "@supabase/supabase-js";
import { useQuery } from "@tanstack/react-query";
import { unwrap } from "@/lib/data";
import { getSupabase } from "@/lib/supabase";
import { cursorOf, keysetFilter, type Cursor, type SortSpec } from "./keyset";

// The content tables arrive in database.types.ts with migration 0006; the
// rows are described here so the hub does not depend on when it is
// regenerated. The server is the authority on every value.

interface Stamped {
  id: string;
  org_id: string;
  created_at: string;
  updated_at: string;
  created_by: string | null;
}

export interface Product extends Stamped {
  brand_name: string;
  established_name: string;
  indications: string;
  isi_text: string;
  pi_reference: string;
  launch_date: string | null;
  markets: string[];
  active: boolean;
}

export interface Asset extends Stamped {
  title: string;
  type: string;
  product_id: string | null;
  audience: string;
  channel: string;
  market: string;
  owner_id: string | null;
  job_code: string;
  status: string;
  current_version_id: string | null;
  current_version_number: number | null;
  approved_version_id: string | null;
  expires_at: string | null;
}

export interface ContentModule extends Stamped {
  kind: string;
  title: string;
  body: string;
  claim_id: string | null;
  product_id: string | null;
  image_path: string | null;
  status: string;
  expires_at: string | null;
}

export interface Claim extends Stamped {
  product_id: string | null;
  text: string;
  variants: string[];
  status: string;
  expires_at: string | null;
}

export interface Reference extends Stamped {
  title: string;
  citation: string;
  kind: string;
  status: string;
  file_bucket: string | null;
  file_path: string | null;
  file_name: string | null;
  sha256: string | null;
  page_count: number;
}

export interface ClaimReference extends Stamped {
  claim_id: string;
  reference_id: string;
  page: number;
  passage: string;
}

export interface Member {
  id: string;
  full_name: string;
  email: string;
  avatar_url: string;
  role: string;
}

export interface SearchResult {
  kind: string;
  id: string;
  title: string;
  subtitle: string | null;
  status: string | null;
  snippet: string;
  rank: number;
  asset_id?: string | null;
}

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

/** The hub's tabs; each maps to a table and a search kind. */
export const TABS = ["assets", "modules", "claims", "references"] as const;
export type Tab = (typeof TABS)[number];

export const TAB_TABLE: Record<Tab, string> = {
  assets: "assets",
  modules: "modules",
  claims: "claims",
  references: "references",
};

export const TAB_KIND: Record<Tab, string> = {
  assets: "asset",
  modules: "module",
  claims: "claim",
  references: "reference",
};

/** Filters kept in the URL. `type` is the asset type, or the module/reference kind. */
export interface ContentFilters {
  status: string;
  type: string;
  product: string;
  owner: string;
  market: string;
}

export const SORTS = {
  updated: { label: "Last updated", spec: { column: "updated_at", ascending: false } },
  title: { label: "Title", spec: { column: "title", ascending: true } },
  job_code: { label: "Job code", spec: { column: "job_code", ascending: true } },
  expiry: { label: "Expiry", spec: { column: "expires_at", ascending: true, nullable: true } },
} as const satisfies Record<string, { label: string; spec: SortSpec }>;
export type SortKey = keyof typeof SORTS;

/** The sorts each tab offers (job codes are an asset thing; claims have no title). */
export const TAB_SORTS: Record<Tab, readonly SortKey[]> = {
  assets: ["updated", "title", "job_code", "expiry"],
  modules: ["updated", "title", "expiry"],
  claims: ["updated", "expiry"],
  references: ["updated", "title"],
};

export const PAGE_SIZE = 25;

// The typed client does not know the content tables until the types are
// regenerated; every call below states its row type.
async function db(): Promise<SupabaseClient> {
  const client: SupabaseClient = await getSupabase();
  return client;
}

/** One page of a tab's rows after `cursor`, in `sort` order, with the filters the tab supports. */
export async function fetchRows<T>(tab: Tab, filters: ContentFilters, sortKey: SortKey, cursor: Cursor | null, signal?: AbortSignal): Promise<T[]> {
  const sort: SortSpec = SORTS[sortKey].spec;
  const sb = await db();
  let q = sb.from(TAB_TABLE[tab]).select("*");
  if (filters.status) q = q.eq("status", filters.status);
  if (filters.type) q = q.eq(tab === "assets" ? "type" : "kind", filters.type);
  if (filters.product && tab !== "references") q = q.eq("product_id", filters.product);
  if (tab === "assets") {
    if (filters.owner) q = q.eq("owner_id", filters.owner);
    if (filters.market) q = q.eq("market", filters.market);
  }
  if (cursor) q = q.or(keysetFilter(sort, cursor));
  q = q
    .order(sort.column, { ascending: sort.ascending, nullsFirst: false })
    .order("id", { ascending: sort.ascending })
    .limit(PAGE_SIZE);
  if (signal) q = q.abortSignal(signal);
  return unwrap<T[]>(await q);
}

/** The cursor continuing after the last row of `page`, or undefined when it was the last page. */
export function nextCursor(sortKey: SortKey, page: readonly object[]): Cursor | undefined {
  if (page.length < PAGE_SIZE) return undefined;
  const last = page.at(-1);
  return last ? (cursorOf(SORTS[sortKey].spec, last) ?? undefined) : undefined;
}

/** Ranked full-text search over one kind of content, with the tab's filters. */
export async function searchContent(query: string, tab: Tab, filters: ContentFilters, signal?: AbortSignal): Promise<{ results: SearchResult[] }> {
  const sb = await db();
  const args: Record<string, unknown> = { query, kinds: [TAB_KIND[tab]], limit: 50 };
  if (filters.status) args.status = filters.status;
  if (filters.type) args.type = filters.type;
  if (filters.product && tab !== "references") args.product_id = filters.product;
  if (tab === "assets") {
    if (filters.owner) args.owner_id = filters.owner;
    if (filters.market) args.market = filters.market;
  }
  let call = sb.rpc("search_content", args);
  if (signal) call = call.abortSignal(signal);
  const data = unwrap<{ results?: SearchResult[] } | null>(await call);
  return { results: data?.results ?? [] };
}

export const CONTENT_KEY = "content";

/** Tab counts (rpc content_counts). */
export function useContentCounts() {
  return useQuery({
    queryKey: [CONTENT_KEY, "counts"],
    staleTime: 15_000,
    queryFn: async () => {
      const sb = await db();
      return unwrap<ContentCounts>(await sb.rpc("content_counts", {}, { get: true }));
    },
  });
}

/** The organisation's products, by brand name (active and inactive). */
export function useProducts() {
  return useQuery({
    queryKey: [CONTENT_KEY, "products"],
    queryFn: async () => {
      const sb = await db();
      return unwrap<Product[]>(await sb.from("products").select("*").order("brand_name", { ascending: true }));
    },
  });
}

/** The organisation's members (owners of assets), by name. */
export function useMembers() {
  return useQuery({
    queryKey: [CONTENT_KEY, "members"],
    queryFn: async () => {
      const sb = await getSupabase();
      return unwrap<Member[]>(
        await sb.from("members").select("id, full_name, email, avatar_url, role").order("full_name", { ascending: true }),
      );
    },
  });
}

/** Every reference (for pickers), by title. */
export function useAllReferences(enabled = true) {
  return useQuery({
    queryKey: [CONTENT_KEY, "references", "all"],
    enabled,
    queryFn: async () => {
      const sb = await db();
      return unwrap<Reference[]>(await sb.from("references").select("*").order("title", { ascending: true }).limit(500));
    },
  });
}

/** Approved modules whose expiry has not passed: what authors may insert. */
export function useInsertableModules(enabled = true) {
  return useQuery({
    queryKey: [CONTENT_KEY, "modules", "insertable"],
    enabled,
    queryFn: async () => {
      const sb = await db();
      const today = new Date().toISOString().slice(0, 10);
      return unwrap<ContentModule[]>(
        await sb
          .from("modules")
          .select("*")
          .eq("status", "approved")
          .or(`expires_at.is.null,expires_at.gte.${today}`)
          .order("kind")
          .order("title")
          .limit(500),
      );
    },
  });
}

/** Every claim (for the module form's claim picker), newest first. */
export function useAllClaims(enabled = true) {
  return useQuery({
    queryKey: [CONTENT_KEY, "claims", "all"],
    enabled,
    queryFn: async () => {
      const sb = await db();
      return unwrap<Claim[]>(await sb.from("claims").select("*").order("updated_at", { ascending: false }).limit(500));
    },
  });
}

/** The reference passages linked to a claim, oldest first. */
export function useClaimReferences(claimId: string | null) {
  return useQuery({
    queryKey: [CONTENT_KEY, "claim_references", claimId],
    enabled: Boolean(claimId),
    queryFn: async () => {
      const sb = await db();
      return unwrap<ClaimReference[]>(
        await sb
          .from("claim_references")
          .select("*")
          .eq("claim_id", claimId ?? "")
          .order("created_at", { ascending: true }),
      );
    },
  });
}

/** Inserts (no id) or updates (id) a row of `table`, returning the server's row. */
export async function saveRow<T>(table: string, id: string | null, values: Record<string, unknown>): Promise<T> {
  const sb = await db();
  if (id) {
    return unwrap<T>(await sb.from(table).update(values).eq("id", id).select("*").single());
  }
  return unwrap<T>(await sb.from(table).insert(values).select("*").single());
}

/** One row of `table` by id. */
export async function fetchById<T>(table: string, id: string): Promise<T> {
  const sb = await db();
  return unwrap<T>(await sb.from(table).select("*").eq("id", id).single());
}

/** Deletes a row of `table`. */
export async function deleteRow(table: string, id: string): Promise<void> {
  const sb = await db();
  unwrap(await sb.from(table).delete().eq("id", id));
}

/** Calls an rpc and returns its JSON result. */
export async function callRpc<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const sb = await db();
  return unwrap<T>(await sb.rpc(name, args));
}

/** Asks the server for a signed upload URL in a product bucket (asset-files, reference-files). */
export function prepareUpload(bucket: string, file: File): Promise<PreparedUpload> {
  return callRpc<PreparedUpload>("prepare_upload", {
    bucket,
    file_name: file.name,
    content_type: file.type,
    size: file.size,
  });
}
