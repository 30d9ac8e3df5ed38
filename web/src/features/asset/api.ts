import { useQuery, useQueryClient } from "@tanstack/react-query";
import { DataError, unwrap } from "@/lib/data";
import { earlyOr } from "@/lib/early";
import type { Json } from "@/lib/database.types";
import { getSupabase } from "@/lib/supabase";
import { isUuid, prefetchCurrentPdf, VERSION_COLUMNS, type VersionSummary } from "./early";

export { isUuid, type VersionSummary };
import { type Asset, type AssetVersion, type Person, type ProductSummary, type UsedModule } from "./types";

interface RpcResult {
  data: unknown;
  error: { message: string; code?: string; details?: string | null } | null;
  status: number;
}

/**
 * Calls an rpc of the content contract (issue 5). Typed loosely because the
 * rpc answers JSON the screen reads as the contract's row shapes.
 */
async function rpc(name: string, args: Record<string, unknown>): Promise<unknown> {
  const sb = await getSupabase();
  const call = sb.rpc.bind(sb) as unknown as (fn: string, a: Record<string, unknown>) => PromiseLike<RpcResult>;
  const { data, error, status } = await call(name, args);
  if (error) throw new DataError(error.message, status, error.code ?? "", error.details ?? null);
  return data;
}

/** Query keys of this screen, so writes can refresh exactly what changed. */
export const assetKeys = {
  asset: (id: string) => ["asset", id] as const,
  versions: (id: string) => ["asset", id, "versions"] as const,
  text: (versionId: string) => ["asset-version-text", versionId] as const,
  modules: (versionId: string) => ["asset-version-modules", versionId] as const,
};

/**
 * The asset, or null when it does not exist or belongs to another
 * organisation (the server shows neither, so the screen cannot tell them
 * apart — by design).
 */
export function useAsset(id: string) {
  return useQuery({
    queryKey: assetKeys.asset(id),
    queryFn: () => earlyOr(`asset:${id}`, () => fetchAsset(id)).then(firstOrNull),
  });
}

function firstOrNull(rows: Asset | Asset[] | null): Asset | null {
  return Array.isArray(rows) ? (rows[0] ?? null) : rows;
}

async function fetchAsset(id: string): Promise<Asset | null> {
  if (!isUuid(id)) return null;
  const sb = await getSupabase();
  return unwrap<Asset | null>(await sb.from("assets").select("*").eq("id", id).maybeSingle());
}

/** The versions of an asset, newest first. */
export function useVersions(assetId: string) {
  return useQuery({
    queryKey: assetKeys.versions(assetId),
    enabled: isUuid(assetId),
    queryFn: () => earlyOr(`versions:${assetId}`, () => fetchVersions(assetId)),
  });
}

async function fetchVersions(assetId: string): Promise<VersionSummary[]> {
  const sb = await getSupabase();
  const rows = unwrap<VersionSummary[]>(
    await sb.from("asset_versions").select(VERSION_COLUMNS).eq("asset_id", assetId).order("number", { ascending: false }),
  );
  prefetchCurrentPdf(rows[0]);
  return rows;
}

/** A version's text (plain and per page) and, for authored versions, the editor JSON. */
export type VersionText = Pick<AssetVersion, "id" | "plain_text" | "page_texts" | "content_json">;

/** Loads the text of a version (for compare and for editing). Versions never change, so it is cached for good. */
export function useVersionText(versionId: string | null | undefined) {
  return useQuery({
    queryKey: assetKeys.text(versionId ?? ""),
    enabled: Boolean(versionId),
    staleTime: Infinity,
    queryFn: async (): Promise<VersionText> => {
      const sb = await getSupabase();
      return unwrap<VersionText>(
        await sb
          .from("asset_versions")
          .select("id, plain_text, page_texts, content_json")
          .eq("id", versionId ?? "")
          .single(),
      );
    },
  });
}

/** The modules an authored version uses (version_modules), with their kind, title, status and expiry. */
export function useVersionModules(versionId: string | null | undefined) {
  return useQuery({
    queryKey: assetKeys.modules(versionId ?? ""),
    enabled: Boolean(versionId),
    staleTime: Infinity,
    queryFn: async (): Promise<UsedModule[]> => {
      const sb = await getSupabase();
      const links = unwrap<{ module_id: string }[]>(
        await sb
          .from("version_modules")
          .select("module_id")
          .eq("version_id", versionId ?? ""),
      );
      const ids = [...new Set(links.map((l) => l.module_id))];
      if (ids.length === 0) return [];
      return unwrap<UsedModule[]>(
        await sb.from("modules").select("id, kind, title, status, expires_at").in("id", ids).order("title"),
      );
    },
  });
}

