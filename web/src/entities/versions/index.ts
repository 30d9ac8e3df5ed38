import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { invalidateAssets } from "@/entities/assets";
import { unwrap } from "@/lib/data";
import type { Json, Row } from "@/lib/db-types";
import { assetPageLoads, earlyOr, isUuid, VERSION_COLUMNS } from "@/lib/early";
import { getSupabase } from "@/lib/supabase";

/** One version of an asset (table `asset_versions`; insert-only). */
export type AssetVersion = Row<"asset_versions">;

/** A version without its extracted text and editor JSON. */
export type VersionSummary = Omit<AssetVersion, "plain_text" | "page_texts" | "content_json">;

/** A version's text (plain and per page) and, for authored versions, the editor JSON. */
export type VersionText = Pick<AssetVersion, "id" | "plain_text" | "page_texts" | "content_json">;

/** What add_asset_version takes: a file uploaded via prepare_upload, or authored content. */
export type NewVersion =
  | { file_path: string; file_name: string; change_note: string }
  | { content_json: Json; content_html: string; change_note: string };

export const versionKeys = {
  all: ["versions"] as const,
  byAsset: (assetId: string) => [...versionKeys.all, "asset", assetId] as const,
  text: (versionId: string) => [...versionKeys.all, "text", versionId] as const,
  pages: (versionId: string) => [...versionKeys.all, "pages", versionId] as const,
};

async function fetchVersions(assetId: string): Promise<VersionSummary[]> {
  const sb = await getSupabase();
  const rows: unknown = unwrap(await sb.from("asset_versions").select(VERSION_COLUMNS).eq("asset_id", assetId).order("number", { ascending: false }));
  return rows as VersionSummary[];
}

/**
 * The versions of an asset, newest first (the boot script's early load when
 * there is one). `onFetched` sees the rows as soon as they arrive, before
 * the screen renders them (the asset page starts opening the newest PDF).
 */
export function versionsQuery(assetId: string, onFetched?: (rows: VersionSummary[]) => void) {
  return queryOptions({
    queryKey: versionKeys.byAsset(assetId),
    enabled: isUuid(assetId),
    queryFn: async () => {
      const rows = await earlyOr(assetPageLoads.versions.key(assetId), () => fetchVersions(assetId));
      onFetched?.(rows);
      return rows;
    },
  });
}

/** The text of a version (for compare and for editing). Versions never change, so it is cached for good. */
export function versionTextQuery(versionId: string | null | undefined) {
  return queryOptions({
    queryKey: versionKeys.text(versionId ?? ""),
    enabled: Boolean(versionId),
    staleTime: Infinity,
    queryFn: async (): Promise<VersionText> => {
      const sb = await getSupabase();
      return unwrap(
        await sb
          .from("asset_versions")
          .select("id, plain_text, page_texts, content_json")
          .eq("id", versionId ?? "")
          .single(),
      );
    },
  });
}

/**
 * A version's text page by page (a PDF's extracted pages; composed text is
 * one page), for placing annotations: its `page_texts` alone, and its
 * plain text only when it has none. Versions never change: cached for good.
 */
export function versionPagesQuery(versionId: string | null | undefined, enabled = true) {
  return queryOptions({
    queryKey: versionKeys.pages(versionId ?? ""),
    enabled: enabled && Boolean(versionId),
    staleTime: Infinity,
    queryFn: async (): Promise<string[]> => {
      const sb = await getSupabase();
      const id = versionId ?? "";
      const pages = unwrap<Pick<AssetVersion, "page_texts">>(await sb.from("asset_versions").select("page_texts").eq("id", id).single()).page_texts;
      if (Array.isArray(pages) && pages.length > 0 && pages.every((p) => typeof p === "string")) return pages;
      const text = unwrap<Pick<AssetVersion, "plain_text">>(await sb.from("asset_versions").select("plain_text").eq("id", id).single()).plain_text;
      return text.split("\f");
    },
  });
}

/** Adds a version (rpc add_asset_version); the server numbers it and makes it current. */
export async function addVersion(assetId: string, version: NewVersion): Promise<AssetVersion> {
  const sb = await getSupabase();
  return unwrap(await sb.rpc("add_asset_version", { asset_id: assetId, ...version })) as unknown as AssetVersion;
}

/** Refreshes an asset's versions, and the asset (its current version changed) wherever it is shown. */
export async function invalidateVersions(queryClient: QueryClient, assetId: string): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: versionKeys.byAsset(assetId) }), invalidateAssets(queryClient)]);
}