/** A module the editor may insert: approved and not expired. */
export interface InsertableModuleRow {
  id: string;
  kind: string;
  title: string;
  body: string;
  expires_at: string | null;
}

/** Approved modules for "Insert module" (expired ones are left out: using one is a critical finding). */
export function useInsertableModules(enabled: boolean) {
  return useQuery({
    queryKey: ["modules", "insertable"],
    enabled,
    queryFn: async (): Promise<InsertableModuleRow[]> => {
      const sb = await getSupabase();
      const rows = unwrap<InsertableModuleRow[]>(
        await sb.from("modules").select("id, kind, title, body, expires_at").eq("status", "approved").order("title"),
      );
      const today = new Date().toISOString().slice(0, 10);
      return rows.filter((m) => !m.expires_at || m.expires_at >= today);
    },
  });
}

/** The organisation's products (for the product picker and the metadata panel). */
export function useProducts() {
  return useQuery({
    queryKey: ["products", "summary"],
    queryFn: () =>
      earlyOr("products:summary", async (): Promise<ProductSummary[]> => {
        const sb = await getSupabase();
        return unwrap<ProductSummary[]>(await sb.from("products").select("id, brand_name, established_name").order("brand_name"));
      }),
  });
}

/** The organisation's members, for owner and author names and the owner picker. */
export function usePeople() {
  return useQuery({
    queryKey: ["members", "people"],
    queryFn: () =>
      earlyOr("members:people", async (): Promise<Person[]> => {
        const sb = await getSupabase();
        return unwrap<Person[]>(await sb.from("members").select("id, full_name, email").order("full_name"));
      }),
  });
}

/** The columns Edit details may change (the server refuses any other). */
export type AssetPatch = Partial<
  Pick<Asset, "title" | "audience" | "channel" | "market" | "product_id" | "owner_id" | "expires_at">
>;

/** PATCHes the asset's details and returns the updated row. */
export async function updateAsset(id: string, patch: AssetPatch): Promise<Asset> {
  const sb = await getSupabase();
  return unwrap<Asset>(await sb.from("assets").update(patch).eq("id", id).select("*").single());
}

/** Archives the asset (rpc archive_asset). */
export async function archiveAsset(assetId: string): Promise<Asset> {
  return (await rpc("archive_asset", { asset_id: assetId })) as Asset;
}

/** Where a file may be uploaded: the rpc prepare_upload's answer. */
export interface PreparedUpload {
  bucket: string;
  path: string;
  token: string;
  signed_url: string;
}

/** Asks the server for a signed upload URL in `asset-files` (checks size and type up front). */
export async function prepareUpload(file: File): Promise<PreparedUpload> {
  return (await rpc("prepare_upload", {
    bucket: "asset-files",
    file_name: file.name,
    content_type: file.type,
    size: file.size,
  })) as PreparedUpload;
}

/** What add_asset_version takes: a file uploaded via prepare_upload, or authored content. */
export type NewVersion =
  | { file_path: string; file_name: string; change_note: string }
  | { content_json: Json; content_html: string; change_note: string };

/** Adds a version (rpc add_asset_version); the server numbers it and makes it current. */
export async function addVersion(assetId: string, version: NewVersion): Promise<AssetVersion> {
  return (await rpc("add_asset_version", { asset_id: assetId, ...version })) as AssetVersion;
}

/** Refreshes the asset and its versions after a write. */
export function useRefreshAsset(assetId: string): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: assetKeys.asset(assetId), exact: true }),
      client.invalidateQueries({ queryKey: assetKeys.versions(assetId) }),
    ]);
  };
}

/** A short-lived signed URL of a stored object, for elements that cannot send headers (<img>). */
export async function signedUrl(bucket: string, path: string, expiresIn = 600): Promise<string> {
  const sb = await getSupabase();
  const { data, error } = await sb.storage.from(bucket).createSignedUrl(path, expiresIn);
  if (error) throw error;
  return data.signedUrl;
}

/** A short-lived signed URL of a stored file, refreshed before it expires. */
export function useSignedUrl(bucket: string | null | undefined, path: string | null | undefined) {
  return useQuery({
    queryKey: ["signed-url", bucket, path],
    enabled: Boolean(bucket && path),
    staleTime: 5 * 60_000, // the URL lives 10 minutes
    queryFn: () => signedUrl(bucket ?? "", path ?? ""),
  });
}
